/* rt_buffers.c - the state of every buffer dlayout has touched: its
 * current layout, the host's layout, its parent (sub-buffers), the
 * commands that used it since its last conversion, and the conversions
 * themselves (DL paper section 5.2, the buffer tuple). */
#include "internal.h"
#include "clock.h"
#include "rt_hg.h"
#include "rt_internal.h"
#include "rt_permute.h"
#include "rt_renumber.h"
#include "rt_reorder.h"

#include <stdlib.h>
#include <time.h>

/* --------------------------------------------------------------- layouts */

static int record_equal(const dl_record *a, const dl_record *b)
{
    if (a == b)
        return 1;
    if (!a || !b || dl_record_size(a) != dl_record_size(b) ||
        dl_record_nfields(a) != dl_record_nfields(b))
        return 0;
    for (uint32_t i = 0; i < dl_record_nfields(a); i++) {
        dl_field fa = dl_record_field(a, i), fb = dl_record_field(b, i);
        if (fa.offset != fb.offset || fa.size != fb.size)
            return 0;
    }
    return 1;
}

dl_layout rt_layout_dl(const rt_layout *l)
{
    dl_layout d = {l->rec, l->count, l->tile, l->stride};
    return d;
}

int rt_layout_equal(const rt_layout *a, const rt_layout *b)
{
    if (!record_equal(a->rec, b->rec) || a->count != b->count)
        return 0;
    dl_layout da = rt_layout_dl(a), db = rt_layout_dl(b);
    return dl_layout_tile(&da) == dl_layout_tile(&db) &&
           dl_layout_span(&da) == dl_layout_span(&db);
}

void rt_layout_set(rt_layout *dst, const rt_layout *src)
{
    if (src->rec)
        dl_record_retain(src->rec);
    rt_layout_clear(dst);
    *dst = *src;
}

void rt_layout_clear(rt_layout *l)
{
    if (l->rec)
        dl_record_release(l->rec);
    *l = (rt_layout){0};
}

/* ---------------------------------------------------------------- events */

void rt_events_push(rt_events *e, cl_event ev)
{
    if (!ev)
        return;
    if (e->n == e->cap) {
        cl_uint cap = e->cap ? e->cap * 2 : 8;
        cl_event *g = realloc(e->ev, cap * sizeof *g);
        if (!g) {
            e->failed = 1;
            return;
        }
        e->ev = g;
        e->cap = cap;
    }
    dl_cl.clRetainEvent(ev);
    e->ev[e->n++] = ev;
}

void rt_events_push_once(rt_events *e, cl_event ev)
{
    for (cl_uint i = 0; i < e->n; i++)
        if (e->ev[i] == ev)
            return;
    rt_events_push(e, ev);
}

/* Whether the command of `ev` is over (complete or failed): it then
 * orders nothing any more.  Asks, never waits. */
static int event_over(cl_event ev)
{
    cl_int status = CL_QUEUED;
    return dl_cl.clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof status, &status, NULL) == CL_SUCCESS &&
           status <= CL_COMPLETE;
}

/* Drops the events whose commands are over. */
static void events_prune(rt_events *e)
{
    cl_uint kept = 0;
    for (cl_uint i = 0; i < e->n; i++)
        if (event_over(e->ev[i]))
            dl_cl.clReleaseEvent(e->ev[i]);
        else
            e->ev[kept++] = e->ev[i];
    e->n = kept;
}

void rt_events_free(rt_events *e)
{
    for (cl_uint i = 0; i < e->n; i++)
        dl_cl.clReleaseEvent(e->ev[i]);
    free(e->ev);
    *e = (rt_events){0};
}

const cl_event *rt_events_join(rt_events *joined, cl_uint nwait,
                               const cl_event *wait, const rt_events *extra,
                               cl_uint *n)
{
    *n = nwait;
    if (!extra || !extra->n)
        return wait;
    for (cl_uint i = 0; i < nwait; i++)
        rt_events_push(joined, wait[i]);
    for (cl_uint i = 0; i < extra->n; i++)
        rt_events_push(joined, extra->ev[i]);
    *n = joined->n;
    return joined->ev;
}

int rt_fault_conversions;

/* ---------------------------------------------------------------- table */

rt_buffer *rt_buffer_find(cl_mem mem)
{
    return rt_map_get(&dl_rt.buffers, mem);
}

static void CL_CALLBACK on_destroyed(cl_mem mem, void *user);

