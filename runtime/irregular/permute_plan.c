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

/* Every value of pi in [0, n) exactly once. */
static int is_permutation(const uint32_t *pi, size_t n, unsigned char *seen)
{
    for (size_t x = 0; x < n; x++) {
        if (pi[x] >= n || seen[pi[x]])
            return 0;
        seen[pi[x]] = 1;
    }
    return 1;
}

/* The cycles of length >= 2 into plan->order; returns the count of
 * segments they need.  `seen` is reused as the visited marks. */
static size_t list_cycles(const uint32_t *pi, size_t n, size_t seg_len,
                          unsigned char *seen, dl_perm_plan *plan)
{
    size_t k = 0, segments = 0;
    memset(seen, 0, n);
    for (size_t x = 0; x < n; x++) {
        if (seen[x] || pi[x] == x)
            continue;
        size_t start = k;
        for (uint32_t y = (uint32_t)x; !seen[y]; y = pi[y]) {
            seen[y] = 1;
            plan->order[k++] = y;
        }
        segments += dl_div_up(k - start, seg_len);
    }
    plan->moved = k;
    return segments;
}

/* Cuts each cycle of plan->order into segments of at most seg_len. */
static void cut_segments(const uint32_t *pi, size_t seg_len,
                         dl_perm_plan *plan)
{
    size_t s = 0;
    for (size_t start = 0; start < plan->moved;) {
        size_t end = start + 1; /* the cycle's end: where it closes */
        while (end < plan->moved && pi[plan->order[end - 1]] != plan->order[start])
            end++;
        for (size_t f = start; f < end; f += seg_len) {
            size_t len = end - f < seg_len ? end - f : seg_len;
            plan->seg[3 * s] = (uint32_t)f;
            plan->seg[3 * s + 1] = (uint32_t)len;
            plan->seg[3 * s + 2] = (uint32_t)(f + len < end ? f + len : start);
            s++;
        }
        start = end;
    }
}

dl_status dl_perm_plan_build(const uint32_t *pi, size_t n, size_t seg_len,
                             dl_perm_plan *out)
{
    DL_RETURN_ERROR_ON(!out || (n && !pi), DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    DL_RETURN_ERROR_ON(n > UINT32_MAX, DL_INVALID_ARGUMENT,
                       "permute: %zu elements (at most 2^32 - 1)", n);
    *out = (dl_perm_plan){.n = n};
    if (seg_len == 0)
        seg_len = DL_PERM_SEGMENT;
    unsigned char *seen = calloc(n ? n : 1, 1);
    out->order = malloc((n ? n : 1) * sizeof *out->order);
    if (!seen || !out->order) {
        free(seen);
        dl_perm_plan_free(out);
        return dl_fail(DL_OUT_OF_MEMORY, "permute: plan of %zu elements", n);
    }
    if (!is_permutation(pi, n, seen)) {
        free(seen);
        dl_perm_plan_free(out);
        return dl_fail(DL_INVALID_ARGUMENT,
                       "permute: not a permutation of [0, %zu)", n);
    }
    out->segments = list_cycles(pi, n, seg_len, seen, out);
    free(seen);
    out->seg = malloc((out->segments ? out->segments : 1) * 3 *
                      sizeof *out->seg);
    if (!out->seg) {
        dl_perm_plan_free(out);
        return dl_fail(DL_OUT_OF_MEMORY, "permute: %zu segments",
                       out->segments);
    }
    cut_segments(pi, seg_len, out);
    return DL_SUCCESS;
}

dl_status dl_perm_apply_host(const dl_perm_plan *plan, void *a,
                             size_t elem_bytes)
{
    unsigned char *base = a;
    size_t e = elem_bytes;
    unsigned char *saved = malloc(plan->segments ? plan->segments * e : 1);
    DL_RETURN_ERROR_ON(!saved, DL_OUT_OF_MEMORY,
                       "permute: %zu saved elements", plan->segments);
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
