/* rt_permute.h - the permutation as a buffer layout (docs/irregular.md,
 * "The permutation as a buffer layout"): an array A that a kernel reads or
 * writes only as A[P[...]] is kept permuted, A'[pi[x]] = A[x], and P's
 * values redirected, P'[i] = pi[P[i]], so that the program's kernel runs
 * unchanged and each work-item sees the same values, with neighbouring
 * work-items on neighbouring elements.  The pair (A, P) is one state: it
 * is applied at a launch of such a kernel and restored, both buffers
 * together, before any other use of either (host accesses, other kernels:
 * restore_one in rt_buffers.c).  pi is planned on a worker thread from a
 * copy of P read after a launch without any added wait (rt_permute_plan.c). */
#ifndef DL_RT_PERMUTE_H
#define DL_RT_PERMUTE_H

#include "dlayout_irregular.h"
#include "permute.h"
#include "rt_launch.h"

#include <stdint.h>

/* The pair's state. */
typedef enum rt_perm_state {
    RT_PERM_READING, /* P's copy is being read, or pi planned */
    RT_PERM_READY,   /* pi planned: applied at the next launch */
    RT_PERM_APPLIED, /* A permuted and P redirected */
    RT_PERM_DECLINED /* not worth it, or it failed: A and P stay plain */
} rt_perm_state;

typedef struct rt_perm rt_perm;

/* Whether the runtime considers the permutation for ak's indirect
 * references (DL_PERMUTE not off): its program is then tracked. */
static inline int rt_permute_considered(const dl_annot_kernel *ak)
{
    return dl_rt.controls.permute != DL_PERMUTE_OFF && ak->ok && ak->nindirect;
}

/* The decision under DL_PERMUTE=auto, the hook the selector may take
 * over: whether permuting pays, from the transactions the analyser
 * predicts per warp-access before and after, and the device memory it
 * takes (pi, pi^-1 and the plans' tables) against the budget. */
int rt_permute_wanted(double before, double after, size_t extra_bytes,
                      size_t budget_bytes);

/* A launch of k, unlocked: with its pair applied if pi is ready, else as
 * written (starting the planning at the first one).  Returns 1 with the
 * real call's status in *err, or 0 where the permutation does not apply
 * (DL_PERMUTE=off, no reference that only goes through its index
 * buffer, buffers in another layout or shared): the caller then launches
 * as usual, which restores what needs restoring. */
int rt_permute_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                      const cl_event *wait, cl_event *event, cl_int *err);

/* Locked: restores b's pair (A and P) if applied, on `queue`, after
 * `wait` and the buffers' uses; `done` receives the command b's next user
 * must wait for. */
dl_status rt_permute_restore(rt_buffer *b, cl_command_queue queue,
                             cl_uint nwait, const cl_event *wait,
                             rt_events *done);

/* Locked: b's entry goes: its pair ends, restored first if applied (but
 * b itself when `gone`: OpenCL destroyed it), on the pair's queue. */
void rt_permute_forget(rt_buffer *b, int gone);

/* ----------------------------------------- between rt_permute*.c only */

struct rt_perm {
    cl_mem a, p; /* the array and the index buffer */
    cl_context context;
    cl_device_id device;
    size_t n, elem; /* A: n elements of elem bytes */
    size_t count;   /* P: entries of index_bytes */
    unsigned index_bytes;
    /* How work-items read P, for the auto decision: the reference's range
     * at the first launch (consecutive entries if it cannot be told). */
    dl_coalesce_range range;
    rt_perm_state state;
    int refs;               /* the two entries, and the planner while it runs */
    cl_command_queue queue; /* retained while reading and while applied */
    /* Planned (rt_permute_plan.c), read only once the state says READY;
     * P's copy freed once planned, the rest once on the device. */
    void *host;         /* P's copy */
    cl_int read_status; /* the read's, from its callback */
    uint32_t *pi, *inv;
    dl_perm_plan forward, back;
    uint64_t plan_ns;
    /* On the device, made at the first application. */
    dl_perm_device dev_forward, dev_back;
    cl_mem map, unmap; /* pi and pi^-1 */
};

/* Locked: whether b is part of an applied pair. */
static inline int rt_permute_applied(const rt_buffer *b)
{
    return b->perm && b->perm->state == RT_PERM_APPLIED;
}

/* rt_permute_plan.c: enqueues the read of P after `after` (the launch)
 * and plans pi when it completes, on a thread of its own; the pair's
 * state becomes READY or DECLINED (locked). */
void rt_permute_start_plan(rt_perm *pm, cl_command_queue queue, cl_event after);
/* Locked: one reference fewer; frees the pair at the last. */
void rt_permute_unref(rt_perm *pm);

/* rt_permute_scan.c: whether, in the program's source, the body of
 * `kernel` names `a` only as a[p[...]] and `p` only there, and no
 * preprocessor line names either. */
int rt_permute_scan(const char *src, size_t len, const char *kernel,
                    const char *a, const char *p);

#endif
