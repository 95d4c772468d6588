/* sharing.c - the sharing plan of sharing.h: the job map (identity or the
 * frequency order), then per group a sort of its (element, work-item)
 * pairs that numbers the group's distinct elements. */
#include "sharing.h"
#include "error.h"
#include "freq_order.h"

#include <stdlib.h>
#include <string.h>

static int by_value_then_index(const void *pa, const void *pb)
{
    const dl_sharing_lane *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

size_t dl_sharing_number(dl_sharing_lane *lanes, size_t n, int64_t *source,
                         size_t *local)
{
    qsort(lanes, n, sizeof *lanes, by_value_then_index);
    size_t size = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || lanes[i].value != lanes[i - 1].value)
            source[size++] = lanes[i].value;
        local[lanes[i].index] = size - 1;
    }
    return size;
}

static dl_status job_map(const int64_t *elem, size_t n, int cluster,
                         size_t **job)
{
    if (cluster) {
        dl_freq_order order;
        DL_RETURN_IF_FAIL(dl_freq_order_build(elem, n, &order));
        *job = order.job;
        order.job = NULL;
        dl_freq_order_free(&order);
        return DL_SUCCESS;
    }
    *job = malloc((n ? n : 1) * sizeof **job);
    DL_RETURN_ERROR_ON(!*job, DL_OUT_OF_MEMORY,
                       "sharing: no memory for %zu jobs", n);
    for (size_t t = 0; t < n; t++)
        (*job)[t] = t;
    return DL_SUCCESS;
}

/* Numbers the distinct elements of work-items [t0, t0 + n) in ascending
 * order, appends them to A_s from `pos` and sets local[] for each. */
static size_t fill_block(const int64_t *elem, dl_sharing_plan *plan, size_t t0,
                         size_t n, size_t pos, dl_sharing_lane *lanes)
{
    for (size_t i = 0; i < n; i++)
        lanes[i] = (dl_sharing_lane){elem[plan->job[t0 + i]], t0 + i};
    return dl_sharing_number(lanes, n, plan->source + pos, plan->local);
}

static int allocate(dl_sharing_plan *plan, size_t n, size_t slots_bound)
{
    size_t g = plan->groups ? plan->groups : 1;
    plan->local = malloc((n ? n : 1) * sizeof *plan->local);
    plan->block_pos = malloc(g * sizeof *plan->block_pos);
    plan->block_size = malloc(g * sizeof *plan->block_size);
    plan->source =
        malloc((slots_bound ? slots_bound : 1) * sizeof *plan->source);
    return plan->local && plan->block_pos && plan->block_size && plan->source
               ? 0
               : -1;
}

/* Every group pads fewer than E slots after at most G elements. */
static dl_status blocks(const int64_t *elem, size_t group, size_t e,
                        dl_sharing_plan *plan)
{
    size_t n = plan->jobs, per, bound;
    DL_RETURN_ERROR_ON(__builtin_add_overflow(group < n ? group : n, e, &per) ||
                           __builtin_mul_overflow(plan->groups, per, &bound) ||
                           bound > SIZE_MAX / sizeof(int64_t),
                       DL_OUT_OF_MEMORY,
                       "sharing: A_s of %zu jobs does not fit memory", n);
    dl_sharing_lane *lanes =
        malloc((group < n ? group : (n ? n : 1)) * sizeof *lanes);
    if (!lanes || allocate(plan, n, bound) != 0) {
        free(lanes);
        return dl_fail(DL_OUT_OF_MEMORY, "sharing: no memory for %zu jobs", n);
    }
    size_t pos = 0;
    for (size_t g = 0; g < plan->groups; g++) {
        size_t t0 = g * group, m = n - t0 < group ? n - t0 : group;
        size_t size = fill_block(elem, plan, t0, m, pos, lanes);
        plan->block_pos[g] = pos;
        plan->block_size[g] = size;
        if (size > plan->max_block)
            plan->max_block = size;
        for (pos += size; pos % e; pos++)
            plan->source[pos] = DL_SLOT_EMPTY;
    }
    plan->slots = pos;
    free(lanes);
    return DL_SUCCESS;
}

dl_status dl_sharing_plan_build(const int64_t *elem, size_t n, size_t group,
                                unsigned segment_elems, int cluster,
                                dl_sharing_plan *out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "sharing: NULL plan");
    memset(out, 0, sizeof *out);
    DL_RETURN_ERROR_ON(group == 0 || segment_elems == 0, DL_INVALID_ARGUMENT,
                       "sharing: G and E must be at least 1 (G=%zu E=%u)",
                       group, segment_elems);
    DL_RETURN_ERROR_ON(!elem && n, DL_INVALID_ARGUMENT, "sharing: no elements");
    out->jobs = n;
    out->groups = n / group + (n % group != 0);
    dl_status st = job_map(elem, n, cluster, &out->job);
    if (st == DL_SUCCESS)
        st = blocks(elem, group, segment_elems, out);
    if (st != DL_SUCCESS)
        dl_sharing_plan_free(out);
    return st;
}

void dl_sharing_plan_free(dl_sharing_plan *plan)
{
    if (!plan)
        return;
    free(plan->job);
    free(plan->local);
    free(plan->block_pos);
    free(plan->block_size);
    free(plan->source);
    memset(plan, 0, sizeof *plan);
}
