/* rt_renumber.c - a graph loop renumbered at its launches (rt_renumber.h):
 * whether the kernel and the launch qualify, the renumbering found or
 * made, launched as written while pi is planned, then on the renumbered
 * copies with every vertex buffer permuted, and each vertex buffer
 * restored alone before any other use. */
#include "rt_renumber.h"
#include "clock.h"
#include "rt_renumber_tune.h"
#include "rt_reorder.h"
#include "rt_reorder_tune.h"
#include "tuner_timing.h"

#include <stdlib.h>

/* How often a kernel's graph may change under its renumbering (its copies
 * then stale) before it runs as written for good. */
#define MAX_STALE 3
/* Planning's host time per entry of the structure, as a guess before it
 * is measured: RCM, the renumbered copies, two counts of the analyser and
 * pi's plans took 0.9 s for the 6.94 M entries of the 3D stencil of 10^6
 * rows on an idle core here, 2-4 s beside the kernels on a loaded one. */
#define PLAN_NS_PER_ENTRY 300.0

/* A kernel's part: whether it qualifies, and its current renumbering. */
typedef struct rt_renum_kernel {
    const char *why; /* NULL: it qualifies */
    rt_renum_form form;
    rt_renum *cur;
    unsigned stale;
    uint64_t first_ns;        /* its first launch considered */
    int said_launch, said_on; /* the info lines logged */
} rt_renum_kernel;

/* ---------------------------------------------------------- the kernel */

/* Whether the annotations agree with the form: every indirect reference
 * reads a vertex array through the columns. */
static int annotations_agree(const dl_annot_kernel *ak, const rt_renum_form *f)
{
    for (uint32_t r = 0; r < ak->nindirect; r++) {
        const dl_annot_indirect *x = &ak->indirect[r];
        int vertex = 0;
        for (uint32_t i = 0; i < f->nvertex; i++)
            vertex |= f->vertex[i] == x->array;
        if (x->via != f->col || !vertex || x->offset)
            return 0;
    }
    return 1;
}

/* Locked: k's part, its source read at the first call; NULL when out of
 * memory. */
static rt_renum_kernel *kernel_part(rt_kernel *k)
{
    if (k->renum)
        return k->renum;
    rt_renum_kernel *rk = calloc(1, sizeof *rk);
    if (!rk)
        return NULL;
    const rt_program *p = k->prog;
    rk->why = p ? rt_renumber_scan(p->source, p->source_len, k->name, &rk->form)
                : "no source";
    if (!rk->why && !annotations_agree(k->annot, &rk->form))
        rk->why = "its annotations do not read a vertex array through its "
                  "columns";
    if (rk->why)
        DL_LOG_INFO("kernel '%s': not renumbered: %s", k->name, rk->why);
    rk->first_ns = dl_now_ns();
    __atomic_store_n(&k->renum, rk, __ATOMIC_RELEASE);
    return rk;
}

void rt_renumber_kernel_forget(rt_kernel *k)
{
    rt_renum_kernel *rk = k->renum;
    if (!rk)
        return;
    if (rk->cur)
        rt_renumber_unref(rk->cur);
    free(rk);
    k->renum = NULL;
}

/* ---------------------------------------------------------- the launch */

/* The buffers of one launch by role, and its vertex count. */
typedef struct graph_args {
    cl_mem rowptr, col, edge[RT_RENUM_MAX], vertex[RT_RENUM_MAX];
    size_t n;
} graph_args;

/* Argument i as an integer value. */
static int int_arg(const rt_kernel *k, uint32_t i, long long *out)
{
    const rt_arg *a = i < k->nargs ? &k->args[i] : NULL;
    if (!a || !a->value || (a->size != 4 && a->size != 8))
        return 0;
    *out = a->size == 4 ? *(const int32_t *)a->value
                        : (long long)*(const int64_t *)a->value;
    return 1;
}

