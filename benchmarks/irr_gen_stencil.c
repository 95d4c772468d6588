/* irr_gen_stencil.c - the matrix of the 3D 7-point Poisson stencil on an
 * n x n x n grid in natural (x fastest) order: 6 on the diagonal, -1 for
 * each of the up to six neighbours, columns in increasing order. */
#include "irr_workload.h"

/* Appends the columns of row (x, y, z). */
static size_t stencil_row(irr_csr *m, size_t n, size_t x, size_t y, size_t z,
                          size_t k)
{
    size_t row = (z * n + y) * n + x, plane = n * n;
    const struct {
        int ok;
        size_t col;
    } nb[7] = {
        {z > 0, row - plane},     {y > 0, row - n},
        {x > 0, row - 1},         {1, row},
        {x + 1 < n, row + 1},     {y + 1 < n, row + n},
        {z + 1 < n, row + plane},
    };
    for (int i = 0; i < 7; i++) {
        if (!nb[i].ok)
            continue;
        m->col[k] = (int32_t)nb[i].col;
        m->val[k++] = nb[i].col == row ? 6.0f : -1.0f;
    }
    return k;
}

int irr_gen_stencil(size_t n, irr_csr *out)
{
    size_t rows = n * n * n;
    if (!irr_csr_alloc(out, rows, 7 * rows))
        return 0;
    size_t k = 0;
    for (size_t z = 0; z < n; z++)
        for (size_t y = 0; y < n; y++)
            for (size_t x = 0; x < n; x++) {
                out->rowptr[(z * n + y) * n + x] = (int32_t)k;
                k = stencil_row(out, n, x, y, z, k);
            }
    out->rowptr[rows] = (int32_t)k;
    out->nnz = k;
    return 1;
}
