/* rt_indirect.h - the coalescing report of annotated indirect references
 * (DL_COALESCING, docs/annotations.md "Indirect references"): after each
 * launch of a kernel with such references, its index buffers are read
 * asynchronously on the launch's queue, and the read's completion counts
 * the memory transactions (runtime/irregular) into per-reference totals
 * printed at exit. */
#ifndef DL_RT_INDIRECT_H
#define DL_RT_INDIRECT_H

#include "rt_launch.h"

#include <stdio.h>

/* Whether launches of k are counted: DL_COALESCING and k has indirect
 * references. */
static inline int rt_indirect_counts(const rt_kernel *k)
{
    return dl_rt.controls.coalescing && k && k->annot &&
           k->annot->nindirect > 0;
}

/* Unlocked, after the launch `launched` (its event) of k was enqueued:
 * enqueues the reads of the index buffers, waiting on it, whose callbacks
 * count.  Adds no wait and blocks on nothing. */
void rt_indirect_launched(const launch_call *c, const rt_kernel *k,
                          cl_event launched);

/* The value of macro `name` in the build options `user` ("-D K=8",
 * "-DK=8", "-D K" is 1), as dimension expressions read integers: the
 * dl_annot_macro_fn of dl_annot_indirect_eval. */
dl_status rt_indirect_macro(void *user, const char *name, int64_t *value);

/* The launch's environment for the annotation's expressions: k's
 * argument values into raw[64] (a task is a range of one). */
dl_dims_env rt_indirect_env(const launch_call *c, const rt_kernel *k,
                            dl_dims_raw_arg *raw);

/* Where reference r of k reads at launch c: its index evaluated with the
 * launch's range, k's argument values and its program's -D macros. */
dl_status rt_indirect_eval(const launch_call *c, const rt_kernel *k,
                           const dl_annot_indirect *r,
                           dl_annot_indirect_range *out);

/* The same for a row-bounded reference: where its bounds lie. */
dl_status rt_indirect_rows_eval(const launch_call *c, const rt_kernel *k,
                                const dl_annot_indirect *r,
                                dl_annot_rows_range *out);

/* At exit: one line per reference counted (or that could not be). */
void rt_indirect_report(FILE *out);

#endif
