/* rt_permute.c - the permutation layout at a launch (rt_permute.h):
 * which set of a kernel qualifies (its arrays read only through one index
 * buffer P), the set's buffers at the launch (rt_permute_pair.c finds or
 * makes the set, applies it once pi is planned and restores it), the
 * tuner's choice under auto, and the launch as written. */
#include "rt_permute.h"
#include "clock.h"
#include "rt_indirect.h"
#include "rt_jobswap.h"
#include "rt_permute_tune.h"
#include "rt_reorder.h"
#include "rt_reorder_tune.h"
#include "tuner_timing.h"

#include <stdio.h>
#include <stdlib.h>

/* --------------------------------------------------------- the kernels */

/* Whether reference o of ak reads an array of the set (refs[0..na)):
 * 1, or -1 where it names it with another element size. */
static int in_set(const dl_annot_kernel *ak, const uint32_t *refs, unsigned na,
                  const dl_annot_indirect *o)
{
    for (unsigned i = 0; i < na; i++)
        if (ak->indirect[refs[i]].array == o->array)
            return ak->indirect[refs[i]].elem_size == o->elem_size ? 1 : -1;
    return 0;
}

/* The set through x's index buffer P: every reference through P is
 * A[P[E]] with no offset, each array once (refs: its first reference,
 * n: the names), and no array of the set is read through another index
 * buffer.  Its size, 0 if there is no such set. */
static unsigned set_of(const dl_annot_kernel *ak, const dl_annot_indirect *x,
                       uint32_t *refs, rt_permute_names *n)
{
    size_t ib = dl_int_type_size(x->via_type);
    n->na = 0;
    n->p = x->via_name;
    if (ib != 4 && ib != 8)
        return 0;
    for (uint32_t o = 0; o < ak->nindirect; o++) {
        const dl_annot_indirect *y = &ak->indirect[o];
        if (y->via != x->via)
            continue;
        if (y->offset || y->via_type != x->via_type || !y->elem_size ||
            y->array == x->via)
            return 0;
        int known = in_set(ak, refs, n->na, y);
        if (known < 0)
            return 0;
        if (known)
            continue;
        if (n->na == RT_PERM_ARRAYS)
            return 0;
        refs[n->na] = o;
        n->a[n->na++] = y->array_name;
    }
    for (uint32_t o = 0; o < ak->nindirect; o++)
        if (ak->indirect[o].via != x->via &&
            in_set(ak, refs, n->na, &ak->indirect[o]))
            return 0;
    return n->na;
}

/* The first reference of the first set of k whose body names its arrays
 * and P only as A[P[...]] (rt_permute_scan.c); -1 if none. */
static int qualifying_ref(const rt_kernel *k)
{
    const dl_annot_kernel *ak = k->annot;
    const rt_program *prog = k->prog;
    if (!ak || !prog || !ak->ok || ak->nargs || ak->tiled)
        return -1;
    for (uint32_t r = 0; r < ak->nindirect; r++) {
        uint32_t refs[RT_PERM_ARRAYS];
        rt_permute_names n;
        if (set_of(ak, &ak->indirect[r], refs, &n) && refs[0] == r &&
            rt_permute_scan_set(prog->source, prog->source_len, ak->name, &n))
            return (int)r;
    }
    return -1;
}

/* The set of reference r, at info level: which arrays one pi permutes. */
static void log_set(const rt_kernel *k, int r)
{
    uint32_t refs[RT_PERM_ARRAYS];
    rt_permute_names n;
    unsigned na = set_of(k->annot, &k->annot->indirect[r], refs, &n);
    char arrays[256] = "";
    size_t used = 0;
    for (unsigned i = 0; i < na && used < sizeof arrays; i++)
        used +=
            (size_t)snprintf(arrays + used, sizeof arrays - used, "%s%s",
                             i ? (i + 1 < na ? ", " : " and ") : "", n.a[i]);
    DL_LOG_INFO("kernel '%s': %s read only through %s: %s where the "
                "permutation applies",
                k->name, arrays, n.p,
                na > 1 ? "each permuted by one pi" : "kept permuted");
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
        else
            log_set(k, r);
    }
    return k->perm_ref < 0 ? -1 : k->perm_ref - 1;
}

