/* dlopen_app.c - dl-it-dlopen: the `iterate` scenario written as a program
 * that does not link OpenCL but opens libOpenCL.so.1 itself and looks up
 * every entry point with dlsym.  A plain LD_PRELOAD shim cannot see these
 * calls; dlayout's ICD-layer mode (dl-run --layer) can.  Without dlayout,
 * and under the preload shim, it must still give the same output. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef DL_IT_KERNEL_DIR
#error "DL_IT_KERNEL_DIR must name the kernels/ folder"
#endif

/* The entry points used, as (name, return type, parameters). */
#define CL_FUNCTIONS(X)                                                        \
    X(clGetPlatformIDs, cl_int, (cl_uint, cl_platform_id *, cl_uint *))        \
    X(clGetDeviceIDs, cl_int,                                                  \
      (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *))    \
    X(clCreateContext, cl_context,                                             \
      (const cl_context_properties *, cl_uint, const cl_device_id *,           \
       void(CL_CALLBACK *)(const char *, const void *, size_t, void *),        \
       void *, cl_int *))                                                      \
    X(clCreateCommandQueue, cl_command_queue,                                  \
      (cl_context, cl_device_id, cl_command_queue_properties, cl_int *))       \
    X(clCreateProgramWithSource, cl_program,                                   \
      (cl_context, cl_uint, const char **, const size_t *, cl_int *))          \
    X(clBuildProgram, cl_int,                                                  \
      (cl_program, cl_uint, const cl_device_id *, const char *,                \
       void(CL_CALLBACK *)(cl_program, void *), void *))                       \
    X(clCreateKernel, cl_kernel, (cl_program, const char *, cl_int *))         \
    X(clCreateBuffer, cl_mem,                                                  \
      (cl_context, cl_mem_flags, size_t, void *, cl_int *))                    \
    X(clSetKernelArg, cl_int, (cl_kernel, cl_uint, size_t, const void *))      \
    X(clEnqueueNDRangeKernel, cl_int,                                          \
      (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,   \
       const size_t *, cl_uint, const cl_event *, cl_event *))                 \
    X(clEnqueueReadBuffer, cl_int,                                             \
      (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,     \
       const cl_event *, cl_event *))                                          \
    X(clReleaseMemObject, cl_int, (cl_mem))                                    \
    X(clReleaseKernel, cl_int, (cl_kernel))                                    \
    X(clReleaseProgram, cl_int, (cl_program))                                  \
    X(clReleaseCommandQueue, cl_int, (cl_command_queue))                       \
    X(clReleaseContext, cl_int, (cl_context))

static struct {
#define FIELD(name, ret, params) ret(CL_API_CALL *name) params;
    CL_FUNCTIONS(FIELD)
#undef FIELD
} cl;

static void fail(const char *what, long code)
{
    fprintf(stderr, "dl-it-dlopen: %s failed (%ld)\n", what, code);
    exit(1);
}
#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int err_ = (call);                                                  \
        if (err_ != CL_SUCCESS)                                                \
            fail(#call, err_);                                                 \
    } while (0)

static void load_opencl(void)
{
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        fail(dlerror(), 0);
#define LOOKUP(name, ret, params)                                              \
    *(void **)&cl.name = dlsym(lib, #name);                                    \
    if (!cl.name)                                                              \
        fail("dlsym " #name, 0);
    CL_FUNCTIONS(LOOKUP)
#undef LOOKUP
}

static char *kernel_source(void)
{
    static char text[1 << 16];
    FILE *f = fopen(DL_IT_KERNEL_DIR "/particles.cl", "rb");
    if (!f)
        fail("opening particles.cl", 0);
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    return text;
}

/* The record of particles.cl, as host.h declares it. */
typedef struct particle {
    float x;
    int32_t id;
    int64_t mass;
    int16_t tag;
    uint8_t flag;
} particle;

enum { N = 1003, STEPS = 10 };

int main(void)
{
    static particle p[N], out[N];
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    memset(p, 0x3c, sizeof p); /* padding bytes included */
    for (int i = 0; i < N; i++)
        p[i] = (particle){(float)(i % 97) / 4.0f, i, (int64_t)i << 20,
                          (int16_t)(i * 5), (uint8_t)i};

    load_opencl();
    CHECK(cl.clGetPlatformIDs(1, &platform, NULL));
    CHECK(cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = cl.clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = cl.clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    const char *source = kernel_source();
    cl_program program =
        cl.clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK(err);
    CHECK(cl.clBuildProgram(program, 1, &device, NULL, NULL, NULL));
    cl_kernel step = cl.clCreateKernel(program, "advance", &err);
    CHECK(err);
    cl_mem buf = cl.clCreateBuffer(
        context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof p, p, &err);
    CHECK(err);

    const cl_int n = N;
    const cl_float dx = 0.5f;
    const size_t global = 1024;
    CHECK(cl.clSetKernelArg(step, 0, sizeof buf, &buf));
    CHECK(cl.clSetKernelArg(step, 1, sizeof n, &n));
    CHECK(cl.clSetKernelArg(step, 2, sizeof dx, &dx));
    for (int s = 0; s < STEPS; s++)
        CHECK(cl.clEnqueueNDRangeKernel(queue, step, 1, NULL, &global, NULL, 0,
                                        NULL, NULL));
    CHECK(cl.clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0,
                                 NULL, NULL));

    uint64_t hash = 1469598103934665603ull;
    const unsigned char *bytes = (const unsigned char *)out;
    for (size_t i = 0; i < sizeof out; i++)
        hash = (hash ^ bytes[i]) * 1099511628211ull;
    printf("dlopen: after %d launches: bytes=%zu fnv=%016llx\n", STEPS,
           sizeof out, (unsigned long long)hash);

    CHECK(cl.clReleaseMemObject(buf));
    CHECK(cl.clReleaseKernel(step));
    CHECK(cl.clReleaseProgram(program));
    CHECK(cl.clReleaseCommandQueue(queue));
    CHECK(cl.clReleaseContext(context));
    return 0;
}
