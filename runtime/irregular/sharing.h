/* sharing.h - the sharing algorithm of 000 (section 3.4, Figure 5): each
 * work-group's working set stored once, contiguously, so that the group
 * loads it into __local memory with coalesced reads and redirects its
 * irregular accesses there.
 *
 * For the reference A[P[tid] + c], job i reads element elem[i] = P[i] + c.
 * Clustering (optional) regroups the jobs so that the jobs reading one
 * element fall into as few work-groups as possible: it takes the
 * frequency order of freq_order.h, most read elements first.  Without it
 * work-item t runs job t and no other reference of the kernel moves.
 *
 * Group g (work-items [g*G, (g+1)*G)) finds its distinct elements, in
 * ascending element order, at
 *   A_s[block_pos[g] .. block_pos[g] + block_size[g])
 * and each group's block starts a segment of E elements (the slots after
 * it to the next segment are empty).  The variant runs job R[t] in
 * work-item t, copies its group's block into __local memory L, and reads
 *   L[local[t]] = A_s[block_pos[g] + local[t]] = A[P[R[t]] + c]. */
#ifndef DL_SHARING_H
#define DL_SHARING_H

#include "padding.h" /* DL_SLOT_EMPTY */

typedef struct dl_sharing_plan {
    size_t jobs;        /* T */
    size_t groups;      /* ceil(T / G) */
    size_t *job;        /* [jobs] R: work-item t runs job job[t] */
    size_t *local;      /* [jobs] index into the group's local copy */
    size_t *block_pos;  /* [groups] the group's first slot in A_s */
    size_t *block_size; /* [groups] its distinct elements */
    size_t max_block;   /* the largest block: the __local elements needed */
    size_t slots;       /* elements of A_s */
    int64_t *source;    /* [slots] the element of A in each slot */
} dl_sharing_plan;

/* Plans n jobs for work-groups of `group` work-items and segments of
 * `segment_elems` elements, clustering the jobs when `cluster` is not 0.
 * DL_INVALID_ARGUMENT for a zero G or E, DL_OUT_OF_MEMORY when the arrays
 * cannot be allocated. */
dl_status dl_sharing_plan_build(const int64_t *elem, size_t n, size_t group,
                                unsigned segment_elems, int cluster,
                                dl_sharing_plan *out);
void dl_sharing_plan_free(dl_sharing_plan *plan);

/* One read of a group: the element, and where its block-local index
 * goes (local[index]). */
typedef struct dl_sharing_lane {
    int64_t value;
    size_t index;
} dl_sharing_lane;

/* Numbers the distinct values of lanes[0..n) in ascending order (sorting
 * lanes): writes them to source[0..) and each lane's number to
 * local[lane.index]; returns how many there are. */
size_t dl_sharing_number(dl_sharing_lane *lanes, size_t n, int64_t *source,
                         size_t *local);

#endif
