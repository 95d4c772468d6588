/* rt_permute.c - the permutation layout at a launch, and its restore
 * (rt_permute.h): which reference of a kernel qualifies, the pair (A, P)
 * found or made, applied once pi is planned, the launch as written, and
 * the pair restored before any other use of A or P. */
#include "rt_permute.h"
#include "clock.h"
#include "rt_indirect.h"
#include "rt_jobswap.h"
#include "rt_permute_tune.h"
#include "rt_reorder.h"
#include "rt_reorder_tune.h"
#include "tuner_timing.h"

#include <stdlib.h>

/* --------------------------------------------------------- the kernels */

/* The reference of ak that may run on a permuted array: A[P[E]], no
 * offset, the only array read through P and P the only index buffer of
 * A, and the body naming them only so (rt_permute_scan.c); -1 if none. */
static int qualifying_ref(const rt_kernel *k)
{
    const dl_annot_kernel *ak = k->annot;
    const rt_program *prog = k->prog;
    if (!ak || !prog || !ak->ok || ak->nargs || ak->tiled)
        return -1;
    for (uint32_t r = 0; r < ak->nindirect; r++) {
        const dl_annot_indirect *x = &ak->indirect[r];
        size_t ib = dl_int_type_size(x->via_type);
        int alone = !x->offset && (ib == 4 || ib == 8) && x->elem_size;
        for (uint32_t o = 0; o < ak->nindirect && alone; o++) {
            const dl_annot_indirect *y = &ak->indirect[o];
            alone = (y->array == x->array) == (y->via == x->via) &&
                    (y->array != x->array || !y->offset);
        }
        if (alone && rt_permute_scan(prog->source, prog->source_len, ak->name,
                                     x->array_name, x->via_name))
            return (int)r;
    }
    return -1;
}

/* perm_ref is 0 until found, else the reference + 1, or -1. */
int rt_permute_ref(rt_kernel *k)
{
    if (!k->perm_ref) {
        int r = qualifying_ref(k);
        k->perm_ref = r < 0 ? -1 : r + 1;
        if (r < 0)
            DL_LOG_INFO("kernel '%s': no reference that only goes through "
                        "its index buffer: not permuted",
                        k->name);
    }
    return k->perm_ref < 0 ? -1 : k->perm_ref - 1;
}

/* ------------------------------------------------------------ the pair */

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

/* Locked: the pair of (a, p) for reference x, made if neither has one;
 * NULL with *why where they cannot be one. */
static rt_perm *pair_of(rt_buffer *a, rt_buffer *p, const dl_annot_indirect *x,
                        cl_command_queue queue, const char **why)
{
    if ((*why = unfit(a)) || (*why = unfit(p)))
        return NULL;
    if (a->perm || p->perm) {
        if (a->perm == p->perm && a->perm->a == a->mem)
            return a->perm;
        *why = "the array or index buffer is permuted with another buffer";
        return NULL;
    }
    rt_perm *pm = calloc(1, sizeof *pm);
    *why = "out of memory";
    if (!pm)
        return NULL;
    *pm = (rt_perm){.a = a->mem,
                    .p = p->mem,
                    .context = a->context,
                    .elem = x->elem_size,
                    .index_bytes = (unsigned)dl_int_type_size(x->via_type),
                    .state = RT_PERM_READING,
                    .refs = 2};
    pm->n = a->size / pm->elem;
    pm->count = p->size / pm->index_bytes;
    dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof pm->device,
                                &pm->device, NULL);
    /* P's values must fit the index type as elements of A. */
    size_t limit = pm->index_bytes == 4 ? INT32_MAX : UINT32_MAX;
    if (a->size % pm->elem || pm->n > limit || pm->n < 2)
        pm->state = RT_PERM_DECLINED;
    a->perm = p->perm = pm;
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

