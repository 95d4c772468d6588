/* scn_gather.c - kernels/gather.cl: an ELL SpMV whose x[col[...]] gather
 * and a record gather a[perm[i]].y are annotated indirect references.
 * The index arrays are small and known (tests/integration/
 * check_coalescing.py counts their transactions independently):
 *   col[j * N + r] = (r * 37 + j * 101) % N, N = 256, K = 4, 3 launches;
 *   perm[i] = (i * 7) % M, M = 100 work-items over M + 1 atoms. */
#include "scenarios.h"

#include <stdlib.h>

#define GATHER_N 256
#define GATHER_K 4
#define GATHER_M 100

static cl_mem gather_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void run_ell(it_cl *cl, cl_program program)
{
    const cl_int n = GATHER_N;
    float val[GATHER_N * GATHER_K], x[GATHER_N], y[GATHER_N] = {0};
    cl_int col[GATHER_N * GATHER_K];
    for (int j = 0; j < GATHER_K; j++)
        for (int r = 0; r < GATHER_N; r++) {
            col[j * GATHER_N + r] = (r * 37 + j * 101) % GATHER_N;
            val[j * GATHER_N + r] =
                1.0f + (float)((j * GATHER_N + r) % 7) * 0.25f;
        }
    for (int i = 0; i < GATHER_N; i++)
        x[i] = (float)i * 0.5f;
    cl_mem bv = gather_buffer(cl, sizeof val, val);
    cl_mem bc = gather_buffer(cl, sizeof col, col);
    cl_mem bx = gather_buffer(cl, sizeof x, x);
    cl_mem by = gather_buffer(cl, sizeof y, y);
    cl_kernel k = it_kernel(program, "ell_spmv");
    CHECK(clSetKernelArg(k, 0, sizeof bv, &bv));
    CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(k, 2, sizeof bx, &bx));
    CHECK(clSetKernelArg(k, 3, sizeof by, &by));
    CHECK(clSetKernelArg(k, 4, sizeof n, &n));
    for (int launch = 0; launch < 3; launch++)
        it_run(cl->queue, k, GATHER_N);
    it_print_buffer(cl, by, sizeof y, "gather: ell y");
    CHECK(clReleaseKernel(k));
    cl_mem all[] = {bv, bc, bx, by};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(all[i]));
}

static void run_records(it_cl *cl, cl_program program)
{
    float atoms[(GATHER_M + 1) * 4], out[GATHER_M] = {0};
    cl_uint perm[GATHER_M];
    for (int i = 0; i < (GATHER_M + 1) * 4; i++)
        atoms[i] = (float)(i % 13) - 6.0f;
    for (int i = 0; i < GATHER_M; i++)
        perm[i] = (cl_uint)((i * 7) % GATHER_M);
    cl_mem ba = gather_buffer(cl, sizeof atoms, atoms);
    cl_mem bp = gather_buffer(cl, sizeof perm, perm);
    cl_mem bo = gather_buffer(cl, sizeof out, out);
    cl_kernel k = it_kernel(program, "gather_y");
    CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK(clSetKernelArg(k, 1, sizeof bp, &bp));
    CHECK(clSetKernelArg(k, 2, sizeof bo, &bo));
    it_run(cl->queue, k, GATHER_M);
    it_print_buffer(cl, bo, sizeof out, "gather: record field y");
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(ba));
    CHECK(clReleaseMemObject(bp));
    CHECK(clReleaseMemObject(bo));
}

void scn_gather(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "gather.cl", "-D K=4");
    run_ell(cl, program);
    run_records(cl, program);
    CHECK(clReleaseProgram(program));
}
