/* scn_reorder_loop.c - kernels/reorder.cl's redirected ELL SpMV, K = 8,
 * uniformly random columns, launched L times on an unchanging matrix and
 * x, then y read once: argv[0] rows (default 1M: 32 MiB each of val and
 * col), argv[1] launches (default 3), then "identity" for col[j * n +
 * r] = r (every read of x coalesced already), "finish" for a clFinish
 * after each launch (a loop that looks at each result).  The 3-launch form is a
 * short program that the tuner must keep plain under DL_POLICY=auto, building
 * nothing (docs/tuning.md); with 2M rows and 50 launches it is the loop
 * docs/irregular.md times. */
#include "scenarios.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { LOOP_K = 8 };

static cl_mem loop_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

/* col[j * n + r] uniformly random in [0, n) (a fixed LCG), or r, val in
 * (0, 1], x[i] = i mod 17: the same bytes on every run. */
static void fill(cl_int *col, float *val, float *x, size_t n, int identity)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t e = 0; e < n * LOOP_K; e++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        col[e] = (cl_int)(identity ? e % n : (s >> 33) % n);
        val[e] = (float)((s >> 20) % 1000 + 1) / 1000.0f;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = (float)(i % 17);
}

void scn_reorder_loop(it_cl *cl, int argc, char **argv)
{
    size_t n = argc > 0 ? strtoul(argv[0], NULL, 10) : 1048576;
    long launches = argc > 1 ? strtol(argv[1], NULL, 10) : 3;
    int identity = 0, finish = 0;
    for (int i = 2; i < argc; i++) {
        identity |= !strcmp(argv[i], "identity");
        finish |= !strcmp(argv[i], "finish");
    }
    if (n < 1 || n > 8388608 || launches < 1 || launches > 100000)
        it_fail("reorder_loop: rows must be 1..8388608, launches 1..100000");
    cl_int *col = malloc(n * LOOP_K * sizeof *col);
    float *val = malloc(n * LOOP_K * sizeof *val);
    float *x = malloc(n * sizeof *x);
    if (!col || !val || !x)
        it_fail("out of memory");
    fill(col, val, x, n, identity);
    cl_program program = it_build(cl, "reorder.cl", "-D K=8");
    cl_kernel ell = it_kernel(program, "ell_spmv");
    cl_mem bufs[4] = {loop_buffer(cl, n * LOOP_K * sizeof *val, val),
                      loop_buffer(cl, n * LOOP_K * sizeof *col, col),
                      loop_buffer(cl, n * sizeof *x, x),
                      loop_buffer(cl, n * sizeof *x, x)}; /* y */
    const cl_int rows = (cl_int)n;
    for (cl_uint i = 0; i < 4; i++)
        CHECK(clSetKernelArg(ell, i, sizeof bufs[i], &bufs[i]));
    CHECK(clSetKernelArg(ell, 4, sizeof rows, &rows));
    for (long i = 0; i < launches; i++) {
        it_run(cl->queue, ell, it_round_up(n));
        if (finish)
            CHECK(clFinish(cl->queue));
    }
    it_print_buffer(cl, bufs[3], n * sizeof *x, "reorder_loop: y");
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(bufs[i]));
    CHECK(clReleaseKernel(ell));
    CHECK(clReleaseProgram(program));
    free(col);
    free(val);
    free(x);
}
