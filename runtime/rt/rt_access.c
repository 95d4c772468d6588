/* rt_access.c - host-visible and raw accesses to buffers: the original
 * layout is restored before every read, map, copy, partial write or fill,
 * sub-buffer use and native kernel; a whole-buffer write or fill only
 * resets the state (the old bytes are overwritten anyway). */
#include "rt_internal.h"
#include "rt_permute.h"
#include "rt_renumber.h"
#include "rt_reorder.h"

#include <stdlib.h>

/* The `writes` of a call that may write every buffer it names. */
static const int writes_all_flag = -1;
#define RT_WRITES_ALL (&writes_all_flag)

/* One access: the buffers it touches, and the wait list and event of the
 * real call. */
typedef struct access {
    cl_command_queue queue;
    cl_uint nwait; /* for the real call */
    const cl_event *wait;
    cl_event *event; /* for the real call */
    cl_event own;    /* ours when the caller passed NULL */
    cl_event *caller_event;
    rt_events done, joined;
    int tracked;  /* some buffer is in the table */
    int blocking; /* the caller asked for a blocking call */
} access;

/* Before the real call, which the caller makes non-blocking: the lock is
 * held from here to access_end, so that no other thread converts these
 * buffers between the restore and the command.  whole[i]: mems[i] is
 * overwritten entirely; writes[i]: it may be written (RT_WRITES_ALL:
 * all are), which moves its version on. */
static void access_begin(access *a, cl_command_queue queue, cl_uint nmem,
                         const cl_mem *mems, const int *whole,
                         const int *writes, cl_uint nwait, const cl_event *wait,
                         cl_event *event, int blocking)
{
    *a = (access){.queue = queue,
                  .nwait = nwait,
                  .wait = wait,
                  .event = event,
                  .caller_event = event,
                  .blocking = blocking};
    rt_lock();
    for (cl_uint i = 0; i < nmem; i++) {
        if (!mems[i])
            continue;
        rt_buffer *b = rt_buffer_find(mems[i]);
        if (!b) {
            if (RT_LOAD(dl_rt.transformed))
                rt_buffer_restore_mem(mems[i], queue, nwait, wait, &a->done);
            continue;
        }
        a->tracked = 1;
        if (writes && (writes == RT_WRITES_ALL || writes[i]))
            rt_buffer_wrote(b);
        /* A sub-buffer's whole write is a partial write of its parent. */
        if (whole && whole[i] && !b->parent && !rt_permute_applied(b) &&
            !rt_renumber_applied(b)) {
            rt_buffer_reset(b);
            rt_buffer_order(b, queue, &a->done); /* not before a conversion */
        } else
            rt_buffer_restore(b, queue, nwait, wait, &a->done);
    }
    if (a->done.n)
        a->wait = rt_events_join(&a->joined, nwait, wait, &a->done, &a->nwait);
    if ((a->tracked || blocking) && !event)
        a->event = &a->own;
}

/* After it: the command is a use of each tracked buffer; a blocking call
 * waits here, without the lock.  Returns the call's status. */
static cl_int access_end(access *a, cl_uint nmem, const cl_mem *mems,
                         cl_int err)
{
    if (a->tracked && err == CL_SUCCESS && *a->event)
        for (cl_uint i = 0; i < nmem; i++) {
            rt_buffer *b = mems[i] ? rt_buffer_find(mems[i]) : NULL;
            if (b)
                rt_buffer_used(b, a->queue, *a->event);
        }
    rt_unlock();
    if (a->blocking && err == CL_SUCCESS && *a->event)
        err = rt_fwd.clWaitForEvents(1, a->event);
    if (a->own)
        dl_cl.clReleaseEvent(a->own);
    rt_events_free(&a->joined);
    rt_events_free(&a->done);
    return err;
}

static size_t mem_size(cl_mem mem)
{
    size_t size = 0;
    if (dl_cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) !=
        CL_SUCCESS)
        return 0;
    return size;
}

