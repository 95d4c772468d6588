/* rt_reorder.h - reordering with index redirection at a launch
 * (docs/irregular.md, "In the runtime"): a kernel whose indirect reads
 * A[P[E] + c] dl-annotate redirected to dl_gather_<A>_<P>[E] runs its
 * activated variant with A'[e] = A[P[e] + c], gathered on the device and
 * kept in the versioned cache (runtime/irregular/reorder_cache.h) while
 * neither A nor P is written. */
#ifndef DL_RT_REORDER_H
#define DL_RT_REORDER_H

#include "rt_launch.h"

/* Whether kernel ak is activated for its indirect reads alone: every one
 * is a read, no argument asks for a conversion, and its source declares
 * the gather parameters of the redirected form, one per distinct (A, P,
 * offset). */
int rt_reorder_planned(const dl_annot_kernel *ak);

/* Whether the runtime activates ak for its indirect reads: planned, and
 * DL_POLICY=always, or auto (the tuner then decides each launch:
 * docs/tuning.md). */
static inline int rt_reorder_wanted(const dl_annot_kernel *ak)
{
    return dl_rt.controls.policy != DL_POLICY_NEVER && rt_reorder_planned(ak);
}

/* A launch of k (k->reorder), unlocked: under DL_POLICY=always, or when
 * the tuner says so under auto, its reordered copies from the cache or
 * gathered on the launch's queue, then the activated variant reading
 * them; else the program's kernel, measured when the tuner asks.  Returns 1
 * with the real call's status in *err, or 0 where it declines (logged once per
 * kernel and cause): the caller then runs the program's kernel as written.
 * Blocks on nothing and adds no wait the launch did not imply. */
int rt_reorder_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                      const cl_event *wait, cl_event *event, cl_int *err);

/* Locked: buffer b may have been written: its version moves on, and its
 * parent's (a write through a sub-buffer writes the parent). */
static inline void rt_buffer_wrote(rt_buffer *b)
{
    RT_ADD(b->version, 1); /* atomic: memo launches add without the lock */
    rt_buffer *parent = b->parent ? rt_buffer_find(b->parent) : NULL;
    if (parent)
        RT_ADD(parent->version, 1);
}

/* Locked, after a launch of k was enqueued: every buffer argument it may
 * write (a pointer not to const; the redirected kernel's A and P are
 * read-only by construction) was written. */
void rt_reorder_kernel_wrote(const rt_kernel *k);

/* Locked: whether a launch of k may write b, its argument i, which a
 * reordered copy reads: then each launch of k's memo, which skips
 * rt_reorder_kernel_wrote, moves b's version on itself (rt_memo.h). */
int rt_reorder_writes_gathered(const rt_kernel *k, cl_uint i,
                               const rt_buffer *b);

/* A kernel dlayout does not know was launched: every buffer may have
 * been written.  Without the lock. */
static inline void rt_reorder_unknown_launch(void)
{
    if (RT_LOAD(dl_rt.reorder))
        RT_ADD(dl_rt.wild_writes, 1);
}

/* Locked: buffer b goes (released, or its context closed): the copies
 * read from it go too (not counted as invalidations). */
void rt_reorder_forget(rt_buffer *b);

/* Locked: b is read by a copy of dlayout's (padding's A'', rt_padding.c)
 * as by the cache's: its writes move its version on from now on.  NULL,
 * or why it cannot be watched. */
const char *rt_reorder_watch(rt_buffer *b);

/* Locked: b's version (its parent's and unseen writes included). */
uint64_t rt_reorder_version(const rt_buffer *b);

#endif