/* Why buffer b cannot hold a permuted vertex array (NULL if it can). */
static const char *unfit(const rt_buffer *b, size_t bytes)
{
    if (!b)
        return "out of memory";
    if (b->parent || b->nsubs)
        return "a vertex array is a sub-buffer, or has sub-buffers";
    if (b->transformed || b->perm)
        return "a vertex array is in another layout";
    if (b->pinned)
        return "a vertex array stays in the program's hands";
    if (b->size != bytes)
        return "a vertex array does not hold one element per row";
    return NULL;
}

static int structure_mem(const graph_args *g, const rt_renum_form *f, cl_mem m)
{
    int hit = m == g->rowptr || m == g->col;
    for (uint32_t i = 0; i < f->nedge; i++)
        hit |= m == g->edge[i];
    return hit;
}

/* Locked: this launch's graph, or why it cannot be renumbered. */
static const char *launch_graph(const launch_call *c, const rt_kernel *k,
                                const rt_renum_form *f, graph_args *g)
{
    long long rows;
    if (c->work_dim != 1 || (c->offset && c->offset[0]))
        return "not a 1-D launch without offset";
    if (!int_arg(k, f->rows, &rows) || rows < 2 || rows >= INT32_MAX)
        return "its rows' bound is unknown or out of range";
    if (c->global[0] < (size_t)rows)
        return "fewer work-items than rows";
    g->n = (size_t)rows;
    g->rowptr = rt_launch_arg_mem(k, f->rowptr);
    g->col = rt_launch_arg_mem(k, f->col);
    int all = g->rowptr && g->col;
    for (uint32_t i = 0; i < f->nedge; i++)
        all &= (g->edge[i] = rt_launch_arg_mem(k, f->edge[i])) != NULL;
    if (!all)
        return "a structure argument is not a buffer";
    rt_buffer *rp = rt_buffer_get(g->rowptr), *cb = rt_buffer_get(g->col);
    if (!rp || !cb || rp->size < (g->n + 1) * sizeof(int32_t))
        return "the row pointer is shorter than its rows";
    for (uint32_t i = 0; i < f->nvertex; i++) {
        cl_mem m = g->vertex[i] = rt_launch_arg_mem(k, f->vertex[i]);
        if (!m || structure_mem(g, f, m))
            return "a vertex array is no buffer, or also a structure one";
        const char *why = unfit(rt_buffer_get(m), g->n * f->vertex_elem);
        if (why)
            return why;
    }
    return NULL;
}

/* Locked: a new renumbering of the launch's graph; NULL out of memory. */
static rt_renum *new_renum(const rt_renum_form *f, const graph_args *g,
                           cl_command_queue queue)
{
    rt_renum *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->rowptr = g->rowptr;
    r->col = g->col;
    r->nedge = f->nedge;
    for (uint32_t i = 0; i < f->nedge; i++) {
        r->edge[i] = g->edge[i];
        r->edge_elem[i] = f->edge_elem[i];
    }
    r->n = g->n;
    r->elem = f->vertex_elem;
    r->refs = 1;
    r->state = RT_RENUM_READING;
    r->forced = dl_rt.controls.irregular == DL_IRREGULAR_RENUMBER;
    rt_buffer *b = rt_buffer_find(g->rowptr);
    r->context = b ? b->context : NULL;
    dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof r->device,
                                &r->device, NULL);
    return r;
}

static uint64_t version_of(cl_mem m)
{
    rt_buffer *b = rt_buffer_find(m);
    return b ? b->version : UINT64_MAX;
}

/* Whether r renumbers this launch's graph as it is now (read started:
 * the versions it read). */
static int current(const rt_renum *r, const graph_args *g)
{
    int same = r->rowptr == g->rowptr && r->col == g->col && r->n == g->n;
    for (uint32_t i = 0; i < r->nedge; i++)
        same &= r->edge[i] == g->edge[i];
    if (same && (r->nreads || r->state != RT_RENUM_READING)) {
        same &= version_of(r->rowptr) == r->version[0] &&
                version_of(r->col) == r->version[1];
        for (uint32_t i = 0; i < r->nedge; i++)
            same &= version_of(r->edge[i]) == r->version[2 + i];
    }
    return same;
}

