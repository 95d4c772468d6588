/* rt_jobswap.h - the method of an annotated kernel's indirect references
 * at its launches, and job swapping (docs/irregular.md, "In the runtime:
 * the selector and job swapping").
 *
 * At the first launch of a kernel with indirect references (1-D), the
 * index buffer P of its first reference is read without blocking, after
 * the launch on its queue.  When the read completes, a thread of its own
 * counts the transactions (as written, duplicated, job-swapped), asks the
 * selector (rt_select.h, or DL_IRREGULAR) and logs its choice once at info
 * level.  For job swap it plans R (job_swap.h) from P, uploads it and
 * builds the job-swapped form dl-annotate wrote (DL_JOBSWAP_<kernel>);
 * launches with the planned range then run it, work-item g doing job
 * R[g], from the first launch after R is ready.  Until then, and for the
 * other methods, launches take their path as before. */
#ifndef DL_RT_JOBSWAP_H
#define DL_RT_JOBSWAP_H

#include "rt_launch.h"

typedef enum rt_irregular_launched {
    RT_IRREGULAR_ASIS = 0, /* the caller goes on as before */
    RT_IRREGULAR_PLAIN,    /* the caller runs it as written (skipping the
                              reordering path) */
    RT_IRREGULAR_DONE      /* enqueued here; *err is the call's status */
} rt_irregular_launched;

/* A launch of k, unlocked.  Blocks on nothing and adds no wait the
 * launch did not imply. */
rt_irregular_launched rt_irregular_launch(const launch_call *c, rt_kernel *k,
                                          cl_uint nwait, const cl_event *wait,
                                          cl_event *event, cl_int *err);

/* Locked: whether the method chosen for k is remap (rt_permute.h runs
 * its launches). */
int rt_irregular_remapped(const rt_kernel *k);

/* Unlocked: under DL_IRREGULAR=remap, k's launch ran on its permutation
 * pair: the choice, logged once. */
void rt_irregular_remap_forced(rt_kernel *k);

/* Locked: k goes; its state goes with it once no planning holds it. */
void rt_irregular_forget(rt_kernel *k);

#endif
