/* permute_plan.c - the host half of the permutation layout (permute.h):
 * pi's cycles cut into segments the device moves in parallel, pi^-1, the
 * same steps run on the host (the reference of the tests), and pi from
 * the first touches of an index array. */
#include "permute.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void dl_perm_plan_free(dl_perm_plan *plan)
{
    if (!plan)
        return;
    free(plan->order);
    free(plan->seg);
    *plan = (dl_perm_plan){0};
}

void dl_perm_invert(const uint32_t *pi, size_t n, uint32_t *inv)
{
    for (size_t x = 0; x < n; x++)
        inv[pi[x]] = (uint32_t)x;
}

/* The segments of one cycle, order[start, end): at most seg_len elements
 * each, the last one's element going to the cycle's start. */
static void cut_cycle(dl_perm_plan *plan, size_t start, size_t end,
                      size_t seg_len)
{
    for (size_t f = start; f < end; f += seg_len) {
        size_t len = end - f < seg_len ? end - f : seg_len;
        uint32_t *s = plan->seg + 3 * plan->segments++;
        s[0] = (uint32_t)f;
        s[1] = (uint32_t)len;
        s[2] = (uint32_t)(f + len < end ? f + len : start);
    }
}

/* The cycles of length >= 2 into plan->order, cut as they are found:
 * one walk over pi (random accesses are what a plan costs).  0 if pi is
 * not a permutation of [0, n): a walk leaves [0, n), or ends on an
 * element other than its start (two elements map to one). */
static int list_cycles(const uint32_t *pi, size_t n, size_t seg_len,
                       unsigned char *seen, dl_perm_plan *plan)
{
    size_t k = 0;
    for (size_t x = 0; x < n; x++) {
        if (seen[x])
            continue;
        if (pi[x] == x) {
            seen[x] = 1;
            continue;
        }
        size_t start = k;
        uint32_t y = (uint32_t)x;
        while (!seen[y]) {
            seen[y] = 1;
            plan->order[k++] = y;
            y = pi[y];
            if (y >= n)
                return 0;
        }
        if (y != x)
            return 0;
        cut_cycle(plan, start, k, seg_len);
    }
    plan->moved = k;
    return 1;
}

/* A cycle of L >= 2 elements takes ceil(L / seg_len) segments: at most
 * ceil(L / 2) <= 2L / 3 for seg_len >= 2 (L = 3 is the worst), L for 1. */
static size_t max_segments(size_t n, size_t seg_len)
{
    return seg_len >= 2 ? n / 3 * 2 + 2 : n + 1;
}

/* The plan's arrays for n elements, at most `segments` segments. */
static dl_status plan_alloc(size_t n, size_t segments, dl_perm_plan *out)
{
    *out = (dl_perm_plan){.n = n};
    out->order = malloc((n ? n : 1) * sizeof *out->order);
    out->seg = malloc(3 * segments * sizeof *out->seg);
    if (!out->order || !out->seg) {
        dl_perm_plan_free(out);
        return dl_fail(DL_OUT_OF_MEMORY, "permute: plan of %zu elements", n);
    }
    return DL_SUCCESS;
}

/* The segment table cut down to what was used. */
static void plan_trim(dl_perm_plan *plan)
{
    uint32_t *seg =
        realloc(plan->seg,
                3 * (plan->segments ? plan->segments : 1) * sizeof *plan->seg);
    if (seg)
        plan->seg = seg;
}

dl_status dl_perm_plan_build(const uint32_t *pi, size_t n, size_t seg_len,
                             dl_perm_plan *out)
{
    DL_RETURN_ERROR_ON(!out || (n && !pi), DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    DL_RETURN_ERROR_ON(n > UINT32_MAX, DL_INVALID_ARGUMENT,
                       "permute: %zu elements (at most 2^32 - 1)", n);
    if (seg_len == 0)
        seg_len = DL_PERM_SEGMENT;
    unsigned char *seen = calloc(n ? n : 1, 1);
    dl_status st =
        seen ? plan_alloc(n, max_segments(n, seg_len), out)
             : dl_fail(DL_OUT_OF_MEMORY, "permute: marks of %zu elements", n);
    if (st == DL_SUCCESS && !list_cycles(pi, n, seg_len, seen, out)) {
        dl_perm_plan_free(out);
        st = dl_fail(DL_INVALID_ARGUMENT,
                     "permute: not a permutation of [0, %zu)", n);
    }
    free(seen);
    if (st == DL_SUCCESS)
        plan_trim(out);
    return st;
}

dl_status dl_perm_plan_reverse(const dl_perm_plan *forward, size_t seg_len,
                               dl_perm_plan *out)
{
    DL_RETURN_ERROR_ON(!forward || !out, DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    if (seg_len == 0)
        seg_len = DL_PERM_SEGMENT;
    DL_RETURN_IF_FAIL(
        plan_alloc(forward->n, max_segments(forward->n, seg_len), out));
    /* A cycle ends with the segment whose element goes back to its start
     * (`after` not past the segment). */
    size_t start = 0;
    for (size_t j = 0; j < forward->segments; j++) {
        const uint32_t *s = forward->seg + 3 * j;
        if (s[2] > s[0])
            continue;
        size_t end = (size_t)s[0] + s[1];
        for (size_t k = start; k < end; k++)
            out->order[k] = forward->order[start + end - 1 - k];
        cut_cycle(out, start, end, seg_len);
        start = end;
    }
    out->moved = forward->moved;
    plan_trim(out);
    return DL_SUCCESS;
}

dl_status dl_perm_apply_host(const dl_perm_plan *plan, void *a,
                             size_t elem_bytes)
{
    unsigned char *base = a;
    size_t e = elem_bytes;
    unsigned char *saved = malloc(plan->segments ? plan->segments * e : 1);
    DL_RETURN_ERROR_ON(!saved, DL_OUT_OF_MEMORY, "permute: %zu saved elements",
                       plan->segments);
    for (size_t j = 0; j < plan->segments; j++)
        memcpy(saved + j * e, base + plan->order[plan->seg[3 * j]] * e, e);
    for (size_t j = 0; j < plan->segments; j++) {
        const uint32_t *s = plan->seg + 3 * j;
        size_t dst = plan->order[s[2]];
        for (uint32_t k = s[1] - 1; k > 0; k--) {
            size_t src = plan->order[s[0] + k];
            memcpy(base + dst * e, base + src * e, e);
            dst = src;
        }
        memcpy(base + dst * e, saved + j * e, e);
    }
    free(saved);
    return DL_SUCCESS;
}
