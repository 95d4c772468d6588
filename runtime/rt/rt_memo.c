/* rt_memo.c - making and ending the launch memos (rt_memo.h). */
#include "rt_memo.h"
#include "rt_reorder.h"
#include "rt_reshape.h"

#include <sched.h>
#include <stdlib.h>

/* Waits for the memo launches under way. */
static void memos_wait(void)
{
    while (__atomic_load_n(&dl_rt.inflight, __ATOMIC_SEQ_CST))
        sched_yield();
}

void rt_memo_harvest(rt_memo *m)
{
    cl_event last = __atomic_exchange_n(&m->last, NULL, __ATOMIC_ACQUIRE);
    if (last) {
        for (cl_uint i = 0; i < m->nbufs; i++)
            rt_buffer_used(m->bufs[i], m->queue, last);
        m->release(last);
    }
    m->nbufs = m->nwritten = 0;
}

void rt_memo_end(rt_memo *m)
{
    __atomic_store_n(&m->key_dim, 0, __ATOMIC_SEQ_CST);
    memos_wait();
    rt_memo_harvest(m);
}

void rt_memos_invalidate(void)
{
    if (dl_rt.memos_invalidated)
        return;
    dl_rt.memos_invalidated = 1;
    /* The launches that saw a flag set finish their real call first. */
    rt_kernel *k;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.kernels); i++)
        if ((k = rt_map_at(&dl_rt.kernels, i)))
            __atomic_store_n(&k->memo.key_dim, 0, __ATOMIC_SEQ_CST);
    memos_wait();
    /* The change (a conversion, say) waits for the memos' launches. */
    for (size_t i = 0; i < rt_map_cap(&dl_rt.kernels); i++)
        if ((k = rt_map_at(&dl_rt.kernels, i)))
            rt_memo_harvest(&k->memo);
}

static int out_of_order(cl_command_queue queue)
{
    cl_command_queue_properties props = 0;
    return dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                       &props, NULL) != CL_SUCCESS ||
           (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

static void count_served(const rt_memo *m, unsigned served, rt_stats *s)
{
    RT_ADD(s->launches, served);
    if (m->plain)
        RT_ADD(s->plain_launches, served);
}

void rt_memo_count(const rt_memo *m, rt_stats *s)
{
    count_served(m, rt_memo_served(m), s);
}

void rt_memo_make(rt_kernel *k, cl_command_queue queue, int task,
                  cl_uint work_dim, const size_t *offset, const size_t *global,
                  const size_t *local, cl_kernel run, int hits)
{
    rt_memo *m = &k->memo;
    /* Unusable while it changes: no key_dim, then no claim of the old
     * one under way (rt_memo_claim reads key_dim first).  The old one's
     * launches go to the stats. */
    __atomic_store_n(&m->key_dim, 0, __ATOMIC_SEQ_CST);
    int left = __atomic_exchange_n(&m->hits_left, 0, __ATOMIC_SEQ_CST);
    count_served(m, rt_memo_served_of(m, left), &dl_rt.stats);
    m->hits_given = 0;
    memos_wait();
    rt_memo_harvest(m);
    if (rt_hg_active || work_dim > 3 || hits <= 0 || out_of_order(queue))
        return;
    /* The buffers bound to the kernel that the table knows. */
    rt_buffer **bufs =
        realloc(m->bufs, (k->nargs ? k->nargs : 1) * sizeof *bufs);
    if (!bufs)
        return;
    m->bufs = bufs;
    cl_uint nbufs = 0, nwritten = 0;
    for (cl_uint i = 0; i < k->nargs; i++) {
        const rt_arg *a = &k->args[i];
        cl_mem mem = a->size == sizeof mem && a->value
                         ? *(const cl_mem *)a->value
                         : NULL;
        rt_buffer *b = mem ? rt_buffer_find(mem) : NULL;
        if (!b)
            continue;
        if (b->parent || b->nsubs)
            return;
        bufs[nbufs++] = b;
        if (rt_reorder_writes_gathered(k, i, b)) { /* to the front */
            bufs[nbufs - 1] = bufs[nwritten];
            bufs[nwritten++] = b;
        }
    }
    m->nbufs = nbufs;
    m->nwritten = nwritten;
    rt_memo_event_calls(queue, &m->retain, &m->release);
    m->run_kernel = run;
    m->enqueue = rt_memo_enqueue(queue);
    m->plain = run == k->kernel;
    m->queue = queue;
    for (cl_uint d = 0; !task && d < work_dim; d++) {
        m->global[d] = global[d];
        m->offset[d] = offset ? offset[d] : 0;
        m->local[d] = local ? local[d] : 0;
    }
    m->run_dim = 0;
    cl_uint key_dim = task ? RT_MEMO_TASK : work_dim;
    rt_reshaped shape; /* the range the real call gets, as real_launch */
    if (run == k->xform && !task && work_dim == 1 &&
        rt_reshape_launch(k, work_dim, offset, global, local, &shape) > 0) {
        m->run_dim = 2;
        key_dim |= RT_MEMO_TILED;
        m->run_local = shape.has_local ? m->run_local_size : NULL;
        for (int d = 0; d < 2; d++) {
            m->run_global[d] = shape.global[d];
            m->run_offset[d] = shape.offset[d];
            m->run_local_size[d] = shape.local[d];
        }
    }
    __atomic_store_n(&m->key_dim, key_dim, __ATOMIC_RELEASE);
    /* A change later in this holding of the lock must end it again. */
    dl_rt.memos_invalidated = 0;
    /* Last: the budget makes the memo usable. */
    __atomic_store_n(&m->hits_left, hits, __ATOMIC_RELEASE);
    m->hits_given = hits;
}
