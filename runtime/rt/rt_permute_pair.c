/* rt_permute_pair.c - the buffers of a permuted set (rt_permute.h): its
 * arrays and their index buffer P found or made, moved on the device
 * together (each array by its own plan for its element size, P's values
 * through pi), and back before any other use of any of them. */
#include "clock.h"
#include "rt_permute.h"
#include "rt_reorder.h"

#include <stdlib.h>

/* Why buffer b cannot take part (NULL if it can). */
static const char *unfit(const rt_buffer *b)
{
    if (!b)
        return "out of memory";
    if (b->parent || b->nsubs)
        return "a sub-buffer, or a buffer with sub-buffers";
    if (b->transformed)
        return "a buffer in a converted layout";
    if (b->pinned)
        return "a buffer that stays in the program's hands";
    return NULL;
}

/* Whether pm is exactly the set of arrays a[0..na) through p. */
static int same_set(const rt_perm *pm, rt_buffer *const *a, unsigned na,
                    const rt_buffer *p)
{
    if (pm->p != p->mem || pm->na != na)
        return 0;
    for (unsigned i = 0; i < na; i++)
        if (pm->a[i] != a[i]->mem || a[i]->perm != pm)
            return 0;
    return 1;
}

/* Why the set's buffers cannot be one set, or NULL; *held: an existing
 * set of theirs (NULL: none has one). */
static const char *unfit_set(rt_buffer *const *a, unsigned na, rt_buffer *p,
                             rt_perm **held)
{
    const char *why = unfit(p);
    int any = p && p->perm;
    for (unsigned i = 0; i < na && !why; i++) {
        why = unfit(a[i]);
        any |= a[i] && a[i]->perm;
    }
    *held = NULL;
    if (why || !any)
        return why;
    if (!p->perm || !same_set(p->perm, a, na, p))
        return "an array or the index buffer is permuted with other "
               "buffers";
    *held = p->perm;
    return NULL;
}

/* Whether every array holds the same element count n (P's values must
 * fit the index type as elements of each). */
static int sizes_fit(rt_perm *pm, rt_buffer *const *a)
{
    size_t limit = pm->index_bytes == 4 ? INT32_MAX : UINT32_MAX;
    pm->n = a[0]->size / pm->elems[0];
    for (unsigned i = 0; i < pm->na; i++)
        if (a[i]->size % pm->elems[i] || a[i]->size / pm->elems[i] != pm->n)
            return 0;
    return pm->n <= limit && pm->n >= 2;
}

rt_perm *rt_permute_pair_of(rt_buffer *const *a, const size_t *elems,
                            unsigned na, rt_buffer *p, unsigned index_bytes,
                            cl_command_queue queue, const char **why)
{
    rt_perm *pm = NULL;
    if ((*why = unfit_set(a, na, p, &pm)) || pm)
        return pm;
    pm = calloc(1, sizeof *pm);
    *why = "out of memory";
    if (!pm)
        return NULL;
    *pm = (rt_perm){.p = p->mem,
                    .na = na,
                    .context = a[0]->context,
                    .elem = elems[0],
                    .index_bytes = index_bytes,
                    .state = RT_PERM_READING,
                    .refs = 1};
    for (unsigned i = 0; i < na; i++) {
        pm->a[i] = a[i]->mem;
        pm->elems[i] = elems[i];
        a[i]->perm = pm;
    }
    pm->count = p->size / pm->index_bytes;
    dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof pm->device,
                                &pm->device, NULL);
    if (!sizes_fit(pm, a)) {
        DL_LOG_INFO("permutation declined: its %u array(s) through one index "
                    "buffer do not all hold %zu elements, or P's %u-byte "
                    "values cannot address them",
                    na, pm->n, index_bytes);
        pm->state = RT_PERM_DECLINED;
    }
    p->perm = pm;
    *why = NULL;
    return pm;
}

/* Locked: b may be converted from now on: its blocking accesses take the
 * locked path (rt_access.c), or it gives way to one under way. */
static int claim(rt_buffer *b)
{
    __atomic_store_n(&b->ever_converted, 1, __ATOMIC_SEQ_CST);
    return !__atomic_load_n(&b->host_busy, __ATOMIC_SEQ_CST);
}

static dl_status table(cl_context ctx, const uint32_t *v, size_t n, cl_mem *out)
{
    cl_int err;
    *out = dl_cl.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof *v, (void *)v, &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (permutation map)");
    return DL_SUCCESS;
}

/* Locked: the plans (one per array: their element sizes) and maps on the
 * device, at the first application. */
