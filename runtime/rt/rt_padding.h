/* rt_padding.h - padding on the device (docs/irregular.md, "Padding in the
 * runtime"): the program's kernel run with its arguments substituted,
 * A := A'' and P := Q' (padding_slots.h), where A''[Q'[e]] == A[P[e]] for
 * every entry e of P.  That is exact where A is read-only and the kernel
 * names A only as A[P[...]] with no offset and P nowhere else
 * (rt_permute_scan.c), so no variant text is needed.
 *
 * E (A'' slot -> element of A) and Q' are planned on the selector's
 * planning thread from P's entries (rt_jobswap_plan.c) and uploaded once;
 * A'' is gathered from A on the launch's queue (gather.h, A''[s] =
 * A[E[s]]) at the first padded launch and again after A was written (its
 * version, as the reordering cache's).  After P was written the plan is
 * dropped and made again from the next launch, which runs as written. */
#ifndef DL_RT_PADDING_H
#define DL_RT_PADDING_H

#include "rt_jobswap_plan.h"

typedef struct rt_pad {
    unsigned refs;      /* the kernel's state's, and launches' (locked) */
    cl_kernel kernel;   /* the program's kernel, dlayout's own object, or
                           its job-swapped form (job) */
    cl_mem job;         /* R, where the job-swapped form runs */
    cl_mem a, p;        /* the program's A and P (compared, not held) */
    cl_uint array, via; /* their parameters */
    cl_mem q;           /* Q': P's type and size */
    cl_mem e;           /* E: elements of A, -1 in empty slots */
    unsigned e_bytes;   /* E's entries: 4 where every element fits, or 8 */
    cl_mem a2;          /* A'', once gathered (locked) */
    cl_event ready;     /* its gather (locked) */
    uint64_t version_a; /* A's when A'' was gathered (locked) */
    uint64_t version_p; /* P's when its entries were read */
    size_t slots, empty, elem, q_bytes;
    /* Sharing (rt_sharing.h) runs on the same tables: A_s for A'', L for
     * Q'; with its groups' blocks and the local size (group) and __local
     * bytes its launches need.  group is 0 for padding. */
    cl_mem block_pos, block_size;
    size_t group, local_bytes, groups, max_block;
    /* The launch it was planned at: its range and the reference's. */
    size_t global, base;
    uint64_t t_stride, j_stride, steps;
    int announced; /* its first padded launch was logged (locked) */
} rt_pad;

/* Whether padding or sharing is considered for ak's indirect references
 * (DL_IRREGULAR=padding or sharing; under auto the permutation's tracking
 * covers them): their program is then tracked. */
static inline int rt_padding_considered(const dl_annot_kernel *ak)
{
    return (dl_rt.controls.irregular == DL_IRREGULAR_PADDING ||
            dl_rt.controls.irregular == DL_IRREGULAR_SHARING) &&
           dl_rt.controls.policy != DL_POLICY_NEVER && ak->ok && ak->nindirect;
}

/* Locked: NULL where padding may serve reference r of k (A read-only,
 * the kernel naming A only as A[P[...]] with no offset and P nowhere
 * else, P not written), else why not, in plain words. */
const char *rt_padding_unfit(rt_kernel *k, const dl_annot_indirect *r,
                             int a_written);

/* Planning thread: the plan from P's entries `all` (p->entries, from
 * p->base on) read as `as_read`, kept in p->padding, and its predicted
 * transactions and memory into p->facts (padding_form cleared, with the
 * reason, where Q' could not hold its slots or memory runs out). */
void rt_padding_plan(rt_jobswap_plan *p, const int64_t *all,
                     const dl_coalesce_geometry *g,
                     const dl_coalesce_range *as_read);

/* Planning thread: E and Q' of the tables s (p->padding, or sharing's)
 * uploaded, the pad made with dlayout's form `variant` (retained) and
 * its R `job` (retained, where not NULL), or else p's kernel object
 * (taken).  NULL, or *why. */
rt_pad *rt_padding_upload(rt_jobswap_plan *p, const struct dl_padding_slots *s,
                          cl_kernel variant, cl_mem job, const char **why);

/* E's entry size for the tables s: 4 bytes where every element fits,
 * else 8. */
unsigned rt_padding_e_bytes(const struct dl_padding_slots *s);

/* Locked: drops one hold; the last releases what the pad holds. */
void rt_padding_unref(rt_pad *pad);

typedef enum rt_pad_launched {
    RT_PAD_DONE,  /* enqueued; *err is the call's status */
    RT_PAD_STALE, /* P was written since its entries were read */
    RT_PAD_PLAIN  /* not at this launch: the caller runs it as written */
} rt_pad_launched;

/* Unlocked, pad held: launch c of k on A'' and Q' (A'' gathered first
 * where A moved on).  Blocks on nothing; waits for nothing the launch
 * did not imply but the gather of A''. */
rt_pad_launched rt_padding_launch(const launch_call *c, rt_kernel *k,
                                  rt_pad *pad, cl_uint nwait,
                                  const cl_event *wait, cl_event *event,
                                  cl_int *err);

#endif