/* Locked: the plans and maps on the device, at the first application. */
static dl_status upload(rt_perm *pm)
{
    if (pm->map)
        return DL_SUCCESS;
    dl_status st = dl_perm_device_create(pm->context, &pm->forward, pm->elem,
                                         &pm->dev_forward);
    if (st == DL_SUCCESS)
        st = dl_perm_device_create(pm->context, &pm->back, pm->elem,
                                   &pm->dev_back);
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

/* One buffer of the pair moved on the device (A permuted by `plan`, or
 * P's values mapped through `map`), after `wait` and its uses; its event
 * becomes the buffer's last conversion, and goes to *ev. */
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

/* Locked: A permuted and P redirected (forward), or back; `done` gets the
 * event of `mine` (NULL: both).  A failure leaves the state as it was. */
static dl_status move_pair(rt_perm *pm, int forward, cl_command_queue queue,
                           cl_uint nwait, const cl_event *wait,
                           const rt_buffer *mine, rt_events *done)
{
    rt_buffer *a = rt_buffer_find(pm->a), *p = rt_buffer_find(pm->p);
    dl_engine *engine = NULL;
    DL_RETURN_ERROR_ON(!a || !p, DL_INVALID_ARGUMENT,
                       "permute: a buffer of the pair is gone");
    DL_RETURN_IF_FAIL(rt_context_engine(queue, &engine));
    rt_memos_invalidate();
    uint64_t t0 = dl_now_ns();
    cl_event ea = NULL, ep = NULL;
    dl_status st =
        move(pm, a, engine, queue, forward ? &pm->dev_forward : &pm->dev_back,
             NULL, nwait, wait, &ea);
    if (st == DL_SUCCESS)
        st = move(pm, p, engine, queue, NULL, forward ? pm->map : pm->unmap,
                  nwait, wait, &ep);
    RT_ADD(dl_rt.stats.marshal_ns, dl_now_ns() - t0);
    if (ea && (!mine || mine == a))
        rt_events_push(done, ea);
    if (ep && (!mine || mine == p))
        rt_events_push(done, ep);
    if (ea)
        dl_cl.clReleaseEvent(ea);
    if (ep)
        dl_cl.clReleaseEvent(ep);
    if (st != DL_SUCCESS && ea && forward) {
        /* A moved, P did not: put A back, so that the pair stays plain. */
        cl_event back = NULL;
        if (move(pm, a, engine, queue, &pm->dev_back, NULL, 0, NULL, &back) ==
            DL_SUCCESS)
            dl_cl.clReleaseEvent(back);
    }
    return st;
}

/* Locked: the state to applied or back, counted where fast paths look. */
static void set_applied(rt_perm *pm, int applied, cl_command_queue queue)
{
    if (applied) {
        dl_cl.clRetainCommandQueue(queue);
        pm->queue = queue;
        pm->state = RT_PERM_APPLIED;
        RT_ADD(dl_rt.transformed, 2);
        RT_ADD(dl_rt.stats.permutations_applied, 1);
    } else {
        dl_cl.clReleaseCommandQueue(pm->queue);
        pm->queue = NULL;
        pm->state = RT_PERM_READY;
        RT_ADD(dl_rt.transformed, -2);
        RT_ADD(dl_rt.stats.permutations_restored, 1);
    }
}

/* Locked: applies a READY pair before the launch. */
static void apply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                  const cl_event *wait, rt_events *done)
{
    rt_buffer *a = rt_buffer_find(pm->a), *p = rt_buffer_find(pm->p);
    if (!a || !p || !claim(a) || !claim(p))
        return; /* a host access under way: the next launch tries again */
    dl_status st = upload(pm);
    if (st == DL_SUCCESS)
        st = move_pair(pm, 1, queue, nwait, wait, NULL, done);
    if (st != DL_SUCCESS) {
        DL_LOG_ERROR("permuting an array failed (%s); it stays as it is",
                     dl_last_error());
        pm->state = RT_PERM_DECLINED;
        return;
    }
    set_applied(pm, 1, queue);
}

dl_status rt_permute_restore(rt_buffer *b, cl_command_queue queue,
                             cl_uint nwait, const cl_event *wait,
                             rt_events *done)
{
    rt_perm *pm = b->perm;
    if (!rt_permute_applied(b))
        return DL_SUCCESS;
    dl_status st = move_pair(pm, 0, queue, nwait, wait, b, done);
    if (st != DL_SUCCESS) {
        /* The data stays permuted: keep saying so, so that a later access
         * tries again rather than using it as it is. */
        DL_LOG_ERROR("restoring a permuted array failed: %s", dl_last_error());
        return st;
    }
    set_applied(pm, 0, NULL);
    return DL_SUCCESS;
}

/* Locked: the other buffer of an applied pair back, b being gone. */
static void restore_survivor(rt_perm *pm, const rt_buffer *b)
{
    rt_buffer *a = rt_buffer_find(pm->a), *p = rt_buffer_find(pm->p);
    rt_buffer *o = b == a ? p : a;
    if (o && o->gone)
        return; /* both went */
    dl_engine *engine = NULL;
    cl_event ev = NULL;
    dl_status st = o ? rt_context_engine(pm->queue, &engine) : DL_SUCCESS;
    if (o && st == DL_SUCCESS) {
        rt_memos_invalidate();
        st = move(pm, o, engine, pm->queue, o == a ? &pm->dev_back : NULL,
                  pm->unmap, 0, NULL, &ev);
    }
    if (ev)
        dl_cl.clReleaseEvent(ev);
    if (st != DL_SUCCESS)
        DL_LOG_ERROR("restoring a permuted buffer whose partner went failed: "
                     "%s",
                     dl_last_error());
}

