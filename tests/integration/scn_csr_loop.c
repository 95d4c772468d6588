/* scn_csr_loop.c - kernels/csr.cl's redirected CSR SpMV launched L times
 * on an unchanging matrix and x, then y read once: the loop
 * docs/irregular.md times for CSR.  argv[0] the matrix: "stencil" (a 3D
 * 7-point Poisson stencil of n^3 rows in natural order), "shuffled" (its
 * vertices renumbered at random, rows and columns alike) or "uniform" (n
 * rows of 8 uniformly random columns); argv[1] n (default 64 for the
 * stencils, 262144 for uniform); argv[2] launches (default 3).  A fixed
 * generator: the same bytes on every run. */
#include "csr_gen.h"
#include "scenarios.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void uniform(csr_matrix *m, size_t rows, uint64_t *s)
{
    csr_alloc(m, rows, rows * 8);
    for (size_t e = 0; e < rows * 8; e++) {
        m->col[e] = (cl_int)(csr_next(s) % rows);
        m->val[e] = (float)(csr_next(s) % 1000 + 1) / 1000.0f;
    }
    for (size_t r = 0; r < rows; r++)
        m->rowptr[r + 1] = (cl_int)((r + 1) * 8);
}

static void make(csr_matrix *m, const char *kind, size_t n)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    if (!strcmp(kind, "uniform")) {
        uniform(m, n, &s);
        return;
    }
    size_t *num = strcmp(kind, "stencil") ? csr_shuffle(n * n * n, &s) : NULL;
    csr_stencil(m, n, num);
    free(num);
}

void scn_csr_loop(it_cl *cl, int argc, char **argv)
{
    const char *kind = argc > 0 ? argv[0] : "shuffled";
    int uni = !strcmp(kind, "uniform");
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : uni ? 262144 : 64;
    long launches = argc > 2 ? strtol(argv[2], NULL, 10) : 3;
    if ((!uni && strcmp(kind, "stencil") && strcmp(kind, "shuffled")) ||
        n < 1 || n > (uni ? 8388608u : 200u) || launches < 1 ||
        launches > 100000)
        it_fail("csr_loop: stencil|shuffled N (1..200) or uniform ROWS "
                "(1..8388608), launches 1..100000");
    csr_matrix m;
    make(&m, kind, n);
    float *x = malloc(m.rows * sizeof *x);
    if (!x)
        it_fail("out of memory");
    for (size_t i = 0; i < m.rows; i++)
        x[i] = (float)(i % 17);
    cl_program program = it_build(cl, "csr.cl", "");
    cl_kernel spmv = it_kernel(program, "csr_spmv");
    cl_mem bufs[5] = {csr_buffer(cl, m.nnz * sizeof *m.val, m.val),
                      csr_buffer(cl, m.nnz * sizeof *m.col, m.col),
                      csr_buffer(cl, (m.rows + 1) * sizeof *m.rowptr, m.rowptr),
                      csr_buffer(cl, m.rows * sizeof *x, x),
                      csr_buffer(cl, m.rows * sizeof *x, x)}; /* y */
    const cl_int rows = (cl_int)m.rows;
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(spmv, i, sizeof bufs[i], &bufs[i]));
    CHECK(clSetKernelArg(spmv, 5, sizeof rows, &rows));
    for (long i = 0; i < launches; i++)
        it_run(cl->queue, spmv, it_round_up(m.rows));
    it_print_buffer(cl, bufs[4], m.rows * sizeof *x, "csr_loop: y");
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(bufs[i]));
    CHECK(clReleaseKernel(spmv));
    CHECK(clReleaseProgram(program));
    csr_free(&m);
    free(x);
}
