/* rt_sharing.h - sharing on the device (docs/irregular.md, "Sharing in the
 * runtime"): dl-annotate's shared form (DL_SHARE_<kernel>,
 * docs/annotations.md) run with A := A_s, the work-groups' blocks, and
 * P := L, the block-local indices (sharing_slots.h), the blocks' places
 * and sizes after the program's arguments and a __local array of the
 * largest block.  Each group copies its block into __local memory,
 * coalesced, and reads A[P[e]] there.
 *
 * It runs on padding's machinery (rt_padding.h: an rt_pad with a group
 * size): E (A_s slot -> element of A) and L planned on the selector's
 * planning thread and uploaded once, A_s gathered on the launch's queue
 * at the first shared launch and again after A was written, the plan
 * dropped after P was written.  Padding's conditions hold (A read-only,
 * named only as A[P[...]] with no offset, P nowhere else), and the
 * launch has the local size the groups were planned for (or none: then
 * it runs with that one, rt_sharing_group), whose largest block fits
 * the device's __local memory.
 * The jobs are clustered (the frequency order, the job-swapped form
 * built too) under DL_IRREGULAR=sharing, and under the selector unless
 * other arrays are indexed by the work-item id. */
#ifndef DL_RT_SHARING_H
#define DL_RT_SHARING_H

#include "rt_jobswap_plan.h"
#include "rt_padding.h"

/* Whether dl-annotate wrote the shared form (its dl_share parameter). */
int rt_sharing_form(const dl_annot_kernel *ak);

/* The local size sharing plans launch c for: its own, or where it gives
 * none, the largest power of two from 16 to 64 that divides its range
 * (within the device's work-group size).  The shared form exists only
 * where the kernel cannot observe its work-group (dl-annotate's
 * job-swapped conditions), so dlayout may choose it.  NULL, or why not
 * (*group 0). */
const char *rt_sharing_group(const launch_call *c, size_t *group);

/* Locked: NULL where sharing may serve reference r of k (its form
 * written, padding's conditions), else why not, in plain words. */
const char *rt_sharing_unfit(rt_kernel *k, const dl_annot_indirect *r,
                             int a_written);

/* Under the selector: why sharing cannot pay on the queue's device
 * (its __local memory is global memory, CL_DEVICE_LOCAL_MEM_TYPE
 * CL_GLOBAL, as on CPUs), else NULL.  DL_IRREGULAR=sharing runs it
 * there all the same. */
const char *rt_sharing_unwanted(cl_command_queue queue);

/* Planning thread: the plan from P's entries `all` read as `as_read`,
 * clustered by p->pad_job where p->sharing_clustered, kept in
 * p->sharing, and its predicted transactions and memory into p->facts
 * (sharing_form cleared, with the reason, where it cannot serve). */
void rt_sharing_plan(rt_jobswap_plan *p, const int64_t *all,
                     const dl_coalesce_geometry *g,
                     const dl_coalesce_range *as_read);

/* Planning thread: E, L and the blocks uploaded, the pad made with the
 * shared form `variant` and, where clustered, R `job` (both retained).
 * NULL, or *why. */
rt_pad *rt_sharing_upload(rt_jobswap_plan *p, cl_kernel variant, cl_mem job,
                          const char **why);

#endif