rt_buffer *rt_buffer_get(cl_mem mem)
{
    rt_buffer *b = rt_buffer_find(mem);
    if (b || !mem)
        return b;
    size_t size = 0;
    cl_context ctx = NULL;
    cl_mem parent = NULL;
    cl_mem_object_type type = 0;
    cl_mem_flags flags = 0;
    if (dl_cl.clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) !=
            CL_SUCCESS ||
        type != CL_MEM_OBJECT_BUFFER ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_FLAGS, sizeof flags, &flags,
                                 NULL) != CL_SUCCESS ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) !=
            CL_SUCCESS ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL) !=
            CL_SUCCESS ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT,
                                 sizeof parent, &parent, NULL) != CL_SUCCESS)
        return NULL; /* not a buffer: nothing to track */
    b = calloc(1, sizeof *b);
    if (!b) {
        DL_LOG_ERROR("out of memory tracking a buffer");
        return NULL;
    }
    b->mem = mem;
    b->size = size;
    b->context = ctx;
    b->parent = parent;
    b->closed = rt_context_closed(ctx);
    /* A sub-buffer's accesses always take the locked path, which
     * restores its parent (rt_access.c). */
    b->ever_converted = parent != NULL;
    /* The host may read its own array at any synchronisation point
     * (clFinish, an event), which dlayout does not intercept: such a
     * buffer is never transformed (docs/intercepted.md). */
    if (flags & CL_MEM_USE_HOST_PTR)
        b->pinned = "it was created with CL_MEM_USE_HOST_PTR";
    /* Published complete: the accesses' lock-free lookups read
     * ever_converted as soon as the entry is in the table. */
    if (rt_map_put(&dl_rt.buffers, mem, b) != DL_SUCCESS) {
        free(b);
        DL_LOG_ERROR("out of memory tracking a buffer");
        return NULL;
    }
    if (b->pinned)
        DL_LOG_INFO("a buffer stays in the program's layout: %s", b->pinned);
    /* The state goes when the object does: its last release may come
     * from anywhere (clRetainMemObject is not hooked, sub-buffers keep
     * their parent, commands keep their buffers). */
    if (dl_cl.clSetMemObjectDestructorCallback(mem, on_destroyed, NULL) !=
        CL_SUCCESS)
        DL_LOG_WARN("cannot watch a buffer's destruction; its state is kept "
                    "until a new buffer reuses the handle");
    if (parent) {
        rt_buffer *p = rt_buffer_get(parent);
        if (p)
            p->nsubs++;
    }
    return b;
}

static void forget_uses(rt_buffer *b)
{
    rt_events_free(&b->uses);
}

/* No marker or wait here: a marker on an in-order queue would also wait
 * for the commands enqueued before it, some of which the host may hold
 * back (a user event) until this buffer is used elsewhere. */
void rt_buffer_used(rt_buffer *b, cl_command_queue queue, cl_event event)
{
    (void)queue;
    if (!event || b->closed) /* no conversion to order any more */
        return;
    if (b->uses.n >= RT_MAX_USES)
        events_prune(&b->uses);
    rt_events_push(&b->uses, event);
    /* The parent's next conversion moves the sub-buffer's bytes too. */
    rt_buffer *p = b->parent ? rt_buffer_find(b->parent) : NULL;
    if (p) {
        if (p->uses.n >= RT_MAX_USES)
            events_prune(&p->uses);
        rt_events_push(&p->uses, event);
    }
}

static void forget_converted(rt_buffer *b)
{
    if (b->converted) {
        dl_cl.clReleaseEvent(b->converted);
        dl_cl.clReleaseCommandQueue(b->converted_on);
    }
    b->converted = NULL;
    b->converted_on = NULL;
}

/* A conversion of b was enqueued with event `ev`: the next conversion
 * comes after it, and so does every command that touches b.  The queue
 * is flushed, since commands on other queues may wait for it. */
static void converted(rt_buffer *b, cl_command_queue queue, cl_event ev)
{
    forget_uses(b);
    rt_events_push(&b->uses, ev);
    forget_converted(b);
    cl_command_queue_properties props = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                &props, NULL);
    dl_cl.clRetainEvent(ev);
    dl_cl.clRetainCommandQueue(queue);
    b->converted = ev;
    b->converted_on = queue;
    b->converted_in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    dl_cl.clFlush(queue);
}

static void order_one(rt_buffer *b, cl_command_queue queue, rt_events *wait)
{
    if (!b->converted || (queue == b->converted_on && b->converted_in_order))
        return;
    if (event_over(b->converted))
        forget_converted(b);
    else
        rt_events_push_once(wait, b->converted);
}

