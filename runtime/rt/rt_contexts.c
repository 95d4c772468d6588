/* rt_contexts.c - the contexts of the program and what dlayout keeps for
 * each: its engines (one per device: marshal programs and plans, which
 * retain the context).
 *
 * Everything dlayout holds for a context goes when the program releases
 * its last reference to it, so that the context is destroyed when it
 * would be without dlayout (its destructor callbacks fire, its memory is
 * freed).  The program's references are counted here: one from
 * clCreateContext / clCreateContextFromType, one per clRetainContext,
 * minus one per clReleaseContext.  At zero the context is closed: its
 * transformed buffers are restored and every buffer entry lets go of its
 * events and queues (rt_buffers_close_context), then the engines are
 * released, all before the program's own release is forwarded.
 *
 * A program may go on using the queues and buffers of a context it has
 * released (they keep it alive).  A closed context gets no new engine,
 * so its launches run untransformed with a warning: an engine made then
 * would keep the context alive for ever, as no later call says when the
 * program's last object of it goes.  For the same reason its buffers'
 * entries keep no events of their later uses (rt_buffer.closed): such an
 * entry goes only at the next locked call after the buffer's
 * destruction, which may never come.  Contexts dlayout never saw
 * created (the unit tests call the runtime directly) are not counted and
 * keep their engines for the life of the process, as before.
 *
 * All locked (dl_rt.lock).  Contexts are few: a list. */
#include "internal.h"
#include "rt_internal.h"

#include <stdlib.h>

/* One engine per device of a context. */
typedef struct rt_engine {
    cl_device_id device;
    dl_engine *engine;
    cl_command_queue side; /* dlayout's own queue, or NULL */
    unsigned holds;        /* planning threads using it without the lock */
    int orphan;            /* its context closed while held: the last unhold
                              releases it */
    struct rt_engine *next;
} rt_engine;

typedef struct rt_context {
    cl_context context;
    int counted;   /* created through a hook: refs is the program's */
    unsigned refs; /* the program's references, when counted        */
    rt_engine *engines;
    struct rt_context *next;
} rt_context;

static rt_context *contexts;
/* Some context was created through a hook: an unknown context is then
 * one the program has released (a closed one). */
static int counting;

static rt_context **context_slot(cl_context context)
{
    rt_context **pc = &contexts;
    while (*pc && (*pc)->context != context)
        pc = &(*pc)->next;
    return pc;
}

static rt_context *context_add(cl_context context, int counted)
{
    rt_context *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->context = context;
    c->counted = counted;
    c->refs = counted ? 1 : 0;
    c->next = contexts;
    contexts = c;
    return c;
}

static dl_status engine_entry(cl_command_queue queue, rt_engine **out);

int rt_context_closed(cl_context context)
{
    return counting && !*context_slot(context);
}

dl_status rt_context_engine(cl_command_queue queue, dl_engine **out)
{
    rt_engine *e = NULL;
    dl_status st = engine_entry(queue, &e);
    if (st == DL_SUCCESS)
        *out = e->engine;
    return st;
}

dl_status rt_context_engine_hold(cl_command_queue queue, dl_engine **out,
                                 void **hold)
{
    rt_engine *e = NULL;
    dl_status st = engine_entry(queue, &e);
    if (st == DL_SUCCESS) {
        e->holds++;
        *out = e->engine;
        *hold = e;
    }
    return st;
}

void rt_context_engine_unhold(void *hold)
{
    rt_engine *e = hold;
    if (--e->holds == 0 && e->orphan) {
        dl_engine_release(e->engine);
        free(e);
    }
}

dl_status rt_context_side_queue(cl_command_queue queue, cl_command_queue *out)
{
    rt_engine *e = NULL;
    DL_RETURN_IF_FAIL(engine_entry(queue, &e));
    if (!e->side) {
        cl_int err = CL_SUCCESS;
        e->side =
            dl_cl.clCreateCommandQueue(e->engine->context, e->device, 0, &err);
        DL_RETURN_ON_CL(e->side ? err : CL_INVALID_COMMAND_QUEUE,
                        "clCreateCommandQueue");
    }
    *out = e->side;
    return DL_SUCCESS;
}

/* The entry for the queue's context and device, its engine made on first
 * use. */
static dl_status engine_entry(cl_command_queue queue, rt_engine **out)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    cl_int err = dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT,
                                             sizeof ctx, &ctx, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev,
                                          &dev, NULL);
    DL_RETURN_ON_CL(err, "clGetCommandQueueInfo");
    rt_context *c = *context_slot(ctx);
    DL_RETURN_ERROR_ON(!c && counting, DL_UNSUPPORTED,
                       "the program released the context "
                       "(clReleaseContext) before its objects; dlayout "
                       "transforms nothing more in it");
    if (!c && !(c = context_add(ctx, 0)))
        return dl_fail(DL_OUT_OF_MEMORY, "out of memory");
    for (rt_engine *e = c->engines; e; e = e->next)
        if (e->device == dev) {
            *out = e;
            return DL_SUCCESS;
        }
    rt_engine *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of memory");
    dl_status st = dl_engine_create(ctx, dev, &e->engine);
    if (st != DL_SUCCESS) {
        free(e);
        return st;
    }
    e->device = dev;
    e->next = c->engines;
    c->engines = e;
    *out = e;
    return DL_SUCCESS;
}

/* The program's last reference went: let go of everything of the
 * context.  The buffers' restores use its engines, so the entry is
 * unlinked only after them, and the engines go last. */
static void context_close(rt_context *c)
{
    rt_memos_invalidate();
    rt_buffers_close_context(c->context);
    *context_slot(c->context) = c->next;
    for (rt_engine *e = c->engines, *next; e; e = next) {
        next = e->next;
        if (e->side) /* used by launches only, never by a planning thread */
            dl_cl.clReleaseCommandQueue(e->side);
        e->side = NULL;
        e->orphan = e->holds > 0;
        if (!e->orphan) {
            dl_engine_release(e->engine);
            free(e);
        }
    }
    DL_LOG_DEBUG("context %p released by the program: dlayout let go of it",
                 (void *)c->context);
    free(c);
}

/* A context the program just created: counted from 1.  A stale entry
 * under the same handle (one never counted) is closed first. */
static void context_created(cl_context context)
{
    if (!context)
        return;
    rt_lock();
    counting = 1;
    rt_context **pc = context_slot(context);
    if (*pc)
        context_close(*pc);
    if (!context_add(context, 1))
        DL_LOG_ERROR("out of memory tracking a context; dlayout leaves it "
                     "untransformed");
    rt_unlock();
}

cl_context dl_rt_clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret)
{
    cl_context context = rt_fwd.clCreateContext(
        properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
    context_created(context);
    return context;
}

cl_context dl_rt_clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret)
{
    cl_context context = rt_fwd.clCreateContextFromType(
        properties, device_type, pfn_notify, user_data, errcode_ret);
    context_created(context);
    return context;
}

cl_int dl_rt_clRetainContext(cl_context context)
{
    cl_int err = rt_fwd.clRetainContext(context);
    if (err != CL_SUCCESS)
        return err;
    rt_lock();
    rt_context *c = *context_slot(context);
    if (c && c->counted)
        c->refs++;
    rt_unlock();
    return err;
}

cl_int dl_rt_clReleaseContext(cl_context context)
{
    rt_lock();
    rt_context *c = *context_slot(context);
    if (c && c->counted && c->refs > 0 && --c->refs == 0)
        context_close(c);
    rt_unlock();
    return rt_fwd.clReleaseContext(context);
}