/* Locked: the renumbering for this launch, made if needed; NULL where
 * the kernel's graph keeps changing (said once). */
static rt_renum *renum_for(rt_kernel *k, rt_renum_kernel *rk,
                           const graph_args *g, cl_command_queue queue)
{
    if (rk->cur && !current(rk->cur, g)) {
        rt_renumber_unref(rk->cur); /* its buffers are restored as used */
        rk->cur = NULL;
        if (++rk->stale > MAX_STALE) {
            __atomic_store_n(&rk->why, "its graph changes between launches",
                             __ATOMIC_RELEASE);
            DL_LOG_INFO("kernel '%s': no longer renumbered: %s", k->name,
                        rk->why);
            return NULL;
        }
    }
    if (!rk->cur)
        rk->cur = new_renum(&rk->form, g, queue);
    return rk->cur;
}

/* Locked: every buffer argument but the permuted vertex arrays back in
 * the program's layout; those wait for their last conversion. */
static void order_args(const rt_kernel *k, const rt_renum *r,
                       cl_command_queue q, cl_uint nwait, const cl_event *wait,
                       rt_events *done)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (b && r && b->renum == r)
            rt_buffer_order(b, q, done);
        else if (b)
            rt_buffer_restore(b, q, nwait, wait, done);
    }
}

static void used_args(const rt_kernel *k, cl_command_queue q, cl_event ev)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (b)
            rt_buffer_used(b, q, ev);
    }
}

/* Locked: the structure arguments bound to r's copies (swap = 1) or to
 * the program's buffers again (0). */
static cl_int bind(const rt_kernel *k, const rt_renum_form *f,
                   const rt_renum *r, int swap)
{
    cl_uint idx[2 + RT_RENUM_MAX] = {f->rowptr, f->col};
    const cl_mem *mine[2 + RT_RENUM_MAX] = {&r->dev_rowptr, &r->dev_col};
    for (uint32_t i = 0; i < f->nedge; i++) {
        idx[2 + i] = f->edge[i];
        mine[2 + i] = &r->dev_edge[i];
    }
    cl_int err = CL_SUCCESS;
    for (uint32_t i = 0; i < 2 + f->nedge && err == CL_SUCCESS; i++)
        err = dl_cl.clSetKernelArg(k->kernel, idx[i], sizeof(cl_mem),
                                   swap ? (const void *)mine[i]
                                        : k->args[idx[i]].value);
    return err;
}

/* Locked: the launch, renumbered with r (NULL: as written). */
static cl_int enqueue(const launch_call *c, const rt_kernel *k,
                      const rt_renum_form *f, rt_renum *r, cl_uint nwait,
                      const cl_event *wait, cl_event *event, rt_events *done)
{
    rt_events joined = {0};
    order_args(k, r, c->queue, nwait, wait, done);
    cl_uint n = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, done, &n);
    cl_event own = NULL;
    cl_event *ev = event ? event : &own;
    cl_int err = r ? bind(k, f, r, 1) : CL_SUCCESS;
    if (err == CL_SUCCESS)
        err = rt_fwd.clEnqueueNDRangeKernel(c->queue, c->kernel, c->work_dim,
                                            c->offset, c->global, c->local, n,
                                            w, ev);
    if (r && bind(k, f, r, 0) != CL_SUCCESS)
        DL_LOG_ERROR("kernel '%s': its arguments could not be put back after "
                     "a renumbered launch",
                     k->name);
    if (err == CL_SUCCESS && *ev) {
        used_args(k, c->queue, *ev);
        rt_reorder_kernel_wrote(k);
    }
    if (own)
        dl_cl.clReleaseEvent(own);
    rt_events_free(&joined);
    return err;
}