static dl_status upload(rt_perm *pm)
{
    if (pm->map)
        return DL_SUCCESS;
    dl_status st = DL_SUCCESS;
    for (unsigned i = 0; i < pm->na && st == DL_SUCCESS; i++) {
        st = dl_perm_device_create(pm->context, &pm->forward, pm->elems[i],
                                   &pm->dev_forward[i]);
        if (st == DL_SUCCESS)
            st = dl_perm_device_create(pm->context, &pm->back, pm->elems[i],
                                       &pm->dev_back[i]);
    }
    if (st == DL_SUCCESS)
        st = table(pm->context, pm->inv, pm->n, &pm->unmap);
    if (st == DL_SUCCESS)
        st = table(pm->context, pm->pi, pm->n, &pm->map);
    if (st == DL_SUCCESS) { /* on the device now: the host's copies go */
        free(pm->pi);
        free(pm->inv);
        pm->pi = pm->inv = NULL;
        dl_perm_plan_free(&pm->forward);
        dl_perm_plan_free(&pm->back);
    }
    return st;
}

/* One buffer of the set moved on the device (an array permuted by
 * `plan`, or P's values mapped through `map`), after `wait` and its uses;
 * its event becomes the buffer's last conversion, and goes to *ev. */
static dl_status move(rt_perm *pm, rt_buffer *b, dl_engine *engine,
                      cl_command_queue queue, const dl_perm_device *plan,
                      cl_mem map, cl_uint nwait, const cl_event *wait,
                      cl_event *ev)
{
    rt_events all = {0};
    rt_buffer_conversion_waits(b, nwait, wait, &all);
    dl_status st =
        all.failed ? dl_fail(DL_OUT_OF_MEMORY, "out of memory")
        : plan
            ? dl_enqueue_permute(engine, queue, b->mem, plan, all.n, all.ev, ev)
            : dl_enqueue_redirect(engine, queue, b->mem, pm->index_bytes,
                                  pm->count, map, pm->n, all.n, all.ev, ev);
    rt_events_free(&all);
    if (st != DL_SUCCESS)
        return st;
    rt_buffer_converted(b, queue, *ev);
    rt_buffer_wrote(b); /* a reordered copy of it is stale */
    return DL_SUCCESS;
}

/* The event of a moved buffer to `done` where it is `mine` (NULL: each). */
static void moved(rt_events *done, const rt_buffer *mine, const rt_buffer *b,
                  cl_event ev)
{
    if (ev && (!mine || mine == b))
        rt_events_push(done, ev);
    if (ev)
        dl_cl.clReleaseEvent(ev);
}

/* Arrays [0, upto) back, after a failed forward move: the set stays
 * plain. */
static void undo_arrays(rt_perm *pm, rt_buffer *const *a, unsigned upto,
                        dl_engine *engine, cl_command_queue queue)
{
    for (unsigned i = 0; i < upto; i++) {
        cl_event back = NULL;
        if (move(pm, a[i], engine, queue, &pm->dev_back[i], NULL, 0, NULL,
                 &back) == DL_SUCCESS)
            dl_cl.clReleaseEvent(back);
    }
}

/* Locked: the set's buffers, or why not (one is gone). */
static const char *find_set(const rt_perm *pm, rt_buffer **a, rt_buffer **p)
{
    *p = rt_buffer_find(pm->p);
    for (unsigned i = 0; i < pm->na; i++)
        if (!(a[i] = rt_buffer_find(pm->a[i])))
            return "permute: an array of the set is gone";
    return *p ? NULL : "permute: the index buffer of the set is gone";
}

/* Locked: the arrays permuted and P redirected (forward), or back;
 * `done` gets the event of `mine` (NULL: each).  A failure leaves the
 * state as it was. */
static dl_status move_set(rt_perm *pm, int forward, cl_command_queue queue,
                          cl_uint nwait, const cl_event *wait,
                          const rt_buffer *mine, rt_events *done)
{
    rt_buffer *a[RT_PERM_ARRAYS], *p = NULL;
    dl_engine *engine = NULL;
    const char *gone = find_set(pm, a, &p);
    DL_RETURN_ERROR_ON(gone, DL_INVALID_ARGUMENT, "%s", gone);
    DL_RETURN_IF_FAIL(rt_context_engine(queue, &engine));
    rt_memos_invalidate();
    uint64_t t0 = dl_now_ns();
    dl_status st = DL_SUCCESS;
    unsigned n = 0; /* the arrays moved */
    while (n < pm->na && st == DL_SUCCESS) {
        cl_event ev = NULL;
        st = move(pm, a[n], engine, queue,
                  forward ? &pm->dev_forward[n] : &pm->dev_back[n], NULL, nwait,
                  wait, &ev);
        moved(done, mine, a[n], ev);
        n += st == DL_SUCCESS;
    }
    cl_event ep = NULL;
    if (st == DL_SUCCESS)
        st = move(pm, p, engine, queue, NULL, forward ? pm->map : pm->unmap,
                  nwait, wait, &ep);
    moved(done, mine, p, ep);
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    if (st != DL_SUCCESS && forward) /* P not redirected: arrays back */
        undo_arrays(pm, a, n, engine, queue);
    return st;
}