void rt_buffer_order(rt_buffer *b, cl_command_queue queue, rt_events *wait)
{
    rt_buffer *p = b->parent ? rt_buffer_find(b->parent) : NULL;
    if (p)
        order_one(p, queue, wait);
    order_one(b, queue, wait);
}

static void set_transformed(rt_buffer *b, int transformed,
                            cl_command_queue queue)
{
    if (b->transformed == transformed)
        return;
    rt_memos_invalidate();
    b->transformed = transformed;
    if (transformed) {
        dl_cl.clRetainCommandQueue(queue);
        b->queue = queue;
        RT_ADD(dl_rt.transformed, 1);
    } else {
        if (b->queue)
            dl_cl.clReleaseCommandQueue(b->queue);
        b->queue = NULL;
        rt_layout_clear(&b->orig);
        rt_layout_clear(&b->cur);
        RT_ADD(dl_rt.transformed, -1);
    }
}

/* What a conversion of b waits for: the caller's wait list and the
 * buffer's uses since its last conversion. */
static void conversion_waits(const rt_buffer *b, cl_uint nwait,
                             const cl_event *wait, rt_events *all)
{
    for (cl_uint i = 0; i < nwait; i++)
        rt_events_push(all, wait[i]);
    for (cl_uint i = 0; i < b->uses.n; i++)
        rt_events_push(all, b->uses.ev[i]);
}

void rt_buffer_conversion_waits(const rt_buffer *b, cl_uint nwait,
                                const cl_event *wait, rt_events *all)
{
    conversion_waits(b, nwait, wait, all);
}

void rt_buffer_converted(rt_buffer *b, cl_command_queue queue, cl_event ev)
{
    converted(b, queue, ev);
}

/* The algorithm of a conversion: DL_ALGO, or the automatic one where
 * DL_ALGO can perform no step of it (dl_plan_create would refuse it). */
static dl_algo conversion_algo(dl_engine *engine, const dl_layout *from,
                               const dl_layout *to)
{
    dl_algo algo = (dl_algo)dl_rt.controls.algo;
    if (algo != DL_ALGO_AUTO && !dl_plan_algo_applies(engine, from, to, algo))
        return DL_ALGO_AUTO;
    return algo;
}

/* One in-place conversion after the wait list and the buffer's uses. */
static dl_status convert(rt_buffer *b, cl_command_queue queue,
                         const rt_layout *from, const rt_layout *to,
                         cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (RT_LOAD(rt_fault_conversions) > 0) {
        RT_ADD(rt_fault_conversions, -1);
        return dl_fail(DL_UNSUPPORTED, "conversion failed (injected)");
    }
    /* Blocking reads and writes of a buffer never converted go without
     * the lock (rt_access.c): its first conversion closes that path, or
     * gives way to an access under way (the launch then runs plain), so
     * that neither overtakes the other. */
    if (!b->ever_converted) {
        __atomic_store_n(&b->ever_converted, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&b->host_busy, __ATOMIC_SEQ_CST)) {
            __atomic_store_n(&b->ever_converted, 0, __ATOMIC_RELEASE);
            return dl_fail(DL_UNSUPPORTED, "another thread is reading or "
                                           "writing the buffer");
        }
    }
    rt_memos_invalidate();
    dl_engine *engine = NULL;
    DL_RETURN_IF_FAIL(rt_context_engine(queue, &engine));
    rt_events all = {0};
    conversion_waits(b, nwait, wait, &all);
    if (all.failed) {
        rt_events_free(&all);
        return dl_fail(DL_OUT_OF_MEMORY, "out of memory");
    }
    dl_layout f = rt_layout_dl(from), t = rt_layout_dl(to);
    uint64_t t0 = dl_now_ns();
    /* Only a plan rt_conversion_prepare built before the lock: building
     * one here would block under it.  Without one the conversion is
     * declined (a launch then runs plain, and tries again next time). */
    dl_status st = dl_enqueue_convert_held(engine, queue, b->mem, &f, &t,
                                           conversion_algo(engine, &f, &t),
                                           all.n, all.ev, ev);
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    rt_events_free(&all);
    if (st != DL_SUCCESS)
        return st;
    converted(b, queue, *ev);
    RT_ADD(dl_rt.stats.bytes_marshaled, (uint64_t)dl_layout_bytes(&f));
    return DL_SUCCESS;
}

