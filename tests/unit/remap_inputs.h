/* remap_inputs.h - index arrays for test_remap.c: the ELL column arrays
 * (column-major, col[j * rows + row], short rows padded with the row's
 * own column) of a 3D 7-point stencil and of an R-MAT power-law graph,
 * with A's element numbering shuffled and, optionally, the rows too. */
#ifndef DL_REMAP_INPUTS_H
#define DL_REMAP_INPUTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct remap_ell {
    size_t rows, width;
    int32_t *col; /* rows * width */
} remap_ell;

/* What is shuffled: A's numbering (the columns' values) always; with
 * shuffle_rows also which work-item takes which row. */
int remap_ell_stencil(size_t n, int shuffle_rows, uint64_t seed,
                      remap_ell *out);
/* 2^scale vertices, 8 edges each, Graph500's a = 0.57, b = c = 0.19.
 * max_width > 0 keeps the first max_width entries of each row: the ELL
 * part of the HYB format that power-law matrices are stored in on GPUs
 * (the rest goes to a COO part, not generated); 0 keeps every entry. */
int remap_ell_rmat(unsigned scale, size_t max_width, int shuffle_rows,
                   uint64_t seed, remap_ell *out);
void remap_ell_free(remap_ell *m);

#endif
