/* rcm.h - the Reverse Cuthill-McKee order of a CSR row graph, one of the
 * locality orders of the graph loops' symmetric renumbering
 * (docs/irregular.md, "Renumbering a graph loop"): a breadth-first walk
 * that visits each vertex's unvisited columns by increasing row length,
 * started at a vertex of least row length in each component, numbered
 * backwards.  Vertices close in the walk read close columns, so a warp's
 * (or a cache line's) rows touch few segments of x. */
#ifndef DL_RCM_H
#define DL_RCM_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

/* perm[v] is v's new number, for the n rows of the CSR matrix (rowptr[0]
 * = 0, rows non-decreasing, columns in [0, n)); the graph need not be
 * symmetric (a row's columns are its neighbours).  DL_INVALID_ARGUMENT
 * for a malformed matrix, DL_OUT_OF_MEMORY.  O(entries + n) time but the
 * sorting of each vertex's new neighbours. */
dl_status dl_rcm_order(const int32_t *rowptr, const int32_t *col, size_t n,
                       size_t *perm);

#endif
