/* rt_memo.h - the launch memo: a launch with the same inputs as its
 * kernel's last one, with nothing changed since, goes straight to the
 * real call (no lock, no allocation, no event).  rt_internal.h says how
 * the memos' key_dim and the in-flight count keep it safe; rt_memo.c makes
 * the memo at the end of a launch, rt_launch.c's entry points use it. */
#ifndef DL_RT_MEMO_H
#define DL_RT_MEMO_H

#include "rt_internal.h"

/* After a launch of a transformed kernel (locked): adds the old memo's
 * launches to the stats, then remembers this launch's inputs and the
 * variant `run` it launched, for `hits` memo launches (0: none), and
 * marks its buffers used on this queue, since the memo's launches leave
 * no events.  Not with sub-buffers (their parents' conversions must see
 * their uses). */
void rt_memo_make(rt_kernel *k, cl_command_queue queue, int task,
                  cl_uint work_dim, const size_t *offset, const size_t *global,
                  const size_t *local, cl_kernel run, int hits);

/* Ends the memo of a kernel entry that is out of the table (locked), so
 * that rt_memos_invalidate() would not see it, and waits for its claims
 * under way. */
void rt_memo_end(rt_memo *m);

/* The clEnqueueNDRangeKernel the memo's launches on `queue` call
 * (rt_dispatch.c; locked). */
cl_api_clEnqueueNDRangeKernel rt_memo_enqueue(cl_command_queue queue);
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
#define RT_MEMO_TASK 4u
#define RT_MEMO_TILED 8u
typedef enum rt_claim {
    RT_CLAIM_RANGE,
    RT_CLAIM_ANY_RANGE,
    RT_CLAIM_TASK
} rt_claim;
static inline int
rt_memo_claim(rt_kernel *k, cl_command_queue queue, rt_claim claim,
              cl_uint work_dim, const size_t *offset, const size_t *global,
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

#endif
