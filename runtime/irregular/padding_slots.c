/* padding_slots.c - the per-warp-access padding plan of padding_slots.h:
 * the entries ranked by element, then one pass over the warp-accesses in
 * launch order that places each one's distinct elements. */
#define _GNU_SOURCE /* qsort_r */
#include "padding_slots.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

#define NOT_PLACED SIZE_MAX

typedef struct slotter {
    size_t e;          /* E */
    size_t cap;        /* source's room */
    size_t *rank;      /* [entries] the distinct element of each entry */
    int64_t *value;    /* [distinct] the element of each rank */
    size_t *last_slot; /* [distinct] where each rank was placed last */
    size_t *seen;      /* [distinct] the stamp that last counted it */
    size_t stamp;
    size_t *lane;      /* [W] the entries of one warp-access */
    const size_t *job; /* [threads] R, or NULL */
    dl_padding_slots *out;
} slotter;

static int by_value(const void *a, const void *b, void *idx)
{
    int64_t x = ((const int64_t *)idx)[*(const size_t *)a];
    int64_t y = ((const int64_t *)idx)[*(const size_t *)b];
    return (x > y) - (x < y);
}

/* rank[] and value[] from the entries sorted by element. */
static int rank_sorted(slotter *s, const int64_t *idx, size_t n, int64_t c,
                       size_t *distinct)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, by_value, (void *)idx);
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && idx[order[i]] != idx[order[i - 1]])
            d++;
        s->rank[order[i]] = d;
        s->value[d] = idx[order[i]] + c;
    }
    *distinct = n ? d + 1 : 0;
    free(order);
    return 0;
}

/* The same by a table over [lo, hi] (a rank only names an element: any
 * numbering will do), where that span is small: linear time. */
static int rank_table(slotter *s, const int64_t *idx, size_t n, int64_t c,
                      int64_t lo, uint64_t span, size_t *distinct)
{
    size_t *id = malloc(span * sizeof *id);
    if (!id)
        return -1;
    for (uint64_t v = 0; v < span; v++)
        id[v] = SIZE_MAX;
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        size_t *r = &id[(uint64_t)idx[i] - (uint64_t)lo];
        if (*r == SIZE_MAX) {
            *r = d;
            s->value[d++] = idx[i] + c;
        }
        s->rank[i] = *r;
    }
    *distinct = d;
    free(id);
    return 0;
}

