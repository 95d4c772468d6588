/* jobswap.c - the job-swapped form of tests/integration/kernels/
 * jobswap.cl (dl-annotate's output) under `oclgrind --data-races`
 * (run_oclgrind.sh): `swap` built as written and with DL_JOBSWAP_swap,
 * the job map planned by job_swap.c from the scattered index array and
 * padded with the range's idle tail, as the runtime does; the outputs
 * must be byte-identical and oclgrind's log empty.
 *
 *   oclgrind-jobswap PATH/TO/jobswap.cl */
#include "job_swap.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N      1000
#define GLOBAL 1024

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s = f ? malloc(1 << 16) : NULL;
    *len = s ? fread(s, 1, (1 << 16) - 1, f) : 0;
    if (f)
        fclose(f);
    if (s)
        s[*len] = 0;
    return s;
}

/* R by segment (W = 16, 16 floats a segment) over the N jobs that read
 * x, then the idle work-items in order. */
static int plan(const cl_int *col, cl_uint *r)
{
    int64_t elem[N];
    size_t job[N];
    for (int i = 0; i < N; i++)
        elem[i] = col[i];
    if (dl_job_swap_by_segment(elem, N, 16, 16, job) != DL_SUCCESS)
        return -1;
    for (size_t t = 0; t < GLOBAL; t++)
        r[t] = (cl_uint)(t < N ? job[t] : t);
    return 0;
}

/* Builds `swap` with `options`, runs it once, reads y. */
static cl_int run(cl_context ctx, cl_device_id dev, cl_command_queue q,
                  const char *src, size_t len, const char *options,
                  cl_mem *args, int nargs, float *y)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, &len, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "swap", &err) : NULL;
    const cl_int n = N;
    for (int i = 0; k && i < nargs; i++)
        err |= clSetKernelArg(k, i == 3 ? 4 : (cl_uint)i, sizeof(cl_mem),
                              &args[i]);
    if (k)
        err |= clSetKernelArg(k, 3, sizeof n, &n);
    size_t global = GLOBAL;
    if (k && err == CL_SUCCESS)
        err =
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, args[2], CL_TRUE, 0, N * sizeof *y, y, 0,
                                  NULL, NULL);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return err;
}

int main(int argc, char **argv)
{
    size_t len;
    char *src = argc == 2 ? read_file(argv[1], &len) : NULL;
    if (!src) {
        fprintf(stderr, "usage: %s PATH/TO/jobswap.cl\n", argv[0]);
        return 2;
    }
    static float x[N], plain[N], swapped[N];
    static cl_int col[N];
    static cl_uint r[GLOBAL];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) * 0.75f - 3.0f;
        col[i] = (cl_int)((i * 389) % N);
    }
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &plat, NULL);
    err |= clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS || plan(col, r)) {
        fprintf(stderr, "no OpenCL device, or no plan\n");
        return 1;
    }
    char name[128] = "";
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    printf("platform: %s\n", name);
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem args[4] = {
        clCreateBuffer(ctx, in, sizeof x, x, &err),
        clCreateBuffer(ctx, in, sizeof col, col, &err),
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof plain, NULL, &err),
        clCreateBuffer(ctx, in, sizeof r, r, &err)};
    err = run(ctx, dev, q, src, len, "", args, 3, plain);
    if (err == CL_SUCCESS)
        err = run(ctx, dev, q, src, len, "-D DL_JOBSWAP_swap=1", args, 4,
                  swapped);
    int same = err == CL_SUCCESS && !memcmp(plain, swapped, sizeof plain);
    printf("job-swapped swap: %s\n", err != CL_SUCCESS ? "OpenCL error"
                                     : same
                                         ? "byte-identical to the plain kernel"
                                         : "DIFFERS");
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(args[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(src);
    return same ? 0 : 1;
}
