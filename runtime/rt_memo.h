/* rt_memo.h - the launch memo: a launch with the same inputs as its
 * kernel's last one, with nothing changed since, goes straight to the
 * real call (no lock, no allocation, no event).  rt_internal.h says how
 * the lock's epoch and the in-flight count keep it safe; rt_memo.c makes
 * the memo at the end of a launch. */
#ifndef DL_RT_MEMO_H
#define DL_RT_MEMO_H

#include "rt_internal.h"

/* After a launch of a transformed kernel (locked): remembers its inputs
 * and the variant `run` it launched, for `hits` memo launches (0: none),
 * and marks its buffers used on this queue, since the memo's launches
 * leave no events.  Not with sub-buffers (their parents' conversions must
 * see their uses). */
void rt_memo_make(rt_kernel *k, cl_command_queue queue, int task,
                  cl_uint work_dim, const size_t *offset, const size_t *global,
                  const size_t *local, cl_kernel run, unsigned hits);

/* Whether a launch has the inputs of the kernel's memo. */
static inline int rt_memo_matches(const rt_kernel *k, cl_command_queue queue,
                                  cl_uint work_dim, const size_t *offset,
                                  const size_t *global, const size_t *local)
{
    const rt_memo *m = &k->memo;
    if (m->args_gen != k->args_gen || m->queue != queue ||
        m->work_dim != work_dim || m->match_offset != (offset != NULL) ||
        m->match_local != (local != NULL))
        return 0;
    for (cl_uint d = 0; d < work_dim; d++)
        if (m->global[d] != global[d] ||
            (offset && m->offset[d] != offset[d]) ||
            (local && m->local[d] != local[d]))
            return 0;
    return 1;
}

/* The memo's fast path, in the entry points before anything else: the
 * same inputs as the kernel's last launch and no change of the state
 * since, so the same decision holds and nothing needs converting.
 * Returns 0 when it does not apply.  work_dim 0: a task. */
static inline int rt_memo_launch(cl_command_queue queue, cl_kernel kernel,
                                 cl_uint work_dim, const size_t *offset,
                                 const size_t *global, const size_t *local,
                                 cl_uint nwait, const cl_event *wait,
                                 cl_event *event, cl_int *err)
{
    rt_kernel *k = __atomic_load_n(&rt_last_kernel, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&k->kernel, __ATOMIC_ACQUIRE) != kernel ||
        !__atomic_load_n(&k->memo.epoch, __ATOMIC_ACQUIRE))
        return 0;
    __atomic_add_fetch(&dl_rt.inflight, 1, __ATOMIC_SEQ_CST);
    rt_memo *m = &k->memo;
    int hit = __atomic_load_n(&dl_rt.epoch, __ATOMIC_SEQ_CST) ==
                  __atomic_load_n(&m->epoch, __ATOMIC_ACQUIRE) &&
              m->hits_left &&
              rt_memo_matches(k, queue, work_dim, offset, global, local);
    if (hit) {
        m->hits_left--; /* racy between threads: only a budget */
        if (m->run_kernel == kernel) /* the plain variant, decided */
            RT_ADD(dl_rt.stats.plain_launches, 1);
        if (!work_dim)
            *err = dl_cl.clEnqueueTask(queue, m->run_kernel, nwait, wait,
                                       event);
        else
            *err = dl_cl.clEnqueueNDRangeKernel(
                queue, m->run_kernel, m->run_dim,
                m->has_offset ? m->run_offset : NULL, m->run_global,
                m->has_local ? m->run_local : NULL, nwait, wait, event);
    }
    __atomic_sub_fetch(&dl_rt.inflight, 1, __ATOMIC_RELEASE);
    return hit;
}

#endif
