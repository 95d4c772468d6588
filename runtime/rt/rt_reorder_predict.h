/* rt_reorder_predict.h - the coalescing analyser's prediction for a
 * reordered kernel under DL_POLICY=auto: at its first plain launch at a
 * launch shape, the entries of each gather reference's index buffer that
 * its first RT_PREDICT_THREADS work-items read are read without
 * blocking, just before that launch (after its wait list, on its queue:
 * the index as the launch reads it), so that they are counted while the
 * launch (and the device compiler's work at a first launch) runs.  The
 * counting thread (rt_indirect_count.h) counts transactions per
 * warp-access before and after reordering, at the device's W and S, and
 * wakes the tuner: a launch that waits for plain times before a probe
 * stops waiting when the count declines the pattern.  Nothing waits for
 * the count itself. */
#ifndef DL_RT_REORDER_PREDICT_H
#define DL_RT_REORDER_PREDICT_H

#include "rt_launch.h"

/* Work-items sampled per reference (a multiple of any warp). */
#define RT_PREDICT_THREADS 16384u

/* Whether launch shape `sig` of k is still to be sampled (then it counts
 * as sampled from now on).  Unlocked. */
int rt_reorder_predict_wanted(const rt_kernel *k, uint64_t sig);

/* Unlocked, right before the plain launch c of k at shape sig, which
 * waits for `wait` and `order`: enqueues the sample's reads after them
 * (a marker joins them); blocks on nothing. */
void rt_reorder_predict_before(const launch_call *c, const rt_kernel *k,
                               uint64_t sig, cl_uint nwait,
                               const cl_event *wait, const rt_events *order);

/* The counts of k's references at shape sig, summed, per warp-access:
 * *before and *after; both 0 until every read of the sample is counted
 * (or when one failed). */
void rt_reorder_predicted(const rt_kernel *k, uint64_t sig, double *before,
                          double *after);

/* k is released (its entry may be reused): its samples go. */
void rt_reorder_predict_forget(const rt_kernel *k);

#endif
