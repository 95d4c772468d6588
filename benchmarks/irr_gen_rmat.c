/* irr_gen_rmat.c - an R-MAT graph (Chakrabarti et al.; the Graph500's
 * parameters a = 0.57, b = c = 0.19): 2^scale vertices and 8 edges per
 * vertex, a power-law degree distribution.  As a matrix: one entry per
 * edge (repeats kept), rows sorted by source, random values. */
#include "irr_workload.h"

#include <stdlib.h>

#define EDGE_FACTOR 8

/* One edge: each of `scale` bits picks a quadrant. */
static void rmat_edge(unsigned scale, uint64_t *rng, size_t *src, size_t *dst)
{
    size_t s = 0, d = 0;
    for (unsigned bit = 0; bit < scale; bit++) {
        double u = (double)(irr_rand(rng) >> 11) / 9007199254740992.0;
        int down = u >= 0.76, right = (u >= 0.57 && u < 0.76) || u >= 0.95;
        s = s << 1 | (size_t)down;
        d = d << 1 | (size_t)right;
    }
    *src = s;
    *dst = d;
}

/* Counting sort of the edges by source into CSR. */
static void rmat_fill(irr_csr *m, const size_t *src, const size_t *dst,
                      uint64_t *rng)
{
    for (size_t e = 0; e < m->nnz; e++)
        m->rowptr[src[e] + 1]++;
    for (size_t r = 0; r < m->rows; r++)
        m->rowptr[r + 1] += m->rowptr[r];
    for (size_t e = 0; e < m->nnz; e++) {
        size_t k = (size_t)m->rowptr[src[e]]++;
        m->col[k] = (int32_t)dst[e];
        m->val[k] = irr_rand_float(rng);
    }
    for (size_t r = m->rows; r > 0; r--)
        m->rowptr[r] = m->rowptr[r - 1];
    m->rowptr[0] = 0;
}

int irr_gen_rmat(unsigned scale, uint64_t seed, irr_csr *out)
{
    size_t rows = (size_t)1 << scale, nnz = EDGE_FACTOR * rows;
    size_t *src = malloc(nnz * sizeof *src), *dst = malloc(nnz * sizeof *dst);
    int ok = src && dst && irr_csr_alloc(out, rows, nnz);
    uint64_t rng = seed;
    for (size_t e = 0; ok && e < nnz; e++)
        rmat_edge(scale, &rng, &src[e], &dst[e]);
    if (ok)
        rmat_fill(out, src, dst, &rng);
    free(src);
    free(dst);
    return ok;
}
