/* rt_lock.c - the runtime's lock, and forgetting buffers: each holding of
 * the lock first drops the entries of the buffers OpenCL destroyed
 * meanwhile, from the buffer table and from the kernels' argument
 * records.  Above rt_buffers.c and rt_kernels.c, which never take the
 * lock themselves. */
#include "rt_hg.h"
#include "rt_internal.h"
#include "rt_reorder.h"

#include <stdlib.h>

void rt_forget_buffer(rt_buffer *b)
{
    cl_mem mem = b->mem;
    rt_reorder_forget(b);
    rt_buffer_drop(b);
    rt_kernels_forget_buffer(mem);
}

static void drain_destroyed(void)
{
    rt_destroyed *d = rt_buffers_take_destroyed();
    /* All marked first: dropping one must not touch another that went
     * (the other buffer of a permutation pair, rt_permute.h). */
    for (rt_destroyed *m = d; m; m = m->next) {
        RT_HG_ACQUIRE(m);
        rt_buffer *b = rt_buffer_find(m->mem);
        if (b)
            b->gone = 1;
    }
    while (d) {
        RT_HG_ACQUIRE(d);
        rt_destroyed *next = d->next;
        rt_buffer *b = rt_buffer_find(d->mem);
        if (b)
            rt_forget_buffer(b);
        free(d);
        d = next;
    }
}

void rt_lock(void)
{
    pthread_mutex_lock(&dl_rt.lock);
    dl_cl_lock_enter(); /* no blocking call until rt_unlock (clapi.h) */
    dl_rt.memos_invalidated = 0;
    drain_destroyed();
}

void rt_unlock(void)
{
    dl_cl_lock_leave();
    pthread_mutex_unlock(&dl_rt.lock);
}