unsigned rt_conversion_builds(cl_command_queue queue, const rt_layout *from,
                              const rt_layout *to)
{
    dl_engine *engine = NULL;
    if (rt_context_engine(queue, &engine) != DL_SUCCESS)
        return 0;
    dl_layout f = rt_layout_dl(from), t = rt_layout_dl(to);
    return dl_plan_builds_needed(engine, &f, &t,
                                 conversion_algo(engine, &f, &t), 0) +
           dl_plan_builds_needed(engine, &t, &f,
                                 conversion_algo(engine, &t, &f), 1);
}

int rt_conversion_prepare(cl_command_queue queue, const rt_layout *from,
                          const rt_layout *to)
{
    dl_engine *engine = NULL;
    rt_lock();
    dl_status st = rt_context_engine(queue, &engine);
    rt_unlock();
    if (st != DL_SUCCESS)
        return 0; /* the conversion fails under the lock, and says why */
    dl_layout f = rt_layout_dl(from), t = rt_layout_dl(to);
    uint64_t t0 = dl_now_ns(); /* counted as marshal time, as if built there */
    st = dl_plan_warm(engine, &f, &t, conversion_algo(engine, &f, &t));
    if (st == DL_SUCCESS)
        st = dl_plan_warm(engine, &t, &f, conversion_algo(engine, &t, &f));
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    if (st != DL_SUCCESS)
        DL_LOG_DEBUG("a conversion's plan was not built before the lock: %s",
                     dl_last_error());
    return st == DL_SUCCESS;
}

dl_status rt_buffer_marshal(rt_buffer *b, cl_command_queue queue,
                            const rt_layout *from, const rt_layout *to,
                            cl_uint nwait, const cl_event *wait,
                            rt_events *done)
{
    cl_event ev = NULL;
    dl_status st = convert(b, queue, from, to, nwait, wait, &ev);
    if (st != DL_SUCCESS)
        return st;
    rt_events_push(done, ev);
    dl_cl.clReleaseEvent(ev);
    rt_layout_set(&b->orig, from);
    rt_layout_set(&b->cur, to);
    set_transformed(b, 1, queue);
    RT_ADD(dl_rt.stats.marshals, 1);
    return DL_SUCCESS;
}

/* The last resort when the device cannot convert (an engine or plan
 * failure): the host reference converts (rt_host_convert.c, which does
 * not block), since the data must never stay in the wrong layout. */
static dl_status restore_on_host(rt_buffer *b, cl_command_queue queue,
                                 cl_uint nwait, const cl_event *wait,
                                 cl_event *ev)
{
    rt_memos_invalidate();
    dl_layout from = rt_layout_dl(&b->cur), to = rt_layout_dl(&b->orig);
    rt_events all = {0};
    conversion_waits(b, nwait, wait, &all);
    dl_status st = all.failed ? dl_fail(DL_OUT_OF_MEMORY, "out of memory")
                              : rt_host_convert(queue, b->mem, b->context,
                                                &from, &to, all.n, all.ev, ev);
    rt_events_free(&all);
    if (st != DL_SUCCESS)
        return st;
    converted(b, queue, *ev);
    RT_ADD(dl_rt.stats.bytes_marshaled, (uint64_t)dl_layout_bytes(&from));
    return DL_SUCCESS;
}

/* The conversion back, for buffers in a transformed layout. */
static dl_status restore_one(rt_buffer *b, cl_command_queue queue,
                             cl_uint nwait, const cl_event *wait,
                             rt_events *done)
{
    if (rt_permute_applied(b))
        return rt_permute_restore(b, queue, nwait, wait, done);
    if (rt_renumber_applied(b))
        return rt_renumber_restore(b, queue, nwait, wait, done);
    if (!b->transformed)
        return DL_SUCCESS;
    cl_event ev = NULL;
    dl_status st = convert(b, queue, &b->cur, &b->orig, nwait, wait, &ev);
    if (st != DL_SUCCESS) {
        DL_LOG_ERROR("restoring a buffer to its original layout on the "
                     "device failed (%s); restoring it on the host",
                     dl_last_error());
        st = restore_on_host(b, queue, nwait, wait, &ev);
    }
    if (st != DL_SUCCESS) {
        /* The data stays transformed: keep saying so, so that a later
         * access tries again rather than using it as it is. */
        DL_LOG_ERROR("restoring a buffer to its original layout failed: %s",
                     dl_last_error());
        return st;
    }
    rt_events_push(done, ev);
    dl_cl.clReleaseEvent(ev);
    set_transformed(b, 0, NULL);
    RT_ADD(dl_rt.stats.unmarshals, 1);
    return DL_SUCCESS;
}

