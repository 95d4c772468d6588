/* sharing_slots.c - the per-entry sharing plan of sharing_slots.h: per
 * group, its reads collected (each entry once, owned by that group), then
 * numbered by sharing.c into its block. */
#include "sharing_slots.h"
#include "error.h"
#include "sharing.h"

#include <stdlib.h>
#include <string.h>

#define UNOWNED SIZE_MAX

typedef struct planner {
    const int64_t *idx;
    int64_t c;
    const dl_coalesce_range *range;
    const size_t *job;
    size_t group, e;
    size_t *owner; /* [entries] the group reading each entry */
    dl_sharing_lane *lanes;
    size_t cap; /* source's room */
    dl_sharing_slots *out;
} planner;

/* Group g's reads into lanes[]: their count, or SIZE_MAX where an entry
 * is read by another group too. */
static size_t reads_of(planner *pl, size_t g)
{
    const dl_coalesce_range *r = pl->range;
    size_t n = 0, entries = pl->out->tables.entries;
    size_t end =
        (g + 1) * pl->group < r->threads ? (g + 1) * pl->group : r->threads;
    for (size_t t = g * pl->group; t < end; t++)
        for (size_t j = 0; j < r->steps; j++) {
            uint64_t e, job = pl->job ? pl->job[t] : t;
            if (__builtin_mul_overflow(job, r->t_stride, &e) ||
                __builtin_add_overflow(e, (uint64_t)j * r->j_stride, &e) ||
                __builtin_add_overflow(e, r->base, &e) || e >= entries ||
                pl->owner[e] == g)
                continue;
            if (pl->owner[e] != UNOWNED)
                return SIZE_MAX;
            pl->owner[e] = g;
            pl->lanes[n++] = (dl_sharing_lane){pl->idx[e] + pl->c, (size_t)e};
        }
    return n;
}

/* Room in source for n more slots and a segment's padding. */
static int reserve(planner *pl, size_t n)
{
    dl_padding_slots *t = &pl->out->tables;
    size_t need;
    if (__builtin_add_overflow(t->slots, n + pl->e, &need) ||
        need > SIZE_MAX / sizeof *t->source)
        return -1;
    if (need <= pl->cap)
        return 0;
    size_t cap = need > 2 * pl->cap ? need : 2 * pl->cap;
    int64_t *grown = realloc(t->source, cap * sizeof *grown);
    if (!grown)
        return -1;
    t->source = grown;
    pl->cap = cap;
    return 0;
}

/* Group g's block: its distinct elements from the next segment on. */
static dl_status block(planner *pl, size_t g)
{
    dl_sharing_slots *o = pl->out;
    dl_padding_slots *t = &o->tables;
    size_t n = reads_of(pl, g);
    DL_RETURN_ERROR_ON(n == SIZE_MAX, DL_UNSUPPORTED,
                       "sharing: an entry of the index buffer is read by "
                       "work-items of two work-groups");
    DL_RETURN_ERROR_ON(reserve(pl, n), DL_OUT_OF_MEMORY,
                       "sharing: no memory for A_s");
    size_t size =
        dl_sharing_number(pl->lanes, n, t->source + t->slots, t->slot);
    o->block_pos[g] = t->slots;
    o->block_size[g] = size;
    o->max_block = size > o->max_block ? size : o->max_block;
    for (t->slots += size; t->slots % pl->e; t->slots++, t->empty++)
        t->source[t->slots] = DL_SLOT_EMPTY;
    return DL_SUCCESS;
}

static dl_status allocate(planner *pl, size_t entries)
{
    dl_sharing_slots *o = pl->out;
    size_t g1 = o->groups ? o->groups : 1, n1 = entries ? entries : 1;
    size_t lanes;
    if (__builtin_mul_overflow(
            pl->group, pl->range->steps ? pl->range->steps : 1, &lanes) ||
        lanes > SIZE_MAX / sizeof *pl->lanes)
        lanes = 0;
    o->tables.entries = entries;
    o->tables.slot = calloc(n1, sizeof *o->tables.slot);
    o->block_pos = calloc(g1, sizeof *o->block_pos);
    o->block_size = calloc(g1, sizeof *o->block_size);
    pl->owner = malloc(n1 * sizeof *pl->owner);
    pl->lanes = lanes ? malloc(lanes * sizeof *pl->lanes) : NULL;
    DL_RETURN_ERROR_ON(!o->tables.slot || !o->block_pos || !o->block_size ||
                           !pl->owner || !pl->lanes,
                       DL_OUT_OF_MEMORY, "sharing: no memory for %zu entries",
                       entries);
    for (size_t i = 0; i < entries; i++)
        pl->owner[i] = UNOWNED;
    return DL_SUCCESS;
}

dl_status dl_sharing_slots_build(const int64_t *idx, size_t entries, int64_t c,
                                 const dl_coalesce_range *range,
                                 const size_t *job, size_t group,
                                 unsigned segment_elems, dl_sharing_slots *out)
{
    DL_RETURN_ERROR_ON(!out || !range || (entries && !idx), DL_INVALID_ARGUMENT,
                       "sharing: NULL argument");
    memset(out, 0, sizeof *out);
    DL_RETURN_ERROR_ON(group == 0 || segment_elems == 0, DL_INVALID_ARGUMENT,
                       "sharing: G and E must be at least 1 (G=%zu E=%u)",
                       group, segment_elems);
    planner pl = {idx, c, range, job, group, segment_elems, NULL, NULL, 0, out};
    out->groups = range->threads / group + (range->threads % group != 0);
    dl_status st = allocate(&pl, entries);
    for (size_t g = 0; st == DL_SUCCESS && g < out->groups; g++)
        st = block(&pl, g);
    free(pl.owner);
    free(pl.lanes);
    if (st != DL_SUCCESS)
        dl_sharing_slots_free(out);
    return st;
}

void dl_sharing_slots_free(dl_sharing_slots *s)
{
    if (!s)
        return;
    dl_padding_slots_free(&s->tables);
    free(s->block_pos);
    free(s->block_size);
    memset(s, 0, sizeof *s);
}
