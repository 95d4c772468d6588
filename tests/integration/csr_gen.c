/* csr_gen.c - see csr_gen.h. */
#include "csr_gen.h"

#include <stdlib.h>

uint64_t csr_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

void csr_alloc(csr_matrix *m, size_t rows, size_t nnz)
{
    m->rows = rows;
    m->nnz = nnz;
    m->rowptr = calloc(rows + 1, sizeof *m->rowptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    if (!m->rowptr || !m->col || !m->val)
        it_fail("out of memory");
}

void csr_free(csr_matrix *m)
{
    free(m->rowptr);
    free(m->col);
    free(m->val);
}

size_t *csr_shuffle(size_t n, uint64_t *s)
{
    size_t *num = malloc((n ? n : 1) * sizeof *num);
    if (!num)
        it_fail("out of memory");
    for (size_t i = 0; i < n; i++)
        num[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(csr_next(s) % i), t = num[i - 1];
        num[i - 1] = num[j];
        num[j] = t;
    }
    return num;
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

void csr_stencil(csr_matrix *m, size_t n, const size_t *num)
{
    size_t rows = n * n * n, nb[7];
    size_t *old = malloc(rows * sizeof *old); /* new row -> vertex */
    if (!old)
        it_fail("out of memory");
    for (size_t v = 0; v < rows; v++)
        old[num ? num[v] : v] = v;
    csr_alloc(m, rows, rows * 7);
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

cl_mem csr_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

#define EDGE_FACTOR 8

/* One R-MAT edge: each of `scale` bits picks a quadrant. */
static void rmat_edge(unsigned scale, uint64_t *s, size_t *src, size_t *dst)
{
    *src = *dst = 0;
    for (unsigned bit = 0; bit < scale; bit++) {
        uint64_t u = csr_next(s) % 100;
        *src = *src << 1 | (u >= 76);
        *dst = *dst << 1 | ((u >= 57 && u < 76) || u >= 95);
    }
}

/* The in-edge CSR of the R-MAT graph renumbered by num (rows by
 * destination, col the sources, val unused); outdeg[u] how often u is a
 * source (1 where never: no row reads it). */
void csr_rmat(csr_matrix *m, float **outdeg, unsigned scale, uint64_t *s)
{
    size_t rows = (size_t)1 << scale, nnz = rows * EDGE_FACTOR;
    cl_int *src = malloc(nnz * sizeof *src), *dst = malloc(nnz * sizeof *dst);
    unsigned *deg = calloc(rows, sizeof *deg);
    *outdeg = malloc(rows * sizeof **outdeg);
    if (!src || !dst || !deg || !*outdeg)
        it_fail("out of memory");
    for (size_t e = 0; e < nnz; e++) {
        size_t a, b;
        rmat_edge(scale, s, &a, &b);
        src[e] = (cl_int)a;
        dst[e] = (cl_int)b;
    }
    size_t *num = csr_shuffle(rows, s);
    csr_alloc(m, rows, nnz);
    for (size_t e = 0; e < nnz; e++) {
        m->rowptr[num[dst[e]] + 1]++;
        deg[num[src[e]]]++;
    }
    for (size_t r = 0; r < rows; r++)
        m->rowptr[r + 1] += m->rowptr[r];
    for (size_t e = 0; e < nnz; e++) /* counting sort, edge order kept */
        m->col[m->rowptr[num[dst[e]]]++] = (cl_int)num[src[e]];
    for (size_t r = rows; r > 0; r--)
        m->rowptr[r] = m->rowptr[r - 1];
    m->rowptr[0] = 0;
    for (size_t v = 0; v < rows; v++)
        (*outdeg)[v] = deg[v] ? (float)deg[v] : 1.0f;
    free(num);
    free(deg);
    free(src);
    free(dst);
}
