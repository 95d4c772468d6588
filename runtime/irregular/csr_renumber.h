/* csr_renumber.h - a CSR matrix renumbered symmetrically by a permutation
 * of its vertices (docs/irregular.md, "Renumbering a graph loop"): new row
 * perm[v] is old row v, its entries in their original order, each column
 * c renumbered perm[c].  A kernel that walks row v of the renumbered
 * matrix, with every vertex array permuted the same way (x'[perm[v]] =
 * x[v]), computes for vertex v exactly what it computed before, in the
 * same order: the results are bit-identical, only where they lie moves. */
#ifndef DL_CSR_RENUMBER_H
#define DL_CSR_RENUMBER_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

/* Whether rowptr[0 .. n] and col[0 .. count) hold a square CSR matrix:
 * rowptr[0] = 0, rows that do not end before they start nor past count,
 * columns in [0, n).  DL_INVALID_ARGUMENT saying what is wrong. */
dl_status dl_csr_check(const int32_t *rowptr, const int32_t *col, size_t n,
                       size_t count);

/* inv[perm[v]] = v for the n vertices; DL_INVALID_ARGUMENT if perm is not
 * a permutation of [0, n) (inv then holds garbage). */
dl_status dl_csr_invert(const size_t *perm, size_t n, size_t *inv);

/* The renumbered structure: rowptr_out[0 .. n] and col_out[0 ..
 * rowptr[n]); inv from dl_csr_invert.  The matrix must pass
 * dl_csr_check. */
void dl_csr_renumber(const int32_t *rowptr, const int32_t *col, size_t n,
                     const size_t *perm, const size_t *inv, int32_t *rowptr_out,
                     int32_t *col_out);

/* An array of one value per entry (val), elem_bytes each, in the
 * renumbered entries' order: out's row perm[v] is in's row v. */
void dl_csr_renumber_entries(const int32_t *rowptr, size_t n, const size_t *inv,
                             const void *in, size_t elem_bytes, void *out);

#endif
