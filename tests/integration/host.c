/* host.c - OpenCL setup, kernel files, digests (see host.h). */
#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DL_IT_KERNEL_DIR
#error "DL_IT_KERNEL_DIR must name the kernels/ folder"
#endif

void it_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("integration: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void it_check(cl_int err, const char *what, const char *file, int line)
{
    if (err != CL_SUCCESS)
        it_fail("%s:%d: %s failed with %d", file, line, what, (int)err);
}

static int platform_wanted(cl_platform_id platform)
{
    const char *want = getenv("DL_TEST_PLATFORM");
    char name[256] = "";
    if (!want || !*want)
        return 1;
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    return strstr(name, want) != NULL;
}

void it_cl_open(it_cl *cl)
{
    cl_platform_id platforms[16];
    cl_uint count = 0;
    cl_int err;
    memset(cl, 0, sizeof *cl);
    CHECK(clGetPlatformIDs(16, platforms, &count));
    for (cl_uint i = 0; i < count && !cl->device; i++) {
        if (!platform_wanted(platforms[i]))
            continue;
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &cl->device,
                           NULL) == CL_SUCCESS)
            cl->platform = platforms[i];
        else
            cl->device = NULL;
    }
    if (!cl->device)
        it_fail("no OpenCL device");
    cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
    CHECK(err);
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    CHECK(err);
}

void it_cl_close(it_cl *cl)
{
    CHECK(clReleaseCommandQueue(cl->queue));
    CHECK(clReleaseContext(cl->context));
}

char *it_read_kernel_file(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", DL_IT_KERNEL_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        it_fail("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        it_fail("cannot read %s", path);
    text[size] = '\0';
    fclose(f);
    return text;
}

cl_program it_build(const it_cl *cl, const char *name, const char *options)
{
    char *text = it_read_kernel_file(name);
    const char *strings[] = {text};
    cl_int err;
    cl_program program =
        clCreateProgramWithSource(cl->context, 1, strings, NULL, &err);
    CHECK(err);
    free(text);
    err = clBuildProgram(program, 1, &cl->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(program, cl->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log - 1, log, NULL);
        it_fail("building %s failed (%d):\n%s", name, (int)err, log);
    }
    return program;
}

cl_kernel it_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK(err);
    return kernel;
}

/* A small deterministic generator (xorshift32). */
static uint32_t next_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

void it_particles_init(particle *p, size_t n, uint32_t seed)
{
    uint32_t state = seed * 2654435761u + 1;
    unsigned char *bytes = (unsigned char *)p;
    for (size_t b = 0; b < n * sizeof *p; b++)
        bytes[b] = (unsigned char)next_random(&state);
    for (size_t i = 0; i < n; i++) {
        /* multiples of 1/4 below 2^16: the kernels' float arithmetic on
         * them stays exact */
        p[i].x = (float)(next_random(&state) % 65536) / 4.0f;
        p[i].id = (int32_t)(i * 7 + seed);
        p[i].mass = (int64_t)next_random(&state) << 8;
        p[i].tag = (int16_t)next_random(&state);
        p[i].flag = (uint8_t)next_random(&state);
    }
}

void it_print_digest(const char *label, const void *data, size_t size)
{
    const unsigned char *bytes = data;
    uint64_t hash = 1469598103934665603ull; /* FNV-1a, 64 bits */
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ bytes[i]) * 1099511628211ull;
    printf("%s: bytes=%zu fnv=%016llx head=", label, size,
           (unsigned long long)hash);
    for (size_t i = 0; i < size && i < 12; i++)
        printf("%02x", bytes[i]);
    printf("\n");
    fflush(stdout);
}

void it_print_buffer(const it_cl *cl, cl_mem buf, size_t size,
                     const char *label)
{
    void *host = malloc(size);
    if (!host)
        it_fail("out of memory");
    CHECK(clEnqueueReadBuffer(cl->queue, buf, CL_TRUE, 0, size, host, 0, NULL,
                              NULL));
    it_print_digest(label, host, size);
    free(host);
}

void it_set_advance_args(cl_kernel advance, cl_mem p, cl_int n, cl_float dx)
{
    CHECK(clSetKernelArg(advance, 0, sizeof p, &p));
    CHECK(clSetKernelArg(advance, 1, sizeof n, &n));
    CHECK(clSetKernelArg(advance, 2, sizeof dx, &dx));
}

size_t it_round_up(size_t n)
{
    return (n + 63) / 64 * 64;
}

cl_mem it_particle_buffer(const it_cl *cl, cl_mem_flags extra_flags, size_t n,
                          uint32_t seed)
{
    particle *host = malloc(n * sizeof *host);
    cl_int err;
    if (!host)
        it_fail("out of memory");
    it_particles_init(host, n, seed);
    cl_mem buf = clCreateBuffer(
        cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR | extra_flags,
        n * sizeof *host, host, &err);
    CHECK(err);
    free(host);
    return buf;
}

void it_run(cl_command_queue queue, cl_kernel kernel, size_t global)
{
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL,
                                 NULL));
}