/* Locked: r on the device and the vertex buffers permuted; 0 (logged)
 * where that failed: r is declined and the launch runs as written. */
static int prepare(const rt_renum_form *f, const graph_args *g, rt_renum *r,
                   cl_command_queue queue, cl_uint nwait, const cl_event *wait,
                   rt_events *done)
{
    if (r->state == RT_RENUM_READY && rt_renumber_upload(r) != DL_SUCCESS) {
        DL_LOG_ERROR("renumbering a graph failed (%s); it runs as written",
                     dl_last_error());
        r->state = RT_RENUM_DECLINED;
    }
    return r->state == RT_RENUM_ON_DEVICE &&
           rt_renumber_permute(r, g->vertex, f->nvertex, queue, nwait, wait,
                               done);
}

/* Locked: the launch's renumbering, or NULL after saying why not. */
static rt_renum *launch_renum(const launch_call *c, rt_kernel *k,
                              rt_renum_kernel *rk, graph_args *g)
{
    const char *why = launch_graph(c, k, &rk->form, g);
    if (why && !rk->said_launch++)
        DL_LOG_INFO("kernel '%s': a launch not renumbered: %s", k->name, why);
    return why ? NULL : renum_for(k, rk, g, c->queue);
}

/* Whether the tuner decides: DL_POLICY=auto and DL_IRREGULAR=auto (forced,
 * DL_IRREGULAR=renumber renumbers wherever it applies). */
static int tuned(void)
{
    return dl_rt.controls.policy == DL_POLICY_AUTO &&
           dl_rt.controls.irregular == DL_IRREGULAR_AUTO && dl_rt.tuner;
}

int rt_renumber_considered(const dl_annot_kernel *ak)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    return (mode == DL_IRREGULAR_RENUMBER ||
            (mode == DL_IRREGULAR_AUTO &&
             dl_rt.controls.policy == DL_POLICY_AUTO)) &&
           dl_rt.controls.policy != DL_POLICY_NEVER && ak->ok && ak->nindirect;
}

/* Locked: whether the structure's reads and the planning start at this
 * launch: at once where forced; under auto only once half the time the
 * program has spent since the kernel's first launch covers what planning
 * is guessed to cost (the past as the guess of the future, the tuner's
 * rule for a cost up front), so that a short program,
 * or one that enqueues all its launches at once (none could run
 * renumbered: they are enqueued before any plan is ready), never pays
 * for it, not even in the cores the planning thread would take. */
static int plan_now(const rt_renum_kernel *rk, const rt_renum *r)
{
    if (r->state != RT_RENUM_READING || r->nreads)
        return 0;
    rt_buffer *col = rt_buffer_find(r->col); /* launch_graph made it */
    double guess = PLAN_NS_PER_ENTRY * (double)(col ? col->size / 4 : SIZE_MAX);
    return r->forced || (double)(dl_now_ns() - rk->first_ns) >= 2.0 * guess;
}

/* Locked: this launch's renumbering where this path runs it: planned, or
 * forced (as written meanwhile); the structure's reads are started when
 * plan_now says.  NULL: the caller's other paths run it. */
static rt_renum *ours(const launch_call *c, rt_kernel *k, graph_args *g,
                      rt_renum_kernel **rkp, cl_uint nwait,
                      const cl_event *wait)
{
    rt_renum_kernel *rk = *rkp = kernel_part(k);
    rt_renum *r = rk && !rk->why ? launch_renum(c, k, rk, g) : NULL;
    if (r && plan_now(rk, r))
        rt_renumber_start_plan(r, c->queue, nwait, wait);
    if (!r || r->state == RT_RENUM_DECLINED ||
        (r->state == RT_RENUM_READING && !r->forced))
        return NULL;
    return r;
}

