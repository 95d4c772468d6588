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
#include "permute_choose.h"
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
 * references (DL_IRREGULAR=remap, or auto: the selector weighs it, so
 * their program is tracked). */
static inline int rt_permute_considered(const dl_annot_kernel *ak)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    return (mode == DL_IRREGULAR_AUTO || mode == DL_IRREGULAR_REMAP) &&
           dl_rt.controls.policy != DL_POLICY_NEVER && ak->ok && ak->nindirect;
}

/* Locked: the reference of k that may run on a permuted array (A[P[E]],
 * no offset, the only array read through P and P the only index buffer
 * of A, the body naming them only so: rt_permute_scan), found once; -1
 * if none. */
int rt_permute_ref(rt_kernel *k);

/* A launch of k, unlocked: with its pair applied if pi is ready, else as
 * written (starting the planning at the first one).  It applies under
 * DL_IRREGULAR=remap, and under auto where the selector chose remap for
 * k (rt_select.h); under DL_POLICY=auto the tuner then decides, launch by
 * launch, whether the pair is permuted (rt_permute_tune.h).  Returns 1
 * with the real call's status in *err, or 0 where the permutation does
 * not apply (not chosen, no reference that only goes through its index
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
    /* For the tuner: the analyser's transactions per warp-access as
     * written and permuted, the elements the plan moves, and the time its
     * kernels took to build (on the planning thread). */
    double before, after;
    size_t moved;
    uint64_t build_ns;
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

/* rt_permute_metis.c, unlocked, on a planning thread: METIS loaded from
 * DL_METIS_LIBRARY at the first call (which says once, at info level, why
 * not where it cannot be), or NULL. */
const dl_metis_api *rt_permute_metis(void);

/* rt_permute_scan.c: whether, in the program's source, the body of
 * `kernel` names `a` only as a[p[...]] and `p` only there, and no
 * preprocessor line names either. */
int rt_permute_scan(const char *src, size_t len, const char *kernel,
                    const char *a, const char *p);

#endif
