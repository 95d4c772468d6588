/* remap_inputs.h - index arrays for test_remap.c from dl-bench
 * irregular's matrices (benchmarks/irr_gen_*.c): the ELL column array
 * (column-major, col[j * rows + row], short rows padded with the row's
 * own column) of a matrix renumbered at random in one of two ways. */
#ifndef DL_REMAP_INPUTS_H
#define DL_REMAP_INPUTS_H

#include "irr_workload.h"

typedef enum remap_shuffle {
    /* A's elements (the columns) only; the rows, i.e. which work-item
     * takes which row, keep their order: only A's layout is wrong. */
    REMAP_SHUFFLE_A,
    /* Rows and columns by the same permutation, as dl-bench irregular's
     * shuffled matrices (irr_csr_shuffle). */
    REMAP_SHUFFLE_ALL,
} remap_shuffle;

typedef struct remap_ell {
    size_t rows, width;
    int32_t *col; /* rows * width */
} remap_ell;

/* The ELL of m (freed) renumbered as `how` says with `seed`.  max_width
 * > 0 keeps the first max_width entries of each row: the ELL part of the
 * HYB format power-law matrices are kept in on GPUs (the rest would go to
 * its COO part); 0 keeps every entry.  1 on success. */
int remap_ell_of(irr_csr *m, size_t max_width, remap_shuffle how, uint64_t seed,
                 remap_ell *out);
void remap_ell_free(remap_ell *e);

#endif
