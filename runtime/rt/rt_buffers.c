/* rt_buffers.c - the state of every buffer dlayout has touched: its
 * current layout, the host's layout, its parent (sub-buffers), the
 * commands that used it since its last conversion, and the conversions
 * themselves (DL paper section 5.2, the buffer tuple). */
#include "internal.h"
#include "clock.h"
#include "rt_hg.h"
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>
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
    dl_layout d = {l->rec, l->count, l->tile};
    return d;
}

int rt_layout_equal(const rt_layout *a, const rt_layout *b)
{
    if (!record_equal(a->rec, b->rec) || a->count != b->count)
        return 0;
    dl_layout da = rt_layout_dl(a), db = rt_layout_dl(b);
    return dl_layout_tile(&da) == dl_layout_tile(&db);
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

/* --------------------------------------------------------------- engines */

/* One engine per (context, device), kept for the life of the process. */
typedef struct rt_engine {
    cl_context context;
    cl_device_id device;
    dl_engine *engine;
    struct rt_engine *next;
} rt_engine;

static rt_engine *engines;

int rt_fault_conversions;

static dl_status engine_of(cl_command_queue queue, dl_engine **out)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_int err = dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT,
                                             sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev,
                                          &dev, NULL);
    DL_RETURN_ON_CL(err, "clGetCommandQueueInfo");
    for (rt_engine *e = engines; e; e = e->next)
        if (e->context == ctx && e->device == dev) {
            *out = e->engine;
            return DL_SUCCESS;
        }
    rt_engine *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of memory");
    dl_status st = dl_engine_create(ctx, dev, &e->engine);
    if (st != DL_SUCCESS) {
        free(e);
        return st;
    }
    e->context = ctx;
    e->device = dev;
    e->next = engines;
    engines = e;
    *out = e->engine;
    return DL_SUCCESS;
}

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
    if (dl_cl.clGetMemObjectInfo(mem, CL_MEM_TYPE, sizeof type, &type, NULL) !=
            CL_SUCCESS ||
        type != CL_MEM_OBJECT_BUFFER ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) !=
            CL_SUCCESS ||
        dl_cl.clGetMemObjectInfo(mem, CL_MEM_CONTEXT, sizeof ctx, &ctx,
                                 NULL) != CL_SUCCESS ||
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
    /* A sub-buffer's accesses always take the locked path, which
     * restores its parent (rt_access.c). */
    b->ever_converted = parent != NULL;
    /* Published complete: the accesses' lock-free lookups read
     * ever_converted as soon as the entry is in the table. */
    if (rt_map_put(&dl_rt.buffers, mem, b) != DL_SUCCESS) {
        free(b);
        DL_LOG_ERROR("out of memory tracking a buffer");
        return NULL;
    }
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

/* Launches of the memo's fast path leave no event (rt_launch.c); they
 * mark the buffer with their queue instead.  A conversion waits for a
 * marker there, which completes after every command enqueued before it.
 * Falls back to clFinish when the marker cannot be made. */
static void wait_lazy(rt_buffer *b, cl_command_queue queue, rt_events *all)
{
    if (!b->lazy)
        return;
    /* On the same in-order queue the conversion comes after them anyway
     * (and no marker can wait for a command the host holds back). */
    cl_command_queue_properties props = 0;
    if (b->lazy == queue &&
        dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL) == CL_SUCCESS &&
        !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return;
    cl_event marker = NULL;
    if (dl_cl.clEnqueueMarkerWithWaitList(b->lazy, 0, NULL, &marker) ==
        CL_SUCCESS) {
        dl_cl.clFlush(b->lazy); /* another queue may wait for it */
        rt_events_push(all, marker);
        dl_cl.clReleaseEvent(marker);
    } else {
        dl_cl.clFinish(b->lazy);
    }
}

static void clear_lazy(rt_buffer *b)
{
    if (b->lazy)
        dl_cl.clReleaseCommandQueue(b->lazy);
    b->lazy = NULL;
}

void rt_buffer_mark_lazy(rt_buffer *b, cl_command_queue queue)
{
    if (b->lazy == queue)
        return;
    clear_lazy(b);
    dl_cl.clRetainCommandQueue(queue);
    b->lazy = queue;
}

static void forget_uses(rt_buffer *b)
{
    for (unsigned i = 0; i < b->nuses; i++)
        dl_cl.clReleaseEvent(b->uses[i]);
    b->nuses = 0;
}

