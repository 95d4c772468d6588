/* padding.h - the padding algorithm of 000 (section 3.3.2, Figure 3): a
 * layout A'' that puts the working set of every warp into one memory
 * segment, keeping one copy of an element per warp that reads it and
 * sharing copies between warps where they fall into one segment.
 *
 * For the reference A[P[tid] + c], job i reads element elem[i] = P[i] + c.
 * The plan regroups the jobs by element, most read first (freq_order.h),
 * cuts them into warps of W work-items, and packs each warp's distinct
 * elements greedily into segments of E elements: a warp whose new elements
 * do not fit in the rest of the current segment starts the next one (the
 * rest stays empty) and takes all its elements there, duplicating those
 * already placed earlier.  A warp that reads more than E distinct elements
 * starts a segment and spans ceil(u / E) of them, the fewest possible.
 *
 * The kernel's variant runs job R[t] in work-item t (every other reference
 * of the kernel follows: B[tid] becomes B[R[t]]) and reads A''[Q[t]]:
 *   A''[Q[t]] = A[P[R[t]] + c]   for every t < jobs.
 * A'' is aligned to a segment; slot k holds A[source[k]], or nothing
 * (DL_SLOT_EMPTY) in a padding slot. */
#ifndef DL_PADDING_H
#define DL_PADDING_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

/* An empty slot.  As an element number it lies outside any A, so a
 * builder that writes zero bytes for elements outside A (the gather's
 * rule) writes zero bytes there too. */
#define DL_SLOT_EMPTY INT64_MIN

typedef struct dl_padding_plan {
    size_t jobs;       /* T */
    size_t *job;       /* [jobs] R: work-item t runs job job[t] */
    size_t *slot;      /* [jobs] Q: work-item t reads A''[slot[t]] */
    size_t slots;      /* elements of A'' */
    int64_t *source;   /* [slots] the element of A in each slot */
    size_t empty;      /* padding slots */
    size_t duplicates; /* slots holding an element placed before */
} dl_padding_plan;

/* Plans n jobs for warps of `warp` work-items and segments of
 * `segment_elems` elements.  DL_INVALID_ARGUMENT for a zero W or E,
 * DL_OUT_OF_MEMORY when the arrays cannot be allocated. */
dl_status dl_padding_plan_build(const int64_t *elem, size_t n, unsigned warp,
                                unsigned segment_elems, dl_padding_plan *out);
void dl_padding_plan_free(dl_padding_plan *plan);

#endif