/* Nothing to do for buffers the table does not know (lock-free lookups):
 * every sub-buffer is tracked from its creation on (rt_buffers.c), so an
 * unknown buffer is no part of a transformed one, unless tracking a
 * sub-buffer once failed. */
static inline int untouched(cl_uint nmem, const cl_mem *mems)
{
    if (!__atomic_load_n(&dl_rt.buffers.live, __ATOMIC_RELAXED))
        return !RT_LOAD(dl_rt.transformed);
    for (cl_uint i = 0; i < nmem; i++)
        if (mems[i] && rt_buffer_find(mems[i]))
            return 0;
    return !RT_LOAD(dl_rt.transformed) || !RT_LOAD(dl_rt.untracked_subs);
}

/* The inline lookup in the buffer table (rt_map_probe).  Not under
 * helgrind (dl_rt.annotated < 0), which must see the lock. */
static inline int probe_buffer(cl_mem mem, rt_buffer **b)
{
    return rt_map_probe(&dl_rt.buffers, mem, (void **)b);
}

/* The wrappers' own test, inline and lock-free: no annotated program
 * yet, or buffers the table surely does not know (untouched() decides
 * the rest). */
static inline int unknown(cl_mem mem)
{
    rt_buffer *b;
    return !probe_buffer(mem, &b) && !RT_LOAD(dl_rt.untracked_subs);
}

static inline int passes(cl_mem a, cl_mem b)
{
    int annotated = RT_LOAD(dl_rt.annotated);
    return !annotated || (annotated > 0 && unknown(a) && (!b || unknown(b)));
}

/* What a read or write goes through: straight to the real call, the same
 * counted in the buffer's host_busy, or the locked path.  A blocking read
 * or write of a buffer the table knows but never converted needs no lock:
 * it counts itself, and the buffer's first conversion (rt_buffers.c,
 * convert) marks it ever_converted before it looks at the count, and
 * gives way while an access is under way, so neither overtakes the
 * other.  A blocking call leaves no command to wait for.  Once converted,
 * a buffer's accesses take the locked path: a restore may still run.  So
 * do a sub-buffer's (marked ever_converted from the start): the locked
 * path restores its parent. */
typedef enum { ACCESS_PASS, ACCESS_COUNTED, ACCESS_LOCKED } access_path;

/* GCC's sibling calls reload and store back the stack arguments of these
 * 9- and 14-argument calls, on every path. */
#define RT_NO_SIBLING_CALLS                                                    \
    __attribute__((optimize("no-optimize-sibling-calls")))

static inline access_path path_of(cl_mem mem, cl_bool blocking, rt_buffer **b)
{
    int annotated = RT_LOAD(dl_rt.annotated);
    if (!annotated)
        return ACCESS_PASS;
    if (annotated < 0)
        return ACCESS_LOCKED;
    int found = probe_buffer(mem, b);
    if (!found)
        return RT_LOAD(dl_rt.untracked_subs) ? ACCESS_LOCKED : ACCESS_PASS;
    if (found < 0 || !blocking || !*b)
        return ACCESS_LOCKED;
    __atomic_add_fetch(&(*b)->host_busy, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&(*b)->ever_converted, __ATOMIC_SEQ_CST))
        return ACCESS_COUNTED;
    __atomic_sub_fetch(&(*b)->host_busy, 1, __ATOMIC_RELEASE);
    return ACCESS_LOCKED;
}

static inline void counted_done(access_path path, rt_buffer *b)
{
    if (path == ACCESS_COUNTED)
        __atomic_sub_fetch(&b->host_busy, 1, __ATOMIC_RELEASE);
}

/* The wrappers themselves, one slow path and one fast path per ACCESS entry
 * of interpose/entries.def, generated from it by interpose/gen_entries.py. */
#include "rt_access_entries.inc"
