/* warps.c - the warp-access walk of warps.h. */
#include "warps.h"
#include "error.h"

#include <stdlib.h>

/* The entry of P lane t reads at step j, or 0 when the lane is inactive. */
static int lane_entry(const dl_coalesce_range *r, size_t count, size_t t,
                      size_t j, size_t *e)
{
    size_t a, b;
    if (__builtin_mul_overflow(t, r->t_stride, &a) ||
        __builtin_mul_overflow(j, r->j_stride, &b) ||
        __builtin_add_overflow(a, b, &a) ||
        __builtin_add_overflow(a, r->base, &a) || a >= count)
        return 0;
    *e = a;
    return 1;
}

/* Every step of the warp of work-items [t0, t0 + n). */
static dl_status walk_warp(const dl_coalesce_range *r, size_t count, size_t t0,
                           size_t n, size_t *lanes, dl_warp_visit visit,
                           void *ctx)
{
    for (size_t j = 0; j < r->steps; j++) {
        size_t active = 0;
        for (size_t i = 0; i < n; i++)
            active += lane_entry(r, count, t0 + i, j, &lanes[active]);
        if (active)
            DL_RETURN_IF_FAIL(visit(ctx, lanes, active));
    }
    return DL_SUCCESS;
}

/* Strides are not negative, so once work-item t0 at step 0 lies past the
 * end of P every later work-item does too. */
static int past_the_end(const dl_coalesce_range *r, size_t count, size_t t0)
{
    size_t e;
    return r->t_stride > 0 && !lane_entry(r, count, t0, 0, &e);
}

dl_status dl_warp_walk(const dl_coalesce_range *range, size_t index_count,
                       unsigned w, dl_warp_visit visit, void *ctx)
{
    size_t *lanes = malloc((size_t)w * sizeof *lanes);
    DL_RETURN_ERROR_ON(!lanes, DL_OUT_OF_MEMORY,
                       "coalescing: no memory for a warp of %u lanes", w);
    dl_status st = DL_SUCCESS;
    for (size_t t0 = 0; t0 < range->threads && st == DL_SUCCESS; t0 += w) {
        if (past_the_end(range, index_count, t0))
            break;
        size_t n = range->threads - t0 < w ? range->threads - t0 : w;
        st = walk_warp(range, index_count, t0, n, lanes, visit, ctx);
        if (t0 > SIZE_MAX - w)
            break;
    }
    free(lanes);
    return st;
}

/* ------------------------------------------------- row-bounded loops */

/* Lane t's row: its first entry and its length (0 when empty, reversed
 * or starting outside P; cut at the end of P). */
static void row_of(const dl_coalesce_rows *r, size_t count, size_t t,
                   size_t *first, size_t *len)
{
    long long b = dl_index_at(r->begin, r->bound_bytes, t);
    long long e = dl_index_at(r->end, r->bound_bytes, t);
    *first = 0;
    *len = 0;
    if (b < 0 || e <= b || (unsigned long long)b >= count)
        return;
    *first = (size_t)b;
    *len = (unsigned long long)e > count ? count - (size_t)b : (size_t)(e - b);
}

/* Every step of the warp of work-items [t0, t0 + n). */
static dl_status walk_rows_warp(const dl_coalesce_rows *r, size_t count,
                                size_t t0, size_t n, size_t *first, size_t *len,
                                size_t *lanes, dl_warp_visit visit, void *ctx)
{
    size_t longest = 0;
    for (size_t i = 0; i < n; i++) {
        row_of(r, count, t0 + i, &first[i], &len[i]);
        longest = len[i] > longest ? len[i] : longest;
    }
    for (size_t j = 0; j < longest; j++) {
        size_t active = 0;
        for (size_t i = 0; i < n; i++)
            if (j < len[i])
                lanes[active++] = first[i] + j;
        DL_RETURN_IF_FAIL(visit(ctx, lanes, active));
    }
    return DL_SUCCESS;
}

dl_status dl_warp_walk_rows(const dl_coalesce_rows *rows, size_t index_count,
                            unsigned w, dl_warp_visit visit, void *ctx)
{
    size_t *buf = malloc(3 * (size_t)w * sizeof *buf);
    DL_RETURN_ERROR_ON(!buf, DL_OUT_OF_MEMORY,
                       "coalescing: no memory for a warp of %u lanes", w);
    dl_status st = DL_SUCCESS;
    for (size_t t0 = 0; t0 < rows->threads && st == DL_SUCCESS; t0 += w) {
        size_t n = rows->threads - t0 < w ? rows->threads - t0 : w;
        st = walk_rows_warp(rows, index_count, t0, n, buf, buf + w,
                            buf + 2 * (size_t)w, visit, ctx);
        if (t0 > SIZE_MAX - w)
            break;
    }
    free(buf);
    return st;
}
