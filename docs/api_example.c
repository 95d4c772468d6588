/* api_example.c - converts a buffer of C structs from AoS to ASTA(32) on
 * an OpenCL device, reads one field through the accessor, and converts it
 * back.  Built and run by the test suite (tests/meson.build), and shown
 * verbatim in docs/api.md. */
#include <dlayout.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct particle { /* 32 bytes: 4 bytes of padding after pos */
    float pos[3];
    double mass;
    int id;
};

#define CHECK(call)                                                            \
    do {                                                                       \
        dl_status st_ = (call);                                                \
        if (st_ != DL_SUCCESS) {                                               \
            fprintf(stderr, "%s: %s\n", dl_status_name(st_), dl_last_error()); \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(void)
{
    /* Any OpenCL context, device and queue will do. */
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (err == CL_SUCCESS)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device (%d)\n", (int)err);
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);

    /* 1. Describe the record: the fields, and sizeof for the stride. */
    const dl_field fields[] = {
        {offsetof(struct particle, pos), sizeof(float[3])},
        {offsetof(struct particle, mass), sizeof(double)},
        {offsetof(struct particle, id), sizeof(int)},
    };
    dl_record *rec;
    CHECK(dl_record_create(fields, 3, sizeof(struct particle), &rec));

    /* 2. The data: n particles in AoS, as the program already has them. */
    const size_t n = 1000;
    struct particle *p = calloc(n, sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = (struct particle){{i, 2.0f * i, 3.0f * i}, 0.5 * i, (int)i};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                n * sizeof *p, p, &err);

    /* 3. Convert in place on the device: AoS -> ASTA(32). */
    dl_engine *engine;
    CHECK(dl_engine_create(ctx, device, &engine));
    dl_layout aos = dl_layout_aos(rec, n);
    dl_layout asta = dl_layout_asta(rec, n, 32);
    cl_event done;
    CHECK(dl_enqueue_convert(engine, queue, buf, &aos, &asta, DL_ALGO_AUTO, 0,
                             NULL, &done));

    /* 4. Read the buffer after the conversion; find particle 999's mass
     *    (in the last, partial tile of 1000 % 32 = 8) with the accessor. */
    unsigned char *raw = malloc(n * sizeof *p);
    clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof *p, raw, 1, &done,
                        NULL);
    clReleaseEvent(done);
    size_t off;
    CHECK(dl_layout_offset(&asta, 999, 1, &off));
    double mass;
    memcpy(&mass, raw + off, sizeof mass);
    printf("particle 999: mass %.1f at byte %zu of ASTA(32)\n", mass, off);

    /* 5. And back: the bytes are the original ones, padding included. */
    CHECK(dl_enqueue_convert(engine, queue, buf, &asta, &aos, DL_ALGO_AUTO, 0,
                             NULL, NULL));
    clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof *p, raw, 0, NULL,
                        NULL);
    int ok = mass == p[999].mass && memcmp(raw, p, n * sizeof *p) == 0;
    printf("round trip %s\n", ok ? "bit-exact" : "FAILED");

    free(raw);
    free(p);
    clReleaseMemObject(buf);
    dl_engine_release(engine);
    dl_record_release(rec);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    return ok ? 0 : 1;
}