/* Locked: the state to applied or back, counted where fast paths look. */
static void set_applied(rt_perm *pm, int applied, cl_command_queue queue)
{
    long buffers = (long)pm->na + 1;
    if (applied) {
        dl_cl.clRetainCommandQueue(queue);
        pm->queue = queue;
        pm->state = RT_PERM_APPLIED;
        RT_ADD(dl_rt.transformed, buffers);
        RT_ADD(dl_rt.stats.permutations_applied, 1);
    } else {
        dl_cl.clReleaseCommandQueue(pm->queue);
        pm->queue = NULL;
        pm->state = RT_PERM_READY;
        RT_ADD(dl_rt.transformed, -buffers);
        RT_ADD(dl_rt.stats.permutations_restored, 1);
    }
}

void rt_permute_apply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                      const cl_event *wait, rt_events *done)
{
    rt_buffer *a[RT_PERM_ARRAYS], *p = NULL;
    if (find_set(pm, a, &p) || !claim(p))
        return;
    for (unsigned i = 0; i < pm->na; i++)
        if (!claim(a[i]))
            return; /* a host access under way: the next launch tries again */
    dl_status st = upload(pm);
    if (st == DL_SUCCESS)
        st = move_set(pm, 1, queue, nwait, wait, NULL, done);
    if (st != DL_SUCCESS) {
        DL_LOG_ERROR("permuting an array failed (%s); it stays as it is",
                     dl_last_error());
        pm->state = RT_PERM_DECLINED;
        return;
    }
    set_applied(pm, 1, queue);
}

void rt_permute_unapply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                        const cl_event *wait, rt_events *done)
{
    if (move_set(pm, 0, queue, nwait, wait, NULL, done) == DL_SUCCESS)
        set_applied(pm, 0, NULL);
    else
        DL_LOG_ERROR("restoring a permuted array failed: %s", dl_last_error());
}

dl_status rt_permute_restore(rt_buffer *b, cl_command_queue queue,
                             cl_uint nwait, const cl_event *wait,
                             rt_events *done)
{
    rt_perm *pm = b->perm;
    if (!rt_permute_applied(b))
        return DL_SUCCESS;
    dl_status st = move_set(pm, 0, queue, nwait, wait, b, done);
    if (st != DL_SUCCESS) {
        /* The data stays permuted: keep saying so, so that a later access
         * tries again rather than using it as it is. */
        DL_LOG_ERROR("restoring a permuted array failed: %s", dl_last_error());
        return st;
    }
    set_applied(pm, 0, NULL);
    return DL_SUCCESS;
}

/* Locked: one buffer of an applied set back (not b, which is gone); its
 * plan: the array's, or P's map (plan NULL). */
static void restore_one(rt_perm *pm, rt_buffer *o, const dl_perm_device *plan,
                        dl_engine *engine)
{
    cl_event ev = NULL;
    dl_status st =
        move(pm, o, engine, pm->queue, plan, pm->unmap, 0, NULL, &ev);
    if (ev)
        dl_cl.clReleaseEvent(ev);
    if (st != DL_SUCCESS)
        DL_LOG_ERROR("restoring a permuted buffer whose partner went failed: "
                     "%s",
                     dl_last_error());
}

/* Locked: the other buffers of an applied set back, b being gone. */
static void restore_survivors(rt_perm *pm, const rt_buffer *b)
{
    dl_engine *engine = NULL;
    if (rt_context_engine(pm->queue, &engine) != DL_SUCCESS) {
        DL_LOG_ERROR("restoring a permuted buffer whose partner went failed: "
                     "%s",
                     dl_last_error());
        return;
    }
    rt_memos_invalidate();
    for (unsigned i = 0; i < pm->na; i++) {
        rt_buffer *o = rt_buffer_find(pm->a[i]);
        if (o && o != b && !o->gone)
            restore_one(pm, o, &pm->dev_back[i], engine);
    }
    rt_buffer *p = rt_buffer_find(pm->p);
    if (p && p != b && !p->gone)
        restore_one(pm, p, NULL, engine);
}

/* Locked: every buffer of the set leaves it. */
static void detach(rt_perm *pm, rt_buffer *b)
{
    for (unsigned i = 0; i < pm->na; i++) {
        rt_buffer *a = rt_buffer_find(pm->a[i]);
        if (a && a->perm == pm)
            a->perm = NULL;
    }
    rt_buffer *p = rt_buffer_find(pm->p);
    if (p && p->perm == pm)
        p->perm = NULL;
    if (b->perm == pm)
        b->perm = NULL;
}

void rt_permute_forget(rt_buffer *b, int gone)
{
    rt_perm *pm = b->perm;
    if (!pm)
        return;
    if (pm->state == RT_PERM_APPLIED) {
        rt_events done = {0};
        if (gone)
            restore_survivors(pm, b);
        else
            rt_permute_restore(b, pm->queue, 0, NULL, &done);
        rt_events_free(&done);
        if (pm->state == RT_PERM_APPLIED)
            set_applied(pm, 0, NULL);
    }
    detach(pm, b);
    pm->state = RT_PERM_DECLINED; /* a planner still running drops it */
    rt_permute_unref(pm);
}