/* Locked: what r costs, for the tuner. */
static rt_renum_costs costs_of(const rt_renum *r, const rt_renum_form *f)
{
    return (rt_renum_costs){
        r->n,      r->elem,          f->nvertex,
        r->extra,  r->forward.moved, r->dev_rowptr ? 0.0 : (double)r->build_ns,
        r->before, r->after};
}

/* Unlocked: the tuner's choice for this launch, keyed apart from the
 * other paths' patterns of the same kernel. */
static dl_tuner_choice tune(const launch_call *c, rt_kernel *k,
                            const rt_renum_costs *costs)
{
    dl_tuner_prediction p = rt_renumber_prediction(costs);
    uint64_t sig = dl_tuner_signature(rt_reorder_signature(c), 0x72656e75);
    dl_tuner_launch l = {k, k->name, sig, &p, 0};
    return dl_tuner_choose(dl_rt.tuner, &l);
}

/* Unlocked: the choice, asked of the tuner once planned (else renumbered
 * wherever it is ready); 0 where this path does not run the launch. */
static int choose(const launch_call *c, rt_kernel *k, cl_uint nwait,
                  const cl_event *wait, dl_tuner_choice *tc)
{
    *tc = (dl_tuner_choice){1, 0, 0, 0};
    if (!tuned())
        return 1;
    rt_lock();
    graph_args g = {0};
    rt_renum_kernel *rk = NULL;
    rt_renum *r = ours(c, k, &g, &rk, nwait, wait);
    rt_renum_costs costs = r ? costs_of(r, &rk->form) : (rt_renum_costs){0};
    rt_unlock();
    if (r)
        *tc = tune(c, k, &costs);
    return r != NULL;
}

/* Without the lock: whether k was found not to qualify (the fast path of
 * every launch of a kernel that does not). */
static int declined(const rt_kernel *k)
{
    rt_renum_kernel *rk = __atomic_load_n(&k->renum, __ATOMIC_ACQUIRE);
    return rk && __atomic_load_n(&rk->why, __ATOMIC_ACQUIRE);
}

int rt_renumber_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                       const cl_event *wait, cl_event *event, cl_int *err)
{
    if (c->task || !k->annot || !rt_renumber_considered(k->annot) ||
        declined(k))
        return 0;
    dl_tuner_choice tc;
    if (!choose(c, k, nwait, wait, &tc))
        return 0;
    dl_tuner_probe *probe = tc.measure
                                ? dl_tuner_probe_begin(dl_rt.tuner, tc.ticket,
                                                       c->queue, nwait, wait)
                                : NULL;
    rt_lock();
    graph_args g = {0};
    rt_renum_kernel *rk = NULL;
    rt_renum *r = ours(c, k, &g, &rk, nwait, wait);
    if (!r) {
        rt_unlock();
        dl_tuner_probe_launched(probe, NULL, 0);
        return 0;
    }
    rt_events done = {0};
    int on = tc.transform && r->state != RT_RENUM_READING &&
             prepare(&rk->form, &g, r, c->queue, nwait, wait, &done);
    dl_tuner_probe_converted(probe, done.n, done.ev);
    cl_event own = NULL;
    cl_event *ev = event ? event : &own;
    *err = enqueue(c, k, &rk->form, on ? r : NULL, nwait, wait, ev, &done);
    dl_tuner_probe_launched(probe, *err == CL_SUCCESS ? *ev : NULL, on);
    int say = on && !rk->said_on++;
    const char *order = r->order;
    size_t n = r->n;
    int forced = r->forced;
    rt_unlock();
    if (say)
        DL_LOG_INFO("kernel '%s' runs renumbered (%s order, %zu vertices): "
                    "%s",
                    k->name, order, n,
                    forced ? "DL_IRREGULAR=renumber"
                           : "tried by the tuner (DL_POLICY=auto)");
    if (own)
        dl_cl.clReleaseEvent(own);
    rt_events_free(&done);
    return 1;
}