void rt_permute_forget(rt_buffer *b, int gone)
{
    rt_perm *pm = b->perm;
    if (!pm)
        return;
    if (pm->state == RT_PERM_APPLIED) {
        rt_events done = {0};
        if (gone)
            restore_survivor(pm, b);
        else
            rt_permute_restore(b, pm->queue, 0, NULL, &done);
        rt_events_free(&done);
        if (pm->state == RT_PERM_APPLIED)
            set_applied(pm, 0, NULL);
    }
    rt_buffer *a = rt_buffer_find(pm->a), *p = rt_buffer_find(pm->p);
    if (a && a->perm == pm)
        a->perm = NULL;
    if (p && p->perm == pm)
        p->perm = NULL;
    if (b->perm == pm)
        b->perm = NULL;
    pm->state = RT_PERM_DECLINED; /* a planner still running drops it */
    rt_permute_unref(pm);
    rt_permute_unref(pm);
}

/* ----------------------------------------------------------- the launch */

/* Locked: every buffer argument other than A and P goes back to the
 * program's layout, as for any launch; A and P wait for their last
 * conversion. */
static void order_args(const rt_kernel *k, const rt_perm *pm,
                       cl_command_queue q, cl_uint nwait, const cl_event *wait,
                       rt_events *done)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (!b)
            continue;
        if (m == pm->a || m == pm->p)
            rt_buffer_order(b, q, done);
        else
            rt_buffer_restore(b, q, nwait, wait, done);
    }
}

/* Locked: the launch's event is a use of each buffer argument. */
static void used_args(const rt_kernel *k, cl_command_queue q, cl_event ev)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (b)
            rt_buffer_used(b, q, ev);
    }
}

/* Whether A or P is also bound to another argument of k. */
static int aliased(const rt_kernel *k, const dl_annot_indirect *x, cl_mem a,
                   cl_mem p)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        if (i != x->array && i != x->via && m && (m == a || m == p))
            return 1;
    }
    return a == p;
}

static cl_int enqueue(const launch_call *c, cl_uint n, const cl_event *w,
                      cl_event *ev)
{
    return rt_fwd.clEnqueueNDRangeKernel(c->queue, c->kernel, c->work_dim,
                                         c->offset, c->global, c->local, n, w,
                                         ev);
}

/* How the launch's work-items read P: its range (1-D launches), else
 * one consecutive entry each. */
static dl_coalesce_range read_range(const launch_call *c, const rt_kernel *k,
                                    const dl_annot_indirect *x, size_t count)
{
    dl_annot_indirect_range r;
    if (c->work_dim == 1 && rt_indirect_eval(c, k, x, &r) == DL_SUCCESS &&
        r.base >= 0 && r.t_stride >= 0 && r.j_stride >= 0)
        return (dl_coalesce_range){c->global[0], r.steps, (size_t)r.base,
                                   (size_t)r.t_stride, (size_t)r.j_stride};
    return (dl_coalesce_range){count, 1, 0, 1, 0};
}

/* Locked: the pair of this launch, or NULL after logging why not. */
static rt_perm *launch_pair(const launch_call *c, rt_kernel *k)
{
    int r = rt_permute_ref(k);
    if (r < 0)
        return NULL;
    const dl_annot_indirect *x = &k->annot->indirect[r];
    cl_mem am = rt_launch_arg_mem(k, x->array),
           pmem = rt_launch_arg_mem(k, x->via);
    const char *why = "an argument is not a buffer";
    rt_perm *pm = NULL;
    if (am && pmem && !aliased(k, x, am, pmem))
        pm = pair_of(rt_buffer_get(am), rt_buffer_get(pmem), x, c->queue, &why);
    else if (am && pmem)
        why = "the array or index buffer is also another argument";
    if (!pm)
        DL_LOG_DEBUG("kernel '%s': %s: not permuted", k->name, why);
    else if (pm->state == RT_PERM_READING && !pm->queue)
        pm->range = read_range(c, k, x, pm->count);
    return pm;
}

/* Locked: a permuted pair back to the program's order before a launch
 * the tuner runs as written. */
static void unapply(rt_perm *pm, cl_command_queue queue, cl_uint nwait,
                    const cl_event *wait, rt_events *done)
{
    if (move_pair(pm, 0, queue, nwait, wait, NULL, done) == DL_SUCCESS)
        set_applied(pm, 0, NULL);
    else
        DL_LOG_ERROR("restoring a permuted array failed: %s", dl_last_error());
}

