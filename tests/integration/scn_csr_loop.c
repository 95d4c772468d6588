/* scn_csr_loop.c - kernels/csr.cl's redirected CSR SpMV launched L times
 * on an unchanging matrix and x, then y read once: the loop
 * docs/irregular.md times for CSR.  argv[0] the matrix: "stencil" (a 3D
 * 7-point Poisson stencil of n^3 rows in natural order), "shuffled" (its
 * vertices renumbered at random, rows and columns alike) or "uniform" (n
 * rows of 8 uniformly random columns); argv[1] n (default 64 for the
 * stencils, 262144 for uniform); argv[2] launches (default 3).  A fixed
 * generator: the same bytes on every run. */
#include "scenarios.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct csr_matrix {
    size_t rows, nnz;
    cl_int *rowptr, *col;
    float *val;
} csr_matrix;

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void alloc_matrix(csr_matrix *m, size_t rows, size_t nnz)
{
    m->rows = rows;
    m->nnz = nnz;
    m->rowptr = calloc(rows + 1, sizeof *m->rowptr);
    m->col = malloc(nnz * sizeof *m->col);
    m->val = malloc(nnz * sizeof *m->val);
    if (!m->rowptr || !m->col || !m->val)
        it_fail("out of memory");
}

/* Vertex v's neighbours in the n^3 grid, itself first; their count. */
static int neighbours(size_t n, size_t v, size_t out[7])
{
    size_t x = v % n, y = v / n % n, z = v / (n * n), c = 0;
    out[c++] = v;
    if (x > 0)
        out[c++] = v - 1;
    if (x + 1 < n)
        out[c++] = v + 1;
    if (y > 0)
        out[c++] = v - n;
    if (y + 1 < n)
        out[c++] = v + n;
    if (z > 0)
        out[c++] = v - n * n;
    if (z + 1 < n)
        out[c++] = v + n * n;
    return (int)c;
}

/* The stencil with vertex v numbered num[v] (NULL: v), rows in the new
 * order. */
static void stencil(csr_matrix *m, size_t n, const size_t *num)
{
    size_t rows = n * n * n, nb[7];
    size_t *old = malloc(rows * sizeof *old); /* new row -> vertex */
    if (!old)
        it_fail("out of memory");
    for (size_t v = 0; v < rows; v++)
        old[num ? num[v] : v] = v;
    alloc_matrix(m, rows, rows * 7);
    size_t e = 0;
    for (size_t r = 0; r < rows; r++) {
        int c = neighbours(n, old[r], nb);
        for (int i = 0; i < c; i++, e++) {
            m->col[e] = (cl_int)(num ? num[nb[i]] : nb[i]);
            m->val[e] = i == 0 ? 6.0f : -1.0f;
        }
        m->rowptr[r + 1] = (cl_int)e;
    }
    m->nnz = e;
    free(old);
}

static void uniform(csr_matrix *m, size_t rows, uint64_t *s)
{
    alloc_matrix(m, rows, rows * 8);
    for (size_t e = 0; e < rows * 8; e++) {
        m->col[e] = (cl_int)(next(s) % rows);
        m->val[e] = (float)(next(s) % 1000 + 1) / 1000.0f;
    }
    for (size_t r = 0; r < rows; r++)
        m->rowptr[r + 1] = (cl_int)((r + 1) * 8);
}

static size_t *shuffle(size_t n, uint64_t *s)
{
    size_t *num = malloc(n * sizeof *num);
    if (!num)
        it_fail("out of memory");
    for (size_t i = 0; i < n; i++)
        num[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next(s) % i), t = num[i - 1];
        num[i - 1] = num[j];
        num[j] = t;
    }
    return num;
}

static cl_mem loop_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void make(csr_matrix *m, const char *kind, size_t n)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    if (!strcmp(kind, "uniform")) {
        uniform(m, n, &s);
        return;
    }
    size_t *num = strcmp(kind, "stencil") ? shuffle(n * n * n, &s) : NULL;
    stencil(m, n, num);
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
    cl_mem bufs[5] = {
        loop_buffer(cl, m.nnz * sizeof *m.val, m.val),
        loop_buffer(cl, m.nnz * sizeof *m.col, m.col),
        loop_buffer(cl, (m.rows + 1) * sizeof *m.rowptr, m.rowptr),
        loop_buffer(cl, m.rows * sizeof *x, x),
        loop_buffer(cl, m.rows * sizeof *x, x)}; /* y */
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
    free(m.rowptr);
    free(m.col);
    free(m.val);
    free(x);
}
