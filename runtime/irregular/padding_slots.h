/* padding_slots.h - padding for the program's own kernel (docs/irregular.md,
 * "Padding in the runtime"): the work-items keep their jobs, and the index
 * buffer is redirected instead.
 *
 * For the reference A[P[e] + c] read over `range` (work-item t reads entry
 * e = base + t * t_stride + j * j_stride at step j), the plan packs, per
 * warp-access (warp w, step j), the distinct elements its lanes read into
 * consecutive slots of a new array A'': into the rest of the current
 * segment of E slots where they fit (sharing the copies already there),
 * else from the next segment on (the rest stays empty), spanning
 * ceil(u / E) segments for u > E, the fewest possible.  Q'[e] is the slot
 * holding A[P[e] + c], so that
 *   A''[Q'[e]] == A[P[e] + c]   for every entry e < entries,
 * and the kernel given A'' for A and Q' for P (with c = 0) reads the same
 * values, each warp-access from the fewest segments.
 *
 * An entry read by several warp-accesses keeps the slot of the first
 * (still the right value; only the later ones may touch more segments).
 * Entries the range never reads get a slot of their element too (one
 * more at the end if none was placed), so Q' is valid for all of P.
 *
 * With a job map R (the job-swapped form: work-item t runs job R[t] and
 * reads the entries of job R[t]), the warps are those of the work-items:
 * R from the frequency order (freq_order.h) regroups the jobs reading an
 * element into the same warps, which is what saves memory (000 section
 * 3.3.2); in launch order only the reads a warp-access repeats are.  The
 * values hold whatever R is: A''[Q'[e]] == A[P[e] + c] for every e. */
#ifndef DL_PADDING_SLOTS_H
#define DL_PADDING_SLOTS_H

#include "dlayout_irregular.h"
#include "padding.h"

typedef struct dl_padding_slots {
    size_t entries;    /* P's entries: Q' */
    size_t *slot;      /* [entries] Q': the slot of A[P[e] + c]     */
    size_t slots;      /* elements of A''                            */
    int64_t *source;   /* [slots] E: the element of A in each slot,
                          DL_SLOT_EMPTY in a padding slot            */
    size_t empty;      /* padding slots                              */
    size_t duplicates; /* slots holding an element placed before     */
} dl_padding_slots;

/* Plans A'' and Q' for idx[0..entries) (P's entries from range->base's
 * origin: entry e is idx[e]), offset c, the job map job[0..threads)
 * (NULL: work-item t runs job t), warps of `warp` work-items and
 * segments of `segment_elems` elements.  DL_INVALID_ARGUMENT for a zero
 * W or E, DL_OUT_OF_MEMORY when the arrays cannot be allocated. */
dl_status dl_padding_slots_build(const int64_t *idx, size_t entries, int64_t c,
                                 const dl_coalesce_range *range,
                                 const size_t *job, unsigned warp,
                                 unsigned segment_elems, dl_padding_slots *out);
void dl_padding_slots_free(dl_padding_slots *s);

#endif
