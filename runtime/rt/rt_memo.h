/* rt_memo.h - the launch memo: a launch with the same inputs as its
 * kernel's last one, with nothing changed since, goes straight to the
 * real call (no lock, no allocation; the event of its last launch kept for
 * the next conversion, see rt_memo_call_end).  rt_internal.h says how
 * the memos' key_dim and the in-flight count keep it safe; rt_memo.c makes
 * the memo at the end of a launch, rt_launch.c's entry points use it. */
#ifndef DL_RT_MEMO_H
#define DL_RT_MEMO_H

#include "rt_internal.h"

#include <sched.h>

/* After a launch of a transformed kernel (locked): adds the old memo's
 * launches to the stats, then remembers this launch's inputs and the
 * variant `run` it launched, for `hits` memo launches (0: none), and
 * the buffers its launches use (rt_memo_harvest), first those whose
 * versions they move on (rt_memo_call_begin).  Not with sub-buffers
 * (their parents' conversions must see their uses), nor on an
 * out-of-order queue, where the last launch is not the last to end. */
void rt_memo_make(rt_kernel *k, cl_command_queue queue, int task,
                  cl_uint work_dim, const size_t *offset, const size_t *global,
                  const size_t *local, cl_kernel run, int hits);

/* Ends the memo of a kernel entry that is out of the table (locked), so
 * that rt_memos_invalidate() would not see it, and waits for its claims
 * under way. */
void rt_memo_end(rt_memo *m);

/* The clEnqueueNDRangeKernel the memo's launches on `queue` call
 * (rt_dispatch.c; locked), and the clRetainEvent and clReleaseEvent they
 * call for their events. */
cl_api_clEnqueueNDRangeKernel rt_memo_enqueue(cl_command_queue queue);
void rt_memo_event_calls(cl_command_queue queue, cl_api_clRetainEvent *retain,
                         cl_api_clReleaseEvent *release);
/* Test support: decide again, at the next rt_memo_enqueue(), whether the
 * loader may be skipped (the controls or OPENCL_LAYERS changed). */
void rt_memo_enqueue_reset(void);

/* The memo's fast path, in the launch entry points before anything else:
 * a launch with the inputs of its kernel's memo, no change of the state
 * since, and budget left.  Then the same decision holds and nothing needs
 * converting: returns 1 (budget taken, counted in `inflight`: the caller
 * makes the real call with k->memo, then rt_memo_done()).  Otherwise 0.
 *
 * Every launch that repeats itself pays this, so it is written for short
 * code: one test per input and no call (tests/shim/overhead.sh counts
 * it).  key_dim is read first: rt_memo_make zeroes it and waits for the
 * claims under way before it rewrites the memo, and sets it last, so a
 * claim that then sees it sees the whole new memo.  clSetKernelArg and
 * rt_memos_invalidate() zero it too.  A NULL offset is the zero offset,
 * as in OpenCL; a NULL local size is kept as 0, which no valid local size
 * is (local sizes of 0 match it: the real call still rejects them, unless
 * the memo tiled the range and passes its own).
 *
 * A memo's key_dim is the launch's work_dim, RT_MEMO_TASK for
 * clEnqueueTask, and has RT_MEMO_TILED added when the launch runs a range
 * rt_reshape.h tiled: RT_CLAIM_RANGE (the shortest path, which passes the
 * caller's range on) does not serve those, RT_CLAIM_ANY_RANGE does.  The
 * budget goes below 0 when spent, so that concurrent launches cannot take
 * more than it held.  The stats count its launches from the budget spent
 * (rt_memo_count). */
#define RT_MEMO_TASK  4u
#define RT_MEMO_TILED 8u
typedef enum rt_claim {
    RT_CLAIM_RANGE,
    RT_CLAIM_ANY_RANGE,
    RT_CLAIM_TASK
} rt_claim;
static inline int rt_memo_claim(rt_kernel *k, cl_command_queue queue,
                                rt_claim claim, cl_uint work_dim,
                                const size_t *offset, const size_t *global,
                                const size_t *local)
{
    rt_memo *m = &k->memo;
    __atomic_add_fetch(&dl_rt.inflight, 1, __ATOMIC_SEQ_CST);
    cl_uint memo_dim = __atomic_load_n(&m->key_dim, __ATOMIC_SEQ_CST);
    if (claim == RT_CLAIM_ANY_RANGE)
        memo_dim &= ~RT_MEMO_TILED;
    if (memo_dim != (claim == RT_CLAIM_TASK ? RT_MEMO_TASK : work_dim) ||
        m->queue != queue)
        goto miss;
    /* work_dim 0 is invalid, and the key_dim of an ended memo. */
    if (claim != RT_CLAIM_TASK && !work_dim)
        goto miss;
    for (cl_uint d = 0; claim != RT_CLAIM_TASK;)
        if (m->global[d] != global[d] ||
            (local ? local[d] : 0) != m->local[d] ||
            (offset ? offset[d] : 0) != m->offset[d])
            goto miss;
        else if (++d == work_dim)
            break;
    if (__atomic_sub_fetch(&m->hits_left, 1, __ATOMIC_RELAXED) < 0)
        goto miss;
    return 1;
miss:
    __atomic_sub_fetch(&dl_rt.inflight, 1, __ATOMIC_RELEASE);
    return 0;
}

/* The launches the memo served since it was made, with `left` of its
 * budget left. */
static inline unsigned rt_memo_served_of(const rt_memo *m, int left)
{
    return (unsigned)(m->hits_given - (left > 0 ? left : 0));
}

static inline unsigned rt_memo_served(const rt_memo *m)
{
    return rt_memo_served_of(m,
                             __atomic_load_n(&m->hits_left, __ATOMIC_RELAXED));
}

/* Adds the memo's launches to `launches` and `plain_launches` of `s`
 * (which are dl_rt.stats when it retires the memo). */
void rt_memo_count(const rt_memo *m, rt_stats *s);

/* The real call of a claimed memo has been made. */
static inline void rt_memo_done(void)
{
    __atomic_sub_fetch(&dl_rt.inflight, 1, __ATOMIC_RELEASE);
}

/* Around the real call of a claimed memo: rt_memo_call_begin returns
 * the event pointer to pass (the caller's, or *own), rt_memo_call_end
 * keeps the launch's event as the memo's last one and calls
 * rt_memo_done().  No launch of the memo's may come between the two
 * (busy), so that `last` is the launch enqueued last. */
static inline cl_event *rt_memo_call_begin(rt_memo *m, cl_event *event,
                                           cl_event *own)
{
    while (__atomic_exchange_n(&m->busy, 1, __ATOMIC_ACQUIRE))
        sched_yield();
    /* Before the real call: a gather that follows the launch sees its
     * write (rt_reorder.h). */
    for (cl_uint i = 0; i < m->nwritten; i++)
        RT_ADD(m->bufs[i]->version, 1);
    *own = NULL;
    return event ? event : own;
}

static inline void rt_memo_call_end(rt_memo *m, cl_int err, cl_event *event,
                                    cl_event own)
{
    cl_event ev = err != CL_SUCCESS ? NULL : event ? *event : own;
    if (ev && event)
        m->retain(ev);
    cl_event old =
        ev ? __atomic_exchange_n(&m->last, ev, __ATOMIC_ACQ_REL) : NULL;
    __atomic_store_n(&m->busy, 0, __ATOMIC_RELEASE);
    if (old)
        m->release(old);
    rt_memo_done();
}

/* Locked, with the memo ended and no claim under way: its buffers get
 * its last launch as a use, and it keeps no buffer. */
void rt_memo_harvest(rt_memo *m);

#endif