void rt_buffer_used(rt_buffer *b, cl_command_queue queue, cl_event event)
{
    if (!event)
        return;
    if (b->nuses == RT_MAX_USES) {
        /* Fold the list into one marker that completes after all. */
        cl_event marker = NULL;
        if (dl_cl.clEnqueueMarkerWithWaitList(queue, b->nuses, b->uses,
                                              &marker) != CL_SUCCESS) {
            /* Keep the newest ones; the oldest most likely completed. */
            dl_cl.clWaitForEvents(1, &b->uses[0]);
            dl_cl.clReleaseEvent(b->uses[0]);
            memmove(b->uses, b->uses + 1, (b->nuses - 1) * sizeof *b->uses);
            b->nuses--;
        } else {
            forget_uses(b);
            b->uses[b->nuses++] = marker;
        }
    }
    dl_cl.clRetainEvent(event);
    b->uses[b->nuses++] = event;
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
    DL_RETURN_IF_FAIL(engine_of(queue, &engine));
    rt_events all = {0};
    for (cl_uint i = 0; i < nwait; i++)
        rt_events_push(&all, wait[i]);
    for (unsigned i = 0; i < b->nuses; i++)
        rt_events_push(&all, b->uses[i]);
    wait_lazy(b, queue, &all);
    DL_RETURN_ERROR_ON(all.failed, DL_OUT_OF_MEMORY, "out of memory");
    dl_layout f = rt_layout_dl(from), t = rt_layout_dl(to);
    dl_algo algo = (dl_algo)dl_rt.controls.algo;
    uint64_t t0 = dl_now_ns();
    dl_status st = dl_enqueue_convert(engine, queue, b->mem, &f, &t, algo,
                                      all.n, all.ev, ev);
    if (st == DL_UNSUPPORTED && algo != DL_ALGO_AUTO)
        st = dl_enqueue_convert(engine, queue, b->mem, &f, &t, DL_ALGO_AUTO,
                                all.n, all.ev, ev);
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    rt_events_free(&all);
    if (st != DL_SUCCESS)
        return st;
    forget_uses(b);
    clear_lazy(b);
    b->uses[b->nuses++] = *ev;
    dl_cl.clRetainEvent(*ev);
    RT_ADD(dl_rt.stats.bytes_marshaled, (uint64_t)dl_layout_bytes(&f));
    return DL_SUCCESS;
}

unsigned rt_conversion_builds(cl_command_queue queue, const rt_layout *from,
                              const rt_layout *to)
{
    dl_engine *engine = NULL;
    if (engine_of(queue, &engine) != DL_SUCCESS)
        return 0;
    dl_layout f = rt_layout_dl(from), t = rt_layout_dl(to);
    dl_algo algo = (dl_algo)dl_rt.controls.algo;
    return dl_plan_builds_needed(engine, &f, &t, algo, 0) +
           dl_plan_builds_needed(engine, &t, &f, algo, 1);
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
 * failure): read, convert with the host reference, write back.  It
 * blocks, but the data must never stay in the wrong layout. */
static dl_status restore_on_host(rt_buffer *b, cl_command_queue queue,
                                 cl_uint nwait, const cl_event *wait,
                                 cl_event *ev)
{
    rt_memos_invalidate();
    dl_layout from = rt_layout_dl(&b->cur), to = rt_layout_dl(&b->orig);
    size_t bytes = dl_layout_bytes(&from);
    void *host = malloc(bytes ? bytes : 1);
    DL_RETURN_ERROR_ON(!host, DL_OUT_OF_MEMORY, "out of memory");
    rt_events all = {0};
    for (cl_uint i = 0; i < nwait; i++)
        rt_events_push(&all, wait[i]);
    for (unsigned i = 0; i < b->nuses; i++)
        rt_events_push(&all, b->uses[i]);
    wait_lazy(b, queue, &all);
    cl_int err = dl_cl.clEnqueueReadBuffer(queue, b->mem, CL_TRUE, 0, bytes,
                                           host, all.n, all.ev, NULL);
    rt_events_free(&all);
    dl_status st = err == CL_SUCCESS ? dl_convert_host(host, bytes, &from, &to)
                                     : dl_fail(DL_OPENCL_ERROR,
                                               "clEnqueueReadBuffer failed "
                                               "(%d)",
                                               (int)err);
    if (st == DL_SUCCESS) {
        err = dl_cl.clEnqueueWriteBuffer(queue, b->mem, CL_TRUE, 0, bytes,
                                         host, 0, NULL, ev);
        if (err != CL_SUCCESS)
            st = dl_fail(DL_OPENCL_ERROR, "clEnqueueWriteBuffer failed (%d)",
                         (int)err);
    }
    free(host);
    if (st != DL_SUCCESS)
        return st;
    forget_uses(b);
    clear_lazy(b);
    b->uses[b->nuses++] = *ev;
    dl_cl.clRetainEvent(*ev);
    RT_ADD(dl_rt.stats.bytes_marshaled, (uint64_t)bytes);
    return DL_SUCCESS;
}