unsigned rt_permute_refs(rt_kernel *k, uint32_t *refs)
{
    int r = rt_permute_ref(k);
    rt_permute_names n;
    return r < 0 ? 0 : set_of(k->annot, &k->annot->indirect[r], refs, &n);
}

/* ----------------------------------------------------------- the launch */

/* Locked: every buffer argument outside the set goes back to the
 * program's layout, as for any launch; the set's wait for their last
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
        if (b->perm == pm)
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

/* Whether an array of the set or P is also bound to another argument of
 * k, or two of them are one buffer. */
static int aliased(const rt_kernel *k, const cl_uint *params,
                   const cl_mem *mems, unsigned nmem)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        for (unsigned j = 0; m && j < nmem; j++)
            if (m == mems[j] && i != params[j])
                return 1;
    }
    for (unsigned i = 0; i < nmem; i++)
        for (unsigned j = i + 1; j < nmem; j++)
            if (mems[i] == mems[j])
                return 1;
    return 0;
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

/* Locked: the buffers of k's set at this launch (the arrays, then P)
 * into b[], and each array's element bytes; their count, 0 with *why. */
static unsigned set_buffers(const rt_kernel *k, const uint32_t *refs,
                            unsigned na, rt_buffer **b, size_t *elems,
                            const char **why)
{
    const dl_annot_indirect *x = &k->annot->indirect[refs[0]];
    cl_uint params[RT_PERM_ARRAYS + 1];
    cl_mem mems[RT_PERM_ARRAYS + 1];
    for (unsigned i = 0; i <= na; i++) {
        const dl_annot_indirect *r = &k->annot->indirect[refs[i < na ? i : 0]];
        params[i] = i < na ? r->array : x->via;
        mems[i] = rt_launch_arg_mem(k, params[i]);
        *why = "an argument is not a buffer";
        if (!mems[i])
            return 0;
        if (i < na)
            elems[i] = r->elem_size;
    }
    *why = "an array or the index buffer is also another argument";
    if (aliased(k, params, mems, na + 1))
        return 0;
    for (unsigned i = 0; i <= na; i++)
        b[i] = rt_buffer_get(mems[i]);
    return na + 1;
}

/* Locked: the set of this launch, or NULL after logging why not. */
static rt_perm *launch_pair(const launch_call *c, rt_kernel *k)
{
    uint32_t refs[RT_PERM_ARRAYS];
    unsigned na = rt_permute_refs(k, refs);
    if (!na)
        return NULL;
    const dl_annot_indirect *x = &k->annot->indirect[refs[0]];
    rt_buffer *b[RT_PERM_ARRAYS + 1];
    size_t elems[RT_PERM_ARRAYS];
    const char *why = NULL;
    rt_perm *pm = NULL;
    if (set_buffers(k, refs, na, b, elems, &why))
        pm = rt_permute_pair_of(b, elems, na, b[na],
                                (unsigned)dl_int_type_size(x->via_type),
                                c->queue, &why);
    if (!pm)
        DL_LOG_DEBUG("kernel '%s': %s: not permuted", k->name, why);
    else if (pm->state == RT_PERM_READING && !pm->queue)
        pm->range = read_range(c, k, x, pm->count);
    return pm;
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
 * launch runs as written without asking); an element's bytes are every
 * array's of the set, each moved by its own plan. */
static rt_remap_costs costs_of(const rt_perm *pm, int *planned)
{
    *planned = pm->state == RT_PERM_READY || pm->state == RT_PERM_APPLIED;
    return (rt_remap_costs){
        pm->n,     rt_permute_set_elem(pm), pm->count, pm->index_bytes,
        pm->moved, (double)pm->build_ns,    0,         pm->before,
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
        rt_permute_apply(pm, c->queue, nwait, wait, &done);
    else if (pm->state == RT_PERM_APPLIED && !tc.transform)
        rt_permute_unapply(pm, c->queue, nwait, wait, &done);
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
