/* bench.c - calls that involve no conversion, N times each, for
 * overhead.sh: callgrind counts the instructions inside each bench_
 * function, with and without the shim.
 *
 *   shim-bench N [--annotated]
 *
 * --annotated puts a // DL: annotation on the kernel, so that the runtime
 * tracks it (the calls then take the runtime's slower, locked paths).
 *
 * Each function runs once with N = 1 before, so that the first call of
 * the process (which starts the runtime) and lazy binding stay out of
 * the N calls; callgrind counts that one call too, overhead.sh divides
 * by N + 1.  bench_launch runs N / 100 launches in all (at least one),
 * in batches of 100 with a clFinish between them outside the counted
 * function, after two uncounted launches; bench_read as many blocking
 * reads of a buffer no kernel uses (under --annotated, while the
 * kernel's buffer is transformed), and bench_read_tracked of one that
 * dlayout tracks (it has a sub-buffer) but never converted.  There are
 * CANDIDATES of each; --candidate K reads the K-th (overhead.sh takes the
 * cheapest: a buffer whose slot in dlayout's table another one took, by
 * the luck of addresses, costs more). */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int err_ = (call);                                                  \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__,       \
                    #call, err_);                                              \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static const char *annotation = "//DL: aos: y[n][2] -> da\n";
/* The kernel works element by element, so one body serves both layouts;
 * the runtime transforms only a kernel that selects a branch for it. */
static const char *source =
    "__kernel void axpy(__global float *y, float a, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "#ifdef DL_ACTIVE_axpy\n"
    "    if (i < n)\n"
    "        y[i] = a * y[i];\n"
    "#else\n"
    "    if (i < n)\n"
    "        y[i] = a * y[i];\n"
    "#endif\n"
    "}\n";

/* Hooked: a scalar argument. */
__attribute__((noinline)) void bench_set_scalar_arg(cl_kernel kernel, long n)
{
    for (long i = 0; i < n; i++) {
        float a = (float)i;
        CHECK(clSetKernelArg(kernel, 1, sizeof a, &a));
    }
}

/* Hooked: a buffer argument. */
__attribute__((noinline)) void bench_set_buffer_arg(cl_kernel kernel,
                                                    cl_mem buffer, long n)
{
    for (long i = 0; i < n; i++)
        CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
}

/* Not hooked: the preload does not define it at all. */
__attribute__((noinline)) void bench_get_kernel_info(cl_kernel kernel, long n)
{
    for (long i = 0; i < n; i++) {
        cl_uint args;
        CHECK(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof args, &args,
                              NULL));
    }
}

/* Hooked: launches that convert nothing (under --annotated the first
 * launch, in the warm-up, converted the buffer once). */
__attribute__((noinline)) void bench_launch(cl_command_queue queue,
                                            cl_kernel kernel, long n)
{
    size_t global = 512;
    for (long i = 0; i < n; i++)
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                     NULL, NULL));
}

/* Hooked: blocking reads that convert nothing (inlined, so that
 * callgrind counts them in the bench_ function that runs them). */
static inline __attribute__((always_inline)) void
read_each(cl_command_queue queue, cl_mem buffer, long n)
{
    float value;
    for (long i = 0; i < n; i++)
        CHECK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof value,
                                  &value, 0, NULL, NULL));
}

__attribute__((noinline)) void bench_read(cl_command_queue queue, cl_mem buffer,
                                          long n)
{
    read_each(queue, buffer, n);
}

/* The same on another buffer: a function of its own for callgrind. */
__attribute__((noinline)) void bench_read_tracked(cl_command_queue queue,
                                                  cl_mem buffer, long n)
{
    read_each(queue, buffer, n);
}

/* clRetainMemObject (not hooked) + clReleaseMemObject (hooked) that does
 * not free the buffer. */
__attribute__((noinline)) void bench_retain_release(cl_mem buffer, long n)
{
    for (long i = 0; i < n; i++) {
        CHECK(clRetainMemObject(buffer));
        CHECK(clReleaseMemObject(buffer));
    }
}

#define CANDIDATES 4

int main(int argc, char **argv)
{
    long n = argc >= 2 ? atol(argv[1]) : 0;
    int annotated = 0, candidate = 0, bad = n < 1;
    for (int i = 2; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--annotated") == 0)
            annotated = 1;
        else if (strcmp(argv[i], "--candidate") == 0 && i + 1 < argc)
            candidate = atoi(argv[++i]);
        else
            bad = 1;
    }
    if (bad || candidate < 0 || candidate >= CANDIDATES) {
        fprintf(stderr, "usage: %s CALLS [--annotated] [--candidate 0..%d]\n",
                argv[0], CANDIDATES - 1);
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    const char *sources[2] = {annotation, source};
    cl_program program = clCreateProgramWithSource(
        context, annotated ? 2 : 1, annotated ? sources : sources + 1, NULL,
        &err);
    CHECK(err);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    cl_kernel kernel = clCreateKernel(program, "axpy", &err);
    CHECK(err);
    cl_mem buffer =
        clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, NULL, &err);
    CHECK(err);
    /* All candidates in every run, so that each sits where it sits in
     * the runs that read the others. */
    cl_mem others[CANDIDATES], trackeds[CANDIDATES], subs[CANDIDATES];
    cl_buffer_region region = {0, 128};
    for (int c = 0; c < CANDIDATES; c++) {
        others[c] =
            clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, NULL, &err);
        CHECK(err);
        trackeds[c] =
            clCreateBuffer(context, CL_MEM_READ_WRITE, 4096, NULL, &err);
        CHECK(err);
        subs[c] =
            clCreateSubBuffer(trackeds[c], CL_MEM_READ_WRITE,
                              CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        CHECK(err);
    }
    cl_mem other = others[candidate], tracked = trackeds[candidate];
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    float a = 2.0f;
    int records = 512; /* 4096 bytes of {float, float} records */
    CHECK(clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    CHECK(clSetKernelArg(kernel, 1, sizeof a, &a));
    CHECK(clSetKernelArg(kernel, 2, sizeof records, &records));

    /* Warm up: lazy binding, first-call paths. */
    bench_set_scalar_arg(kernel, 1);
    bench_set_buffer_arg(kernel, buffer, 1);
    bench_get_kernel_info(kernel, 1);
    bench_retain_release(buffer, 1);
    /* Not counted: the first launches convert the buffer (annotated). */
    size_t global = 512;
    for (int i = 0; i < 2; i++)
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0,
                                     NULL, NULL));
    CHECK(clFinish(queue));
    bench_read(queue, other, 1);
    bench_read_tracked(queue, tracked, 1);

    bench_set_scalar_arg(kernel, n);
    bench_set_buffer_arg(kernel, buffer, n);
    bench_get_kernel_info(kernel, n);
    bench_retain_release(buffer, n);
    for (long left = n / 100 > 0 ? n / 100 : 1; left > 0; left -= 100) {
        bench_launch(queue, kernel, left < 100 ? left : 100);
        CHECK(clFinish(queue));
    }
    bench_read(queue, other, n / 100 > 0 ? n / 100 : 1);
    bench_read_tracked(queue, tracked, n / 100 > 0 ? n / 100 : 1);

    CHECK(clReleaseCommandQueue(queue));
    for (int c = 0; c < CANDIDATES; c++) {
        CHECK(clReleaseMemObject(subs[c]));
        CHECK(clReleaseMemObject(trackeds[c]));
        CHECK(clReleaseMemObject(others[c]));
    }
    CHECK(clReleaseMemObject(buffer));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseContext(context));
    printf("ok %ld calls each\n", n);
    return 0;
}