/* The conversion back, for buffers in a transformed layout. */
static dl_status restore_one(rt_buffer *b, cl_command_queue queue,
                             cl_uint nwait, const cl_event *wait,
                             rt_events *done)
{
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

dl_status rt_buffer_restore(rt_buffer *b, cl_command_queue queue,
                            cl_uint nwait, const cl_event *wait,
                            rt_events *done)
{
    if (b->parent) {
        rt_buffer *p = rt_buffer_find(b->parent);
        if (p)
            DL_RETURN_IF_FAIL(restore_one(p, queue, nwait, wait, done));
    }
    return restore_one(b, queue, nwait, wait, done);
}

void rt_buffer_reset(rt_buffer *b) { set_transformed(b, 0, NULL); }

void rt_buffer_restore_all(cl_command_queue queue, cl_uint nwait,
                           const cl_event *wait, rt_events *done)
{
    cl_context ctx = NULL;
    if (dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx,
                                    NULL) != CL_SUCCESS)
        return;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.buffers); i++) {
        rt_buffer *b = rt_map_at(&dl_rt.buffers, i);
        if (b && b->transformed && b->context == ctx)
            restore_one(b, queue, nwait, wait, done);
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
        parent && (b = rt_buffer_find(parent)))
        restore_one(b, queue, nwait, wait, done);
}

/* Forgets a buffer (locked). */
static void drop(rt_buffer *b)
{
    rt_memos_invalidate();
    rt_map_del(&dl_rt.buffers, b->mem);
    rt_kernels_forget_buffer(b->mem);
    if (b->parent) {
        rt_buffer *p = rt_buffer_find(b->parent);
        if (p && p->nsubs)
            p->nsubs--;
    }
    forget_uses(b);
    clear_lazy(b);
    set_transformed(b, 0, NULL);
    free(b);
}

/* ------------------------------------------------------------ entry points */

cl_mem dl_rt_clCreateBuffer(cl_context context, cl_mem_flags flags,
                            size_t size, void *host_ptr, cl_int *errcode_ret)
{
    cl_mem mem =
        dl_cl.clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
    if (mem && __atomic_load_n(&dl_rt.buffers.live, __ATOMIC_RELAXED)) {
        /* A handle the implementation reuses must not inherit the state
         * of a buffer released behind our back. */
        rt_lock();
        rt_buffer *stale = rt_buffer_find(mem);
        if (stale)
            drop(stale);
        rt_unlock();
    }
    return mem;
}

cl_mem dl_rt_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                               cl_buffer_create_type buffer_create_type,
                               const void *buffer_create_info,
                               cl_int *errcode_ret)
{
    cl_mem mem = dl_cl.clCreateSubBuffer(buffer, flags, buffer_create_type,
                                         buffer_create_info, errcode_ret);
    if (mem) { /* rare: always tracked, see rt_launch.c apply() */
        rt_lock();
        rt_buffer *stale = rt_buffer_find(mem);
        if (stale)
            drop(stale);
        if (!rt_buffer_get(mem)) /* records the parent */
            __atomic_store_n(&dl_rt.untracked_subs, 1, __ATOMIC_RELEASE);
        rt_unlock();
    }
    return mem;
}

/* Buffers OpenCL destroyed, waiting to be dropped.  The destructor
 * callback may run in any thread, also inside an OpenCL call we make
 * under the lock (releasing an event can free a buffer), so it only
 * pushes the handle here, lock-free; rt_lock() drops them. */
struct rt_destroyed {
    cl_mem mem;
    struct rt_destroyed *next;
};

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

void rt_buffers_drain(void)
{
    if (!__atomic_load_n(&dl_rt.destroyed, __ATOMIC_RELAXED))
        return;
    rt_destroyed *d =
        __atomic_exchange_n(&dl_rt.destroyed, NULL, __ATOMIC_ACQUIRE);
    while (d) {
        RT_HG_ACQUIRE(d);
        rt_destroyed *next = d->next;
        rt_buffer *b = rt_buffer_find(d->mem);
        if (b)
            drop(b);
        free(d);
        d = next;
    }
}

/* Nothing to do here: the destructor callback (rt_buffer_get) drops the
 * state when the object really goes.  A buffer outlives its last release
 * while sub-buffers of it exist, and they see its bytes: restoring it is
 * then the business of the sub-buffers' accesses, as always. */
cl_int dl_rt_clReleaseMemObject(cl_mem memobj)
{
    return dl_cl.clReleaseMemObject(memobj);
}
