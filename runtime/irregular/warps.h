/* warps.h - the warp-accesses of an index range: for each warp of W
 * consecutive work-items and each step, the entries of P its active lanes
 * read (dlayout_irregular.h's dl_coalesce_range).  Shared by the
 * analyser (coalesce.c) and the co-access profiler of remapping
 * (remap_patterns.c), so that both see the same accesses. */
#ifndef DL_WARPS_H
#define DL_WARPS_H

#include "dlayout_irregular.h"

/* Called once per warp-access with at least one active lane: `entries`
 * holds the n entries of P the active lanes read, in lane order.  A
 * status other than DL_SUCCESS stops the walk and is returned. */
typedef dl_status (*dl_warp_visit)(void *ctx, const size_t *entries, size_t n);

/* Walks the warp-accesses of `range` over a P of index_count entries, warp
 * by warp and within a warp step by step.  DL_OUT_OF_MEMORY if the lane
 * buffer of w entries cannot be had. */
dl_status dl_warp_walk(const dl_coalesce_range *range, size_t index_count,
                       unsigned w, dl_warp_visit visit, void *ctx);

/* The same walk for a row-bounded loop (dl_coalesce_rows): warp by warp,
 * step j from 0 to its longest row, the lanes whose row has a j-th entry
 * inside P. */
dl_status dl_warp_walk_rows(const dl_coalesce_rows *rows, size_t index_count,
                            unsigned w, dl_warp_visit visit, void *ctx);

/* Entry e of a P of 4- or 8-byte signed entries in host order. */
static inline long long dl_index_at(const void *index, unsigned index_bytes,
                                    size_t e)
{
    if (index_bytes == 4)
        return ((const int32_t *)index)[e];
    return ((const int64_t *)index)[e];
}

#endif
