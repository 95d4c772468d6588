/* rt_reorder_predict.h - the coalescing analyser's prediction for a
 * reordered kernel under DL_POLICY=auto: after its first plain launch at
 * a launch shape, the entries of each gather reference's index buffer
 * that its first RT_PREDICT_THREADS work-items read are read without
 * blocking, after that launch (DL_COALESCING's way: rt_indirect.h), and
 * counted on its counting thread: transactions per warp-access before
 * and after reordering, at the device's W and S.  The tuner takes them
 * at a later launch, if they have arrived by then; nothing waits for
 * them. */
#ifndef DL_RT_REORDER_PREDICT_H
#define DL_RT_REORDER_PREDICT_H

#include "rt_launch.h"

/* Work-items sampled per reference (a multiple of any warp). */
#define RT_PREDICT_THREADS 16384u

/* Whether launch shape `sig` of k is still to be sampled (then it counts
 * as sampled from now on).  Unlocked. */
int rt_reorder_predict_wanted(const rt_kernel *k, uint64_t sig);

/* Unlocked, after the plain launch `launched` (its event) of k at shape
 * sig: enqueues the sample's reads; adds no wait and blocks on nothing. */
void rt_reorder_predict_launched(const launch_call *c, const rt_kernel *k,
                                 uint64_t sig, cl_event launched);

/* The counts of k's references at shape sig, summed, per warp-access:
 * *before and *after; both 0 until every read of the sample is counted
 * (or when one failed). */
void rt_reorder_predicted(const rt_kernel *k, uint64_t sig, double *before,
                          double *after);

/* k is released (its entry may be reused): its samples go. */
void rt_reorder_predict_forget(const rt_kernel *k);

#endif