static int rank_entries(slotter *s, const int64_t *idx, size_t n, int64_t c,
                        size_t *distinct)
{
    int64_t lo = n ? idx[0] : 0, hi = lo;
    for (size_t i = 1; i < n; i++) {
        lo = idx[i] < lo ? idx[i] : lo;
        hi = idx[i] > hi ? idx[i] : hi;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    if (n && span && span <= 4 * (uint64_t)n + 4096)
        return rank_table(s, idx, n, c, lo, span, distinct);
    return rank_sorted(s, idx, n, c, distinct);
}

static int push(slotter *s, int64_t element)
{
    dl_padding_slots *o = s->out;
    if (o->slots == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        int64_t *grown = cap < s->cap || cap > SIZE_MAX / sizeof *grown
                             ? NULL
                             : realloc(o->source, cap * sizeof *grown);
        if (!grown)
            return -1;
        o->source = grown;
        s->cap = cap;
    }
    o->source[o->slots++] = element;
    return 0;
}

/* Whether rank r was placed at or after `start` (a segment's first
 * slot). */
static int placed_from(const slotter *s, size_t r, size_t start)
{
    return s->last_slot[r] != NOT_PLACED && s->last_slot[r] >= start;
}

static int place(slotter *s, size_t r)
{
    s->out->duplicates += s->last_slot[r] != NOT_PLACED;
    s->last_slot[r] = s->out->slots;
    return push(s, s->value[r]);
}

/* Leaves the rest of a partly filled segment empty. */
static int pad_segment(slotter *s)
{
    while (s->out->slots % s->e) {
        if (push(s, DL_SLOT_EMPTY))
            return -1;
        s->out->empty++;
    }
    return 0;
}

/* One warp-access over the entries lane[0..n): its distinct elements
 * placed, its entries' slots set. */
static int pack_access(slotter *s, size_t n)
{
    /* The segment the access shares: fixed before placing, since filling
     * it moves the next free slot into the next one. */
    size_t start = s->out->slots - s->out->slots % s->e;
    size_t distinct = 0, missing = 0, stamp = ++s->stamp;
    for (size_t i = 0; i < n; i++) {
        size_t r = s->rank[s->lane[i]];
        if (s->seen[r] == stamp)
            continue;
        s->seen[r] = stamp;
        distinct++;
        missing += !placed_from(s, r, start);
    }
    size_t room = s->e - s->out->slots % s->e;
    int fresh = distinct > s->e || missing > room;
    if (fresh && pad_segment(s))
        return -1;
    stamp = ++s->stamp;
    for (size_t i = 0; i < n; i++) {
        size_t r = s->rank[s->lane[i]];
        if (s->seen[r] == stamp)
            continue;
        s->seen[r] = stamp;
        if ((fresh || !placed_from(s, r, start)) && place(s, r))
            return -1;
    }
    for (size_t i = 0; i < n; i++)
        s->out->slot[s->lane[i]] = s->last_slot[s->rank[s->lane[i]]];
    return 0;
}

/* The entries that warp t0.. reads at step j and no earlier warp-access
 * claimed, into lane[]; their count. */
static size_t lanes_of(slotter *s, const dl_coalesce_range *range, size_t t0,
                       size_t w, size_t j)
{
    size_t n = 0;
    for (size_t t = t0; t < t0 + w && t < range->threads; t++) {
        uint64_t e, job = s->job ? s->job[t] : t;
        if (__builtin_mul_overflow(job, range->t_stride, &e) ||
            __builtin_add_overflow(e, (uint64_t)j * range->j_stride, &e) ||
            __builtin_add_overflow(e, range->base, &e) ||
            e >= s->out->entries || s->out->slot[e] != NOT_PLACED)
            continue;
        s->lane[n++] = (size_t)e;
    }
    return n;
}

static int pack(slotter *s, const dl_coalesce_range *range, size_t w)
{
    dl_padding_slots *o = s->out;
    for (size_t t0 = 0; t0 < range->threads; t0 += w)
        for (size_t j = 0; j < range->steps; j++) {
            size_t n = lanes_of(s, range, t0, w, j);
            if (n && pack_access(s, n))
                return -1;
        }
    /* Entries never read: any slot of their element. */
    for (size_t e = 0; e < o->entries; e++) {
        if (o->slot[e] != NOT_PLACED)
            continue;
        size_t r = s->rank[e];
        if (s->last_slot[r] == NOT_PLACED && place(s, r))
            return -1;
        o->slot[e] = s->last_slot[r];
    }
    return 0;
}

static void slotter_free(slotter *s)
{
    free(s->rank);
    free(s->value);
    free(s->last_slot);
    free(s->seen);
    free(s->lane);
}

dl_status dl_padding_slots_build(const int64_t *idx, size_t entries, int64_t c,
                                 const dl_coalesce_range *range,
                                 const size_t *job, unsigned warp,
                                 unsigned segment_elems, dl_padding_slots *out)
{
    DL_RETURN_ERROR_ON(!out || !range || (entries && !idx), DL_INVALID_ARGUMENT,
                       "padding: NULL argument");
    memset(out, 0, sizeof *out);
    DL_RETURN_ERROR_ON(warp == 0 || segment_elems == 0, DL_INVALID_ARGUMENT,
                       "padding: W and E must be at least 1 (W=%u E=%u)", warp,
                       segment_elems);
    size_t n1 = entries ? entries : 1;
    slotter s = {.e = segment_elems, .job = job, .out = out};
    s.rank = malloc(n1 * sizeof *s.rank);
    s.value = malloc(n1 * sizeof *s.value);
    s.last_slot = malloc(n1 * sizeof *s.last_slot);
    s.seen = calloc(n1, sizeof *s.seen);
    s.lane = malloc(warp * sizeof *s.lane);
    out->entries = entries;
    out->slot = malloc(n1 * sizeof *out->slot);
    size_t distinct = 0;
    int ok = s.rank && s.value && s.last_slot && s.seen && s.lane &&
             out->slot && !rank_entries(&s, idx, entries, c, &distinct);
    for (size_t i = 0; ok && i < entries; i++)
        out->slot[i] = NOT_PLACED;
    for (size_t r = 0; ok && r < distinct; r++)
        s.last_slot[r] = NOT_PLACED;
    ok = ok && !pack(&s, range, warp);
    slotter_free(&s);
    if (!ok) {
        dl_padding_slots_free(out);
        return dl_fail(DL_OUT_OF_MEMORY, "padding: no memory for %zu entries",
                       entries);
    }
    return DL_SUCCESS;
}

void dl_padding_slots_free(dl_padding_slots *s)
{
    if (!s)
        return;
    free(s->slot);
    free(s->source);
    memset(s, 0, sizeof *s);
}
