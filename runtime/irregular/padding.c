/* padding.c - the padding plan of padding.h: the frequency order, then one
 * pass over the warps that places each warp's distinct elements. */
#include "padding.h"
#include "error.h"
#include "freq_order.h"

#include <stdlib.h>
#include <string.h>

#define NOT_PLACED SIZE_MAX

/* The packing state: the next free slot, and where each distinct element
 * (by rank) was placed last. */
typedef struct packer {
    const dl_freq_order *order;
    size_t e;          /* E */
    size_t pos;        /* next free slot */
    size_t *last_slot; /* [distinct] */
    dl_padding_plan *plan;
} packer;

static size_t segment_start(const packer *p)
{
    return p->pos - p->pos % p->e;
}

/* Whether the element of rank r lies in the current segment. */
static int in_segment(const packer *p, size_t r)
{
    return p->last_slot[r] != NOT_PLACED && p->last_slot[r] >= segment_start(p);
}

/* Work-items [t0, t0 + n) are grouped by rank, so each run of one rank is
 * one distinct element: counts them, and those not in the segment. */
static void count_distinct(const packer *p, size_t t0, size_t n,
                           size_t *distinct, size_t *missing)
{
    const size_t *rank = p->order->rank;
    *distinct = *missing = 0;
    for (size_t t = t0; t < t0 + n; t++) {
        if (t > t0 && rank[t] == rank[t - 1])
            continue;
        ++*distinct;
        *missing += !in_segment(p, rank[t]);
    }
}

static void place(packer *p, size_t r)
{
    dl_padding_plan *plan = p->plan;
    plan->duplicates += p->last_slot[r] != NOT_PLACED;
    plan->source[p->pos] = p->order->value[r];
    p->last_slot[r] = p->pos++;
}

/* Leaves the rest of a partly filled segment empty. */
static void pad_segment(packer *p)
{
    while (p->pos % p->e) {
        p->plan->source[p->pos++] = DL_SLOT_EMPTY;
        p->plan->empty++;
    }
}

static void pack_warp(packer *p, size_t t0, size_t n)
{
    size_t distinct, missing;
    count_distinct(p, t0, n, &distinct, &missing);
    size_t room = p->e - p->pos % p->e;
    int fresh = distinct > p->e || missing > room;
    if (fresh)
        pad_segment(p);
    const size_t *rank = p->order->rank;
    for (size_t t = t0; t < t0 + n; t++)
        if ((t == t0 || rank[t] != rank[t - 1]) &&
            (fresh || !in_segment(p, rank[t])))
            place(p, rank[t]);
    for (size_t t = t0; t < t0 + n; t++)
        p->plan->slot[t] = p->last_slot[rank[t]];
}

/* Each warp pads fewer than E slots and places at most W elements. */
static int slots_bound(size_t n, size_t w, size_t e, size_t *bound)
{
    size_t warps = n / w + (n % w != 0), per;
    return __builtin_add_overflow(w < n ? w : n, e, &per) ||
                   __builtin_mul_overflow(warps, per, bound) ||
                   *bound > SIZE_MAX / sizeof(int64_t)
               ? -1
               : 0;
}

static dl_status pack(const dl_freq_order *order, size_t w, size_t e,
                      dl_padding_plan *plan)
{
    size_t bound;
    DL_RETURN_ERROR_ON(
        slots_bound(order->jobs, w, e, &bound) != 0, DL_OUT_OF_MEMORY,
        "padding: A'' of %zu jobs does not fit memory", order->jobs);
    packer p = {order, e, 0, malloc((order->distinct + 1) * sizeof(size_t)),
                plan};
    plan->source = malloc((bound ? bound : 1) * sizeof *plan->source);
    plan->slot = malloc((order->jobs + 1) * sizeof *plan->slot);
    if (!p.last_slot || !plan->source || !plan->slot) {
        free(p.last_slot);
        return dl_fail(DL_OUT_OF_MEMORY, "padding: no memory for %zu jobs",
                       order->jobs);
    }
    for (size_t r = 0; r < order->distinct; r++)
        p.last_slot[r] = NOT_PLACED;
    for (size_t t0 = 0; t0 < order->jobs; t0 += w)
        pack_warp(&p, t0, order->jobs - t0 < w ? order->jobs - t0 : w);
    plan->slots = p.pos;
    free(p.last_slot);
    int64_t *fit =
        realloc(plan->source, (p.pos ? p.pos : 1) * sizeof *plan->source);
    if (fit) /* the bound allowed for padding every warp */
        plan->source = fit;
    return DL_SUCCESS;
}

dl_status dl_padding_plan_build(const int64_t *elem, size_t n, unsigned warp,
                                unsigned segment_elems, dl_padding_plan *out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "padding: NULL plan");
    memset(out, 0, sizeof *out);
    DL_RETURN_ERROR_ON(warp == 0 || segment_elems == 0, DL_INVALID_ARGUMENT,
                       "padding: W and E must be at least 1 (W=%u E=%u)", warp,
                       segment_elems);
    dl_freq_order order;
    DL_RETURN_IF_FAIL(dl_freq_order_build(elem, n, &order));
    out->jobs = n;
    dl_status st = pack(&order, warp, segment_elems, out);
    if (st == DL_SUCCESS) {
        out->job = order.job; /* R is the frequency order's */
        order.job = NULL;
    } else {
        dl_padding_plan_free(out);
    }
    dl_freq_order_free(&order);
    return st;
}

void dl_padding_plan_free(dl_padding_plan *plan)
{
    if (!plan)
        return;
    free(plan->job);
    free(plan->slot);
    free(plan->source);
    memset(plan, 0, sizeof *plan);
}
