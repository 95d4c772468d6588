/* rt_renumber_vertices.c - the vertex buffers of a renumbered graph loop
 * (rt_renumber.h): each permuted in place by pi's plan (the permutation
 * layout's cycle-following kernels) at a renumbered launch, and restored
 * alone by pi^-1's before any other use; the renumbered copies and both
 * plans put on the device at the first. */
#include "clock.h"
#include "rt_renumber.h"
#include "rt_reorder.h"

/* Locked: b may be converted from now on (rt_access.c's fast path), or
 * gives way to a host access under way. */
static int claim(rt_buffer *b)
{
    __atomic_store_n(&b->ever_converted, 1, __ATOMIC_SEQ_CST);
    return !__atomic_load_n(&b->host_busy, __ATOMIC_SEQ_CST);
}

/* Locked: b moved by `plan` on the device after `wait` and its uses; the
 * event goes to `done` and is b's last conversion. */
static dl_status move(rt_buffer *b, const dl_perm_device *plan,
                      cl_command_queue queue, cl_uint nwait,
                      const cl_event *wait, rt_events *done)
{
    dl_engine *engine = NULL;
    DL_RETURN_IF_FAIL(rt_context_engine(queue, &engine));
    rt_memos_invalidate();
    rt_events all = {0};
    cl_event ev = NULL;
    rt_buffer_conversion_waits(b, nwait, wait, &all);
    uint64_t t0 = dl_now_ns();
    dl_status st = all.failed ? dl_fail(DL_OUT_OF_MEMORY, "out of memory")
                              : dl_enqueue_permute(engine, queue, b->mem, plan,
                                                   all.n, all.ev, &ev);
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    rt_events_free(&all);
    if (st != DL_SUCCESS)
        return st;
    rt_buffer_converted(b, queue, ev);
    rt_buffer_wrote(b); /* a reordered copy of it is stale */
    rt_events_push(done, ev);
    dl_cl.clReleaseEvent(ev);
    return DL_SUCCESS;
}

/* Locked: b's state follows a move. */
static void set_renum(rt_buffer *b, rt_renum *r, cl_command_queue queue)
{
    if (r) {
        if (!r->applied++) {
            dl_cl.clRetainCommandQueue(queue);
            r->queue = queue;
        }
        r->refs++;
        b->renum = r;
        RT_ADD(dl_rt.transformed, 1);
        return;
    }
    r = b->renum;
    b->renum = NULL;
    RT_ADD(dl_rt.transformed, -1);
    if (!--r->applied) {
        dl_cl.clReleaseCommandQueue(r->queue);
        r->queue = NULL;
    }
    rt_renumber_unref(r);
}

dl_status rt_renumber_restore(rt_buffer *b, cl_command_queue queue,
                              cl_uint nwait, const cl_event *wait,
                              rt_events *done)
{
    if (!b->renum)
        return DL_SUCCESS;
    dl_status st = move(b, &b->renum->dev_back, queue, nwait, wait, done);
    if (st != DL_SUCCESS) {
        /* Still permuted: a later access tries again. */
        DL_LOG_ERROR("restoring a renumbered vertex array failed: %s",
                     dl_last_error());
        return st;
    }
    set_renum(b, NULL, NULL);
    return DL_SUCCESS;
}

void rt_renumber_forget(rt_buffer *b, int gone)
{
    if (!b->renum)
        return;
    rt_events done = {0};
    if (!gone)
        rt_renumber_restore(b, b->renum->queue, 0, NULL, &done);
    rt_events_free(&done);
    if (b->renum)
        set_renum(b, NULL, NULL);
}

dl_status rt_renumber_upload(rt_renum *r)
{
    cl_int err = CL_SUCCESS;
    const cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    size_t nnz = r->nnz ? r->nnz : 1;
    r->dev_rowptr = dl_cl.clCreateBuffer(r->context, ro, (r->n + 1) * 4,
                                         r->new_rowptr, &err);
    if (err == CL_SUCCESS)
        r->dev_col =
            dl_cl.clCreateBuffer(r->context, ro, nnz * 4, r->new_col, &err);
    for (uint32_t i = 0; i < r->nedge && err == CL_SUCCESS; i++)
        r->dev_edge[i] = dl_cl.clCreateBuffer(
            r->context, ro, nnz * r->edge_elem[i], r->new_edge[i], &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (renumbered graph)");
    DL_RETURN_IF_FAIL(dl_perm_device_create(r->context, &r->forward, r->elem,
                                            &r->dev_forward));
    DL_RETURN_IF_FAIL(
        dl_perm_device_create(r->context, &r->back, r->elem, &r->dev_back));
    free(r->new_rowptr); /* on the device now */
    free(r->new_col);
    r->new_rowptr = r->new_col = NULL;
    for (uint32_t i = 0; i < r->nedge; i++) {
        free(r->new_edge[i]);
        r->new_edge[i] = NULL;
    }
    dl_perm_plan_free(&r->forward);
    dl_perm_plan_free(&r->back);
    r->state = RT_RENUM_ON_DEVICE;
    return DL_SUCCESS;
}

int rt_renumber_permute(rt_renum *r, const cl_mem *vertex, uint32_t n,
                        cl_command_queue queue, cl_uint nwait,
                        const cl_event *wait, rt_events *done)
{
    for (uint32_t i = 0; i < n; i++) {
        rt_buffer *b = rt_buffer_find(vertex[i]);
        if (!b || !claim(b))
            return 0; /* a host access under way: as written this time */
        if (b->renum == r)
            continue;
        if (rt_renumber_restore(b, queue, nwait, wait, done) != DL_SUCCESS ||
            move(b, &r->dev_forward, queue, nwait, wait, done) != DL_SUCCESS)
            return 0;
        set_renum(b, r, queue);
    }
    return 1;
}