dl_status rt_buffer_restore(rt_buffer *b, cl_command_queue queue, cl_uint nwait,
                            const cl_event *wait, rt_events *done)
{
    dl_status st = DL_SUCCESS;
    rt_buffer *p = b->parent ? rt_buffer_find(b->parent) : NULL;
    if (p)
        st = restore_one(p, queue, nwait, wait, done);
    if (st == DL_SUCCESS)
        st = restore_one(b, queue, nwait, wait, done);
    /* Also a conversion enqueued earlier, maybe on another queue. */
    rt_buffer_order(b, queue, done);
    return st;
}

void rt_buffer_reset(rt_buffer *b)
{
    set_transformed(b, 0, NULL);
}

void rt_buffer_restore_all(cl_command_queue queue, cl_uint nwait,
                           const cl_event *wait, rt_events *done)
{
    cl_context ctx = NULL;
    if (dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx,
                                    NULL) != CL_SUCCESS)
        return;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.buffers); i++) {
        rt_buffer *b = rt_map_at(&dl_rt.buffers, i);
        if (!b || b->context != ctx)
            continue;
        restore_one(b, queue, nwait, wait, done);
        order_one(b, queue, done); /* the command may touch any */
    }
}

void rt_buffer_restore_mem(cl_mem mem, cl_command_queue queue, cl_uint nwait,
                           const cl_event *wait, rt_events *done)
{
    rt_buffer *b = rt_buffer_find(mem);
    if (b) {
        rt_buffer_restore(b, queue, nwait, wait, done);
        return;
    }
    /* An unknown sub-buffer of a transformed parent. */
    cl_mem parent = NULL;
    if (dl_cl.clGetMemObjectInfo(mem, CL_MEM_ASSOCIATED_MEMOBJECT,
                                 sizeof parent, &parent, NULL) == CL_SUCCESS &&
        parent && (b = rt_buffer_find(parent))) {
        restore_one(b, queue, nwait, wait, done);
        rt_buffer_order(b, queue, done);
    }
}

void rt_buffer_drop(rt_buffer *b)
{
    rt_memos_invalidate();
    rt_permute_forget(b, 1);
    rt_renumber_forget(b, 1);
    rt_map_del(&dl_rt.buffers, b->mem);
    if (b->parent) {
        rt_buffer *p = rt_buffer_find(b->parent);
        if (p && p->nsubs)
            p->nsubs--;
    }
    forget_uses(b);
    forget_converted(b);
    set_transformed(b, 0, NULL);
    free(b);
}

/* The program released the buffers' context (rt_contexts.c): restore
 * its transformed buffers, and let go of the events and queues their
 * entries hold, which would keep it alive.  The entries stay while the
 * program holds the buffers, in their original layout (a buffer that
 * cannot be restored keeps its queue: its data must not be lost). */
void rt_buffers_close_context(cl_context context)
{
    for (size_t i = 0; i < rt_map_cap(&dl_rt.buffers); i++) {
        rt_buffer *b = rt_map_at(&dl_rt.buffers, i);
        if (!b || b->context != context)
            continue;
        rt_reorder_forget(b);
        rt_permute_forget(b, 0);
        rt_renumber_forget(b, 0);
        rt_events done = {0};
        if (b->transformed)
            restore_one(b, b->queue, 0, NULL, &done);
        rt_events_free(&done);
        forget_uses(b);
        forget_converted(b);
        b->closed = 1;
    }
}

/* The destructor callback may run in any thread, also inside an OpenCL
 * call we make under the lock (releasing an event can free a buffer), so
 * it only pushes the handle on dl_rt.destroyed, lock-free; rt_lock()
 * drops them (rt_lock.c). */
static void CL_CALLBACK on_destroyed(cl_mem mem, void *user)
{
    (void)user;
    rt_destroyed *d = malloc(sizeof *d);
    if (!d)
        return; /* the entry stays until a new buffer reuses the handle */
    d->mem = mem;
    d->next = __atomic_load_n(&dl_rt.destroyed, __ATOMIC_RELAXED);
    /* A failed exchange rewrites d->next: publish (for helgrind) after
     * every write, right before each attempt. */
    do
        RT_HG_PUBLISH(d);
    while (!__atomic_compare_exchange_n(&dl_rt.destroyed, &d->next, d, 1,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

rt_destroyed *rt_buffers_take_destroyed(void)
{
    if (!__atomic_load_n(&dl_rt.destroyed, __ATOMIC_RELAXED))
        return NULL;
    return __atomic_exchange_n(&dl_rt.destroyed, NULL, __ATOMIC_ACQUIRE);
}
