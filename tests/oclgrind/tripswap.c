/* tripswap.c - tests/integration/kernels/tripswap.cl (dl-annotate's
 * output, a jobs key) under `oclgrind --data-races` (run_oclgrind.sh):
 * the CSR SpMV `csr_spmv` built as written and with
 * DL_JOBSWAP_csr_spmv, its jobs sorted by trip count (rows of 0 to 64
 * entries, a few long, most short) by job_swap.c as the runtime does,
 * the range's idle tail after them; the outputs must be byte-identical
 * and oclgrind's log empty.
 *
 *   oclgrind-tripswap PATH/TO/tripswap.cl */
#include "job_swap.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS   500
#define GLOBAL 512
#define NNZ    (ROWS * 64)

typedef struct csr {
    cl_int rowptr[ROWS + 1], col[NNZ];
    float val[NNZ], x[ROWS];
    cl_uint job[GLOBAL];
} csr;

/* Power-law-like rows: row i has 64 / (1 + i % 37) entries, some none. */
static int make(csr *m)
{
    uint64_t len[ROWS];
    size_t job[ROWS];
    m->rowptr[0] = 0;
    for (int i = 0; i < ROWS; i++) {
        len[i] = i % 11 == 5 ? 0 : 64u / (1u + (unsigned)(i * 7) % 37u);
        m->rowptr[i + 1] = m->rowptr[i] + (cl_int)len[i];
        m->x[i] = (float)(i % 13) * 0.5f - 2.0f;
    }
    for (int e = 0; e < m->rowptr[ROWS]; e++) {
        m->col[e] = (cl_int)((e * 389) % ROWS);
        m->val[e] = (float)(e % 7) * 0.25f + 0.125f;
    }
    if (dl_job_swap_by_length(len, ROWS, job) != DL_SUCCESS)
        return -1;
    for (size_t t = 0; t < GLOBAL; t++)
        m->job[t] = (cl_uint)(t < ROWS ? job[t] : t);
    return 0;
}

/* Builds csr_spmv with `options`, runs it once on args (R last where
 * job-swapped), reads y. */
static cl_int run(cl_context ctx, cl_device_id dev, cl_command_queue q,
                  const char *src, const char *options, cl_mem *args,
                  int swapped, float *y)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
    cl_kernel k =
        err == CL_SUCCESS ? clCreateKernel(p, "csr_spmv", &err) : NULL;
    const cl_int rows = ROWS;
    for (cl_uint i = 0; k && i < 5; i++)
        err |= clSetKernelArg(k, i, sizeof(cl_mem), &args[i]);
    if (k)
        err |= clSetKernelArg(k, 5, sizeof rows, &rows);
    if (k && swapped)
        err |= clSetKernelArg(k, 6, sizeof(cl_mem), &args[5]);
    size_t global = GLOBAL;
    if (k && err == CL_SUCCESS)
        err =
            clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, args[4], CL_TRUE, 0, ROWS * sizeof *y, y,
                                  0, NULL, NULL);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return err;
}

int main(int argc, char **argv)
{
    static char src[1 << 16];
    static csr m;
    static float plain[ROWS], sorted[ROWS];
    FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
    size_t len = f ? fread(src, 1, sizeof src - 1, f) : 0;
    if (f)
        fclose(f);
    if (!len || make(&m)) {
        fprintf(stderr, "usage: %s PATH/TO/tripswap.cl\n", argv[0]);
        return 2;
    }
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &plat, NULL);
    err |= clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "no OpenCL device\n");
        return 1;
    }
    cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem args[6] = {
        clCreateBuffer(ctx, in, sizeof m.val, m.val, &err),
        clCreateBuffer(ctx, in, sizeof m.col, m.col, &err),
        clCreateBuffer(ctx, in, sizeof m.rowptr, m.rowptr, &err),
        clCreateBuffer(ctx, in, sizeof m.x, m.x, &err),
        clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof plain, NULL, &err),
        clCreateBuffer(ctx, in, sizeof m.job, m.job, &err)};
    err = run(ctx, dev, q, src, "", args, 0, plain);
    if (err == CL_SUCCESS)
        err =
            run(ctx, dev, q, src, "-D DL_JOBSWAP_csr_spmv=1", args, 1, sorted);
    int same = err == CL_SUCCESS && !memcmp(plain, sorted, sizeof plain);
    printf("csr_spmv sorted by trip count: %s\n",
           err != CL_SUCCESS ? "OpenCL error"
           : same            ? "byte-identical to the plain kernel"
                             : "DIFFERS");
    for (int i = 0; i < 6; i++)
        clReleaseMemObject(args[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return same ? 0 : 1;
}
