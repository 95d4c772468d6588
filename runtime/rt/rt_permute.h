/* rt_permute.h - the permutation as a buffer layout (docs/irregular.md,
 * "The permutation as a buffer layout"): an array A that a kernel reads or
 * writes only as A[P[...]] is kept permuted, A'[pi[x]] = A[x], and P's
 * values redirected, P'[i] = pi[P[i]], so that the program's kernel runs
 * unchanged and each work-item sees the same values, with neighbouring
 * work-items on neighbouring elements.  Every array the kernel reads
 * through P (rank[col[k]] and outdeg[col[k]]) is permuted by the same pi,
 * since P' is shared.  The set (the arrays and P, "the pair") is one
 * state: it is applied at a launch of such a kernel and restored, all its
 * buffers together, before any other use of any (host accesses, other
 * kernels: restore_one in rt_buffers.c).  pi is planned on a worker thread
 * from a copy of P read after a launch without any added wait
 * (rt_permute_plan.c). */
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

/* The most arrays permuted through one index buffer. */
#define RT_PERM_ARRAYS 4

/* Locked: the first reference of k's set that may run on permuted arrays
 * (every reference through P is A[P[E]] with no offset, each such A read
 * through P only, the body naming them only so: rt_permute_scan_set),
 * found once; -1 if none. */
int rt_permute_ref(rt_kernel *k);

/* Locked: the references of k's set (its arrays: one reference each, the
 * first of rt_permute_ref's P that names it) into refs[RT_PERM_ARRAYS];
 * their count, 0 if none. */
unsigned rt_permute_refs(rt_kernel *k, uint32_t *refs);

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
    cl_mem a[RT_PERM_ARRAYS], p;  /* the arrays and the index buffer */
    size_t elems[RT_PERM_ARRAYS]; /* each array's element bytes */
    unsigned na;
    cl_context context;
    cl_device_id device;
    size_t n, elem; /* each array: n elements; the first's of elem bytes,
                       which the planning counts */
    size_t count;   /* P: entries of index_bytes */
    unsigned index_bytes;
    /* How work-items read P, for the auto decision: the reference's range
     * at the first launch (consecutive entries if it cannot be told). */
    dl_coalesce_range range;
    rt_perm_state state;
    int refs;               /* the buffers' entries, and the planner */
    cl_command_queue queue; /* retained while reading and while applied */
    /* Planned (rt_permute_plan.c), read only once the state says READY;
     * P's copy freed once planned, the rest once on the device. */
    void *host;         /* P's copy */
    int versioned;      /* P watched when read: its version in p_version */
    uint64_t p_version; /* (rt_permute_choose.c keys METIS's order by it) */
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
    /* On the device, made at the first application: each array's. */
    dl_perm_device dev_forward[RT_PERM_ARRAYS], dev_back[RT_PERM_ARRAYS];
    cl_mem map, unmap; /* pi and pi^-1 */
};

/* The bytes of one element of every array of the set together: what
 * each element the plans move costs (each array has its own plan and
 * saved elements). */
static inline size_t rt_permute_set_elem(const rt_perm *pm)
{
    size_t bytes = 0;
    for (unsigned i = 0; i < pm->na; i++)
        bytes += pm->elems[i];
    return bytes;
}

/* Locked: whether b is part of an applied pair. */
static inline int rt_permute_applied(const rt_buffer *b)
{
    return b->perm && b->perm->state == RT_PERM_APPLIED;
}

/* rt_permute_pair.c, locked: the set of arrays a[0..na) (of elems[i]
 * bytes an element) through p, found or made (its state DECLINED where
 * the arrays' element counts differ or P's values cannot address them);
 * NULL with *why where they cannot be one set. */
rt_perm *rt_permute_pair_of(rt_buffer *const *a, const size_t *elems,
                            unsigned na, rt_buffer *p, unsigned index_bytes,
                            cl_command_queue queue, const char **why);
/* Locked: a READY set applied before a launch (after `wait`; the moves'
 * events to `done`); left READY while a host access is under way,
 * DECLINED where it fails. */
void rt_permute_apply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                      const cl_event *wait, rt_events *done);
/* Locked: an applied set back to the program's order before a launch
 * the tuner runs as written. */
void rt_permute_unapply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                        const cl_event *wait, rt_events *done);

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

/* rt_permute_choose.c: what METIS's order is kept for: P, its version
 * when its entries were read (rt_reorder_version, P watched), A and its
 * elements. */
typedef struct rt_metis_key {
    cl_mem p, a;
    uint64_t version;
    size_t n, elem;
} rt_metis_key;

/* Unlocked, on a planning thread: pi in the order of fewest transactions
 * (dl_perm_choose_reusing), METIS's order taken from the one kept for key
 * where there is one, else planned and kept (key NULL: neither). */
dl_status rt_permute_choose(const rt_metis_key *key, const dl_perm_source *src,
                            uint32_t *pi, dl_perm_choice *c);

/* Unlocked: a copy of the order kept for key into pi (key->n entries);
 * 1 if there was one.  And an order kept for key (a copy). */
int rt_permute_metis_kept(const rt_metis_key *key, uint32_t *pi);
void rt_permute_metis_keep(const rt_metis_key *key, const uint32_t *pi);

/* rt_permute_scan.c: whether, in the program's source, the body of
 * `kernel` names `a` only as a[p[...]] and `p` only there, and no
 * preprocessor line names either. */
int rt_permute_scan(const char *src, size_t len, const char *kernel,
                    const char *a, const char *p);

/* The names of a set: its arrays and P. */
typedef struct rt_permute_names {
    const char *a[RT_PERM_ARRAYS];
    unsigned na;
    const char *p;
} rt_permute_names;

/* The same for a set: each array only as A[P[...]], P only there. */
int rt_permute_scan_set(const char *src, size_t len, const char *kernel,
                        const rt_permute_names *n);

#endif