/* Whether the tuner decides the pair's launches: DL_POLICY=auto with the
 * selector's choice (forced, DL_IRREGULAR=remap, permutes wherever it
 * applies). */
static int tuned(void)
{
    return dl_rt.controls.policy == DL_POLICY_AUTO &&
           dl_rt.controls.irregular == DL_IRREGULAR_AUTO && dl_rt.tuner;
}

/* Locked: what the pair costs, once planned (else *planned is 0: the
 * launch runs as written without asking). */
static rt_remap_costs costs_of(const rt_perm *pm, int *planned)
{
    *planned = pm->state == RT_PERM_READY || pm->state == RT_PERM_APPLIED;
    return (rt_remap_costs){pm->n,     pm->elem,
                            pm->count, pm->index_bytes,
                            pm->moved, (double)pm->build_ns,
                            0,         pm->before,
                            pm->after};
}

/* Unlocked: the tuner's choice for this launch of the pair, keyed apart
 * from the reordering path's patterns of the same kernel. */
static dl_tuner_choice tune(const launch_call *c, rt_kernel *k,
                            const rt_remap_costs *costs)
{
    dl_tuner_prediction p = rt_remap_prediction(costs);
    uint64_t sig = dl_tuner_signature(rt_reorder_signature(c), 0x7065726d);
    dl_tuner_launch l = {k, k->name, sig, &p, 0};
    return dl_tuner_choose(dl_rt.tuner, &l);
}

/* Locked: the pair of this launch where the permutation applies to k:
 * forced, or chosen for it by the selector. */
static rt_perm *chosen_pair(const launch_call *c, rt_kernel *k)
{
    if (dl_rt.controls.irregular == DL_IRREGULAR_AUTO &&
        !rt_irregular_remapped(k))
        return NULL;
    return launch_pair(c, k);
}

int rt_permute_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                      const cl_event *wait, cl_event *event, cl_int *err)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    if ((mode != DL_IRREGULAR_REMAP && mode != DL_IRREGULAR_AUTO) ||
        dl_rt.controls.policy == DL_POLICY_NEVER || c->task || !k->annot ||
        !k->annot->nindirect)
        return 0;
    dl_tuner_choice tc = {1, 0, 0, 0};
    int planned = 0;
    if (tuned()) {
        rt_lock();
        rt_perm *pm = chosen_pair(c, k);
        rt_remap_costs costs =
            pm ? costs_of(pm, &planned) : (rt_remap_costs){0};
        rt_unlock();
        if (!pm)
            return 0;
        /* Not planned yet: as written, even if it is planned by the time
         * the lock is taken again (the tuner was not asked). */
        tc = planned ? tune(c, k, &costs) : (dl_tuner_choice){0, 0, 0, 0};
    }
    dl_tuner_probe *probe = tc.measure
                                ? dl_tuner_probe_begin(dl_rt.tuner, tc.ticket,
                                                       c->queue, nwait, wait)
                                : NULL;
    rt_lock();
    rt_perm *pm = chosen_pair(c, k);
    if (!pm) {
        rt_unlock();
        dl_tuner_probe_launched(probe, NULL, 0);
        return 0;
    }
    rt_events done = {0}, joined = {0};
    if (pm->state == RT_PERM_READY && tc.transform)
        apply(pm, c->queue, nwait, wait, &done);
    else if (pm->state == RT_PERM_APPLIED && !tc.transform)
        unapply(pm, c->queue, nwait, wait, &done);
    int start = pm->state == RT_PERM_READING && !pm->queue;
    int permuted = pm->state == RT_PERM_APPLIED;
    dl_tuner_probe_converted(probe, done.n, done.ev);
    order_args(k, pm, c->queue, nwait, wait, &done);
    cl_uint n = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, &done, &n);
    cl_event own = NULL;
    cl_event *ev = event ? event : &own;
    *err = enqueue(c, n, w, ev);
    dl_tuner_probe_launched(probe, *err == CL_SUCCESS ? *ev : NULL, permuted);
    if (*err == CL_SUCCESS && *ev) {
        used_args(k, c->queue, *ev);
        rt_reorder_kernel_wrote(k);
        if (start)
            rt_permute_start_plan(pm, c->queue, *ev);
    }
    rt_unlock();
    if (mode == DL_IRREGULAR_REMAP)
        rt_irregular_remap_forced(k);
    if (own)
        dl_cl.clReleaseEvent(own);
    rt_events_free(&joined);
    rt_events_free(&done);
    return 1;
}
