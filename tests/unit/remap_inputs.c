/* remap_inputs.c - the test inputs of remap_inputs.h. */
#include "remap_inputs.h"

#include <stdlib.h>
#include <string.h>

/* The identity of n, or with `shuffle` a random permutation of n
 * (Fisher-Yates). */
static int32_t *numbering(size_t n, int shuffle, uint64_t seed)
{
    int32_t *p = malloc((n ? n : 1) * sizeof *p);
    uint64_t rng = seed;
    for (size_t i = 0; p && i < n; i++)
        p[i] = (int32_t)i;
    for (size_t i = n; p && shuffle && i > 1; i--) {
        size_t j = irr_rand_below(&rng, i);
        int32_t t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

static size_t ell_width(const irr_csr *m, size_t max_width)
{
    size_t width = 0;
    for (size_t r = 0; r < m->rows; r++) {
        size_t len = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
        width = len > width ? len : width;
    }
    return max_width && width > max_width ? max_width : width;
}

/* Column-major ELL of m, every column c written as colmap[c]. */
static int to_ell(const irr_csr *m, size_t max_width, const int32_t *colmap,
                  remap_ell *out)
{
    size_t rows = m->rows, width = ell_width(m, max_width);
    size_t n = rows * width;
    out->rows = rows;
    out->width = width;
    out->col = malloc((n ? n : 1) * sizeof *out->col);
    if (!out->col)
        return 0;
    for (size_t r = 0; r < rows; r++) {
        size_t len = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
        for (size_t j = 0; j < width; j++) {
            int32_t c = j < len ? m->col[m->rowptr[r] + j] : (int32_t)r;
            out->col[j * rows + r] = colmap[c];
        }
    }
    return 1;
}

int remap_ell_of(irr_csr *m, size_t max_width, remap_shuffle how, uint64_t seed,
                 remap_ell *out)
{
    memset(out, 0, sizeof *out);
    /* A symmetric shuffle renumbers the columns already. */
    int ok = how == REMAP_SHUFFLE_A || irr_csr_shuffle(m, seed);
    int32_t *colmap =
        ok ? numbering(m->rows, how == REMAP_SHUFFLE_A, seed) : NULL;
    ok = colmap && to_ell(m, max_width, colmap, out);
    free(colmap);
    irr_csr_free(m);
    return ok;
}

void remap_ell_free(remap_ell *e)
{
    free(e->col);
    memset(e, 0, sizeof *e);
}
