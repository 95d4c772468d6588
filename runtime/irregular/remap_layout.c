/* remap_layout.c - from a partition to a permutation of A (remap_layout.h):
 * parts to segments, overflow moved to the segments with room, positions
 * by a stable counting sort on the segment. */
#include "remap_layout.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

typedef struct layout {
    const dl_remap_patterns *p;
    const dl_remap_incidence *inc;
    size_t segments, per_segment;
    uint32_t *segment_of; /* per vertex; DL_REMAP_NONE until placed */
    size_t *fill;         /* per segment */
    uint64_t *score;      /* per segment, scratch */
    uint32_t *touched;    /* segments with a score, scratch */
    size_t first_room;    /* no segment before it has room */
} layout;

static size_t capacity(const layout *l, size_t s)
{
    return s + 1 < l->segments
               ? l->per_segment
               : l->p->elements - (l->segments - 1) * l->per_segment;
}

static int has_room(const layout *l, size_t s)
{
    return l->fill[s] < capacity(l, s);
}

/* Segment of each part: parts in the order of their lowest vertex (the
 * vertices are in element order), so the layout keeps A's coarse order. */
static void order_parts(const uint32_t *part, size_t n, size_t parts,
                        uint32_t *segment_of_part)
{
    size_t next = 0;
    for (size_t q = 0; q < parts; q++)
        segment_of_part[q] = DL_REMAP_NONE;
    for (size_t v = 0; v < n; v++)
        if (segment_of_part[part[v]] == DL_REMAP_NONE)
            segment_of_part[part[v]] = (uint32_t)next++;
    for (size_t q = 0; q < parts; q++) /* empty parts: the last segments */
        if (segment_of_part[q] == DL_REMAP_NONE)
            segment_of_part[q] = (uint32_t)next++;
}

/* The segment with room whose placed elements share most pattern weight
 * with v; the first with room when none does. */
static size_t best_segment(layout *l, uint32_t v)
{
    const dl_remap_patterns *p = l->p;
    size_t nt = 0, best = SIZE_MAX;
    for (size_t i = l->inc->start[v]; i < l->inc->start[v + 1]; i++) {
        uint32_t q = l->inc->pattern[i];
        for (size_t k = p->start[q]; k < p->start[q + 1]; k++) {
            uint32_t s = l->segment_of[p->pins[k]];
            if (s == DL_REMAP_NONE || !has_room(l, s))
                continue;
            if (l->score[s] == 0)
                l->touched[nt++] = s;
            l->score[s] += p->weight[q];
        }
    }
    for (size_t i = 0; i < nt; i++) {
        uint32_t s = l->touched[i];
        if (best == SIZE_MAX || l->score[s] > l->score[best] ||
            (l->score[s] == l->score[best] && s < best))
            best = s;
    }
    for (size_t i = 0; i < nt; i++)
        l->score[l->touched[i]] = 0;
    if (best != SIZE_MAX)
        return best;
    while (!has_room(l, l->first_room))
        l->first_room++;
    return l->first_room;
}

/* Places every vertex: in its part's segment while there is room, the
 * rest afterwards by best_segment. */
static size_t place(layout *l, const uint32_t *part,
                    const uint32_t *segment_of_part)
{
    size_t n = l->p->elements, moved = 0;
    for (size_t v = 0; v < n; v++) {
        uint32_t s = segment_of_part[part[v]];
        if (has_room(l, s)) {
            l->segment_of[v] = s;
            l->fill[s]++;
        }
    }
    for (size_t v = 0; v < n; v++)
        if (l->segment_of[v] == DL_REMAP_NONE) {
            size_t s = best_segment(l, (uint32_t)v);
            l->segment_of[v] = (uint32_t)s;
            l->fill[s]++;
            moved++;
        }
    return moved;
}

/* perm from the segments: segment s starts at s * per_segment, vertices
 * in increasing order inside it; then the elements not read. */
static void positions(const layout *l, size_t a_count, size_t *perm)
{
    const dl_remap_patterns *p = l->p;
    for (size_t s = 0; s < l->segments; s++)
        l->fill[s] = s * l->per_segment;
    size_t v = 0, rest = p->elements;
    for (size_t x = 0; x < a_count; x++) {
        if (p->vertex_of[x] == DL_REMAP_NONE) {
            perm[x] = rest++;
            continue;
        }
        perm[x] = l->fill[l->segment_of[v++]]++;
    }
}

dl_status dl_remap_layout(const dl_remap_patterns *p,
                          const dl_remap_incidence *inc, const uint32_t *part,
                          size_t parts, size_t per_segment, size_t a_count,
                          size_t *perm, size_t *moved)
{
    layout l = {
        .p = p,
        .inc = inc,
        .segments = parts,
        .per_segment = per_segment,
        .segment_of = malloc((p->elements + 1) * sizeof *l.segment_of),
        .fill = calloc(parts + 1, sizeof *l.fill),
        .score = calloc(parts + 1, sizeof *l.score),
        .touched = malloc((parts + 1) * sizeof *l.touched),
    };
    uint32_t *segment_of_part = malloc((parts + 1) * sizeof *segment_of_part);
    dl_status st = DL_SUCCESS;
    if (!l.segment_of || !l.fill || !l.score || !l.touched || !segment_of_part)
        st = dl_fail(DL_OUT_OF_MEMORY,
                     "remap: no memory for the layout "
                     "of %zu elements",
                     p->elements);
    else {
        memset(l.segment_of, 0xff, p->elements * sizeof *l.segment_of);
        order_parts(part, p->elements, parts, segment_of_part);
        *moved = place(&l, part, segment_of_part);
        positions(&l, a_count, perm);
    }
    free(segment_of_part);
    free(l.segment_of);
    free(l.fill);
    free(l.score);
    free(l.touched);
    return st;
}
