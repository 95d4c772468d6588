/* irr_gen_uniform.c - a uniform random matrix: every row holds per_row
 * entries at columns drawn uniformly (repeats allowed), random values. */
#include "irr_workload.h"

int irr_gen_uniform(size_t rows, size_t per_row, uint64_t seed, irr_csr *out)
{
    if (!irr_csr_alloc(out, rows, rows * per_row))
        return 0;
    uint64_t rng = seed;
    for (size_t r = 0; r < rows; r++) {
        out->rowptr[r] = (int32_t)(r * per_row);
        for (size_t j = 0; j < per_row; j++) {
            out->col[r * per_row + j] = (int32_t)irr_rand_below(&rng, rows);
            out->val[r * per_row + j] = irr_rand_float(&rng);
        }
    }
    out->rowptr[rows] = (int32_t)(rows * per_row);
    return 1;
}
