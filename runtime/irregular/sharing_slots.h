/* sharing_slots.h - sharing for the program's own kernel (docs/irregular.md,
 * "Sharing in the runtime"): the plan of sharing.h over a launch's
 * range, per entry of the index buffer rather than per job.
 *
 * For the reference A[P[e] + c] read over `range` (work-item t reads
 * entry e = base + R[t] * t_stride + j * j_stride at step j, R the job
 * map or the identity), work-group g (work-items [g*G, (g+1)*G)) finds
 * the distinct elements its work-items read, in ascending order, at
 *   A_s[block_pos[g] .. block_pos[g] + block_size[g])
 * each block starting a segment of E elements (the rest of its last one
 * empty), and L[e] is the place of A[P[e] + c] in the block of the group
 * that reads entry e:
 *   A_s[block_pos[g] + L[e]] == A[P[e] + c].
 * The shared form copies the block into __local memory and reads
 * dl_share[L[e]].  An entry read by work-items of two groups would need
 * two places: the plan is then refused.  Entries the range never reads
 * get L[e] = 0. */
#ifndef DL_SHARING_SLOTS_H
#define DL_SHARING_SLOTS_H

#include "dlayout_irregular.h"
#include "padding_slots.h"

typedef struct dl_sharing_slots {
    /* slot[e] is L[e]; source lists A_s's elements (DL_SLOT_EMPTY after
     * a block), slots of them, empty of them padding; as padding's
     * tables, so that the runtime gathers A_s and uploads L as it does
     * A'' and Q'. */
    dl_padding_slots tables;
    size_t groups;      /* ceil(threads / G) */
    size_t *block_pos;  /* [groups] */
    size_t *block_size; /* [groups] */
    size_t max_block;   /* the largest block: the __local elements */
} dl_sharing_slots;

/* Plans A_s and L for idx[0..entries) (entry e is idx[e]), offset c, the
 * job map job[0..range->threads) (NULL: work-item t runs job t), groups of
 * `group` work-items and segments of `segment_elems` elements.
 * DL_INVALID_ARGUMENT for a zero G or E, DL_UNSUPPORTED where an entry
 * is read by two groups, DL_OUT_OF_MEMORY. */
dl_status dl_sharing_slots_build(const int64_t *idx, size_t entries, int64_t c,
                                 const dl_coalesce_range *range,
                                 const size_t *job, size_t group,
                                 unsigned segment_elems, dl_sharing_slots *out);
void dl_sharing_slots_free(dl_sharing_slots *s);

#endif
