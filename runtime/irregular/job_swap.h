/* job_swap.h - job swapping (002, sections 3.2.2 and 4.1-4.2): a map R
 * from work-items to jobs, so that the variant runs job R[t] in work-item
 * t.  No data moves.
 *
 * The contract with the kernel's variant: every occurrence of the global
 * id in the kernel becomes R[tid] (the job's id), so each job runs the
 * same arithmetic, in the same order, on the same data, inside one
 * work-item; only which work-item runs it changes.  R is a permutation of
 * [0, n), so every job runs exactly once.  Results are identical as long
 * as jobs do not communicate (no reductions or barriers across work-items,
 * which this does not cover).
 *
 * Two maps:
 * - by segment, for a reference A[P[tid] + c] (job i reads element
 *   elem[i] = P[i] + c): jobs reading one segment of E elements fill whole
 *   warps together; the jobs left over of each segment (fewer than W) are
 *   packed greedily, the largest set first in an empty warp, filled up
 *   from the smallest sets, so that few sets are split (002, 4.1);
 * - by length, for loops whose trip count depends on the job (a per-job
 *   length array): jobs sorted by length, longest first, so that each
 *   warp's jobs run similar trip counts (002, 4.2, with every distinct
 *   length its own category).
 * Both are exact and deterministic: ties go to the lower segment or job.
 * Only the last warp may be partial, as in the original launch. */
#ifndef DL_JOB_SWAP_H
#define DL_JOB_SWAP_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

/* Fills job[0..n) with R by segment.  DL_INVALID_ARGUMENT for a zero W or
 * E, DL_OUT_OF_MEMORY when the work arrays cannot be allocated. */
dl_status dl_job_swap_by_segment(const int64_t *elem, size_t n, unsigned warp,
                                 unsigned segment_elems, size_t *job);

/* Fills job[0..n) with R by length. */
dl_status dl_job_swap_by_length(const uint64_t *length, size_t n, size_t *job);

/* The warp steps of a loop whose trip count is length[job] in work-item
 * t's job (job NULL: t): each SIMD group of `warp` consecutive
 * work-items steps as often as its longest trip count, the coalescing
 * analyser's model of a row loop (dl_coalesce_count_rows' warp-accesses,
 * empty rows aside).  0 for a zero warp. */
uint64_t dl_job_swap_steps(const uint64_t *length, const size_t *job, size_t n,
                           unsigned warp);

#endif
