/* rt_reorder.c - a launch of a kernel activated for its indirect reads
 * (rt_reorder.h).  Per gather parameter of the redirected form: A' for
 * (A, P, offset) over all of P, from the cache when A and P kept their
 * versions, else gathered on the launch's queue after what the launch
 * waits for; then the activated variant with the copies as its extra
 * arguments.  A kernel marked `launch: chunks` may run in chunks instead
 * (rt_chunks.c): its gathers per chunk on dlayout's own queue, or over
 * DL_GATHER_BUDGET only the chunks whose prefix of A' fits.  Lookups, stores,
 * argument setting and the enqueue are under the lock; the variant's build and
 * the gathers (whose program build may block) are not. */
#define _GNU_SOURCE /* asprintf */
#include "rt_reorder.h"
#include "gather.h"
#include "reorder_cache.h"
#include "rt_chunks.h"
#include "rt_indirect.h"
#include "rt_reorder_job.h"
#include "rt_reorder_predict.h"
#include "rt_reorder_tune.h"
#include "tuner_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- planning */

static int same_offset(const dl_annot_indirect *x, const dl_annot_indirect *y)
{
    char a[128] = "", b[128] = "";
    if (x->offset)
        dl_dims_format(x->offset, a, sizeof a);
    if (y->offset)
        dl_dims_format(y->offset, b, sizeof b);
    return !strcmp(a, b);
}

/* The variant's parameter that reference r of ak reads (dl-annotate's
 * names: dl_gather_<A>_<P>, then _2, _3 for the same A and P with other
 * offsets, in the order of the references), or -1. */
static int64_t gather_param(const dl_annot_kernel *ak, uint32_t r)
{
    const dl_annot_indirect *ref = &ak->indirect[r];
    unsigned same = 0; /* earlier (A, P) groups with other offsets */
    for (uint32_t i = 0; i < r; i++) {
        const dl_annot_indirect *o = &ak->indirect[i];
        if (o->array != ref->array || o->via != ref->via)
            continue;
        if (same_offset(o, ref))
            return gather_param(ak, i);
        int first = 1; /* o opens a group: no earlier one has its offset */
        for (uint32_t j = 0; j < i && first; j++)
            first = !(ak->indirect[j].array == o->array &&
                      ak->indirect[j].via == o->via &&
                      same_offset(&ak->indirect[j], o));
        same += first;
    }
    char *name = NULL;
    int n = same ? asprintf(&name, "dl_gather_%s_%s_%u", ref->array_name,
                            ref->via_name, same + 1)
                 : asprintf(&name, "dl_gather_%s_%s", ref->array_name,
                            ref->via_name);
    int64_t found = -1;
    for (uint32_t i = 0; n >= 0 && i < ak->nparams && found < 0; i++)
        if (!strcmp(ak->params[i].name, name))
            found = i;
    free(name);
    return found;
}

/* How many parameters of ak the redirected form added. */
static uint32_t gather_params_declared(const dl_annot_kernel *ak)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ak->nparams; i++)
        n += !strncmp(ak->params[i].name, "dl_gather_", 10);
    return n;
}

int rt_reorder_planned(const dl_annot_kernel *ak)
{
    if (!ak || !ak->ok || !ak->nindirect)
        return 0;
    for (uint32_t a = 0; a < ak->nargs; a++)
        if (ak->args[a].from.kind != ak->args[a].to.kind ||
            ak->args[a].from.tile != ak->args[a].to.tile)
            return 0;
    uint32_t groups = 0;
    for (uint32_t r = 0; r < ak->nindirect; r++) {
        int64_t p = gather_param(ak, r);
        if (ak->indirect[r].write || p < 0)
            return 0;
        int first = 1;
        for (uint32_t i = 0; i < r && first; i++)
            first = gather_param(ak, i) != p;
        groups += first;
    }
    return groups > 0 && groups <= RT_GATHERS &&
           groups == gather_params_declared(ak);
}

/* ------------------------------------------------------ one launch's jobs */

/* Why a launch declines, per kernel once (k->warned bits are the layout
 * path's; these are counted in `declined` the same way). */
static void decline(rt_kernel *k, const char *why)
{
    rt_lock();
    int first = !k->reorder_warned;
    k->reorder_warned = 1;
    rt_unlock();
    if (!first)
        return;
    RT_ADD(dl_rt.stats.declined, 1);
    DL_LOG_INFO_AT(k->prog ? k->prog->name : "<source>",
                   k->annot ? k->annot->line : 0,
                   "kernel '%s' runs as written: %s", k->name, why);
}

static size_t mem_size(cl_mem m)
{
    size_t size = 0;
    if (!m || dl_cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size,
                                       NULL) != CL_SUCCESS)
        return 0;
    return size;
}

/* The key of reference r at launch c: A' over every entry of P, whole
 * elements, so that one copy serves every reference through (A, P,
 * offset) whatever its index and field, also one in a row-bounded loop
 * (CSR), which may read any entry of P its bounds arrays name.  NULL, or
 * why not. */
static const char *job_key(const launch_call *c, const rt_kernel *k,
                           const dl_annot_indirect *r, gather_job *j)
{
    dl_dims_raw_arg raw[64];
    dl_dims_env env = rt_indirect_env(c, k, raw);
    /* A row-bounded loop's entries are unknown without its bounds'
     * contents: its range stays empty (no chunks), its offset is known. */
    dl_annot_indirect_range range = {0};
    void *options = k->prog ? k->prog->options : NULL;
    if ((r->rows[0].index ? dl_annot_indirect_offset(r, k->annot->nparams, &env,
                                                     rt_indirect_macro, options,
                                                     &range.offset)
                          : dl_annot_indirect_eval(r, k->annot->nparams, &env,
                                                   rt_indirect_macro, options,
                                                   &range)) != DL_SUCCESS)
        return "its offset cannot be evaluated at this launch";
    cl_mem a = rt_launch_arg_mem(k, r->array), p = rt_launch_arg_mem(k, r->via);
    size_t isz = dl_int_type_size(r->via_type);
    size_t p_bytes = mem_size(p);
    if (!a || !p || !isz || p_bytes < isz)
        return "an array or index buffer argument is not a buffer";
    j->at = range;
    j->key =
        (dl_reorder_key){.a = a,
                         .p = p,
                         .ref = {r->elem_size, 0, r->elem_size, range.offset},
                         .range = {p_bytes / isz, 1, 0, 1, 0},
                         .index_bytes = (unsigned)isz};
    dl_gather_extent x;
    if (dl_gather_extent_of(&j->key.ref, &j->key.range, p_bytes / isz, &x) !=
            DL_SUCCESS ||
        !x.bytes)
        return "the reordered copy has no size";
    j->bytes = x.bytes;
    return NULL;
}

/* The gather parameters of k at launch c, into jobs[]; their count, or
 * 0 with the reason in *why. */
static uint32_t make_jobs(const launch_call *c, const rt_kernel *k,
                          gather_job *jobs, const char **why)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < k->annot->nindirect; r++) {
        uint32_t param = (uint32_t)gather_param(k->annot, r);
        int seen = 0;
        for (uint32_t i = 0; i < n && !seen; i++)
            seen = jobs[i].param == param;
        if (seen)
            continue;
        jobs[n] = (gather_job){.ref = &k->annot->indirect[r], .param = param};
        if ((*why = job_key(c, k, jobs[n].ref, &jobs[n])))
            return 0;
        n++;
    }
    return n;
}

/* --------------------------------------------------------- under the lock */

static uint64_t version_of(const rt_buffer *b)
{
    const rt_buffer *parent = b->parent ? rt_buffer_find(b->parent) : NULL;
    return RT_LOAD(b->version) + (parent ? RT_LOAD(parent->version) : 0) +
           RT_LOAD(dl_rt.wild_writes);
}

/* Locked: b becomes read by a cached copy: its blocking accesses take
 * the locked path from now on (rt_access.c), which sees its writes, and
 * launch memos end: those remade after know that their launches write
 * it (rt_reorder_writes_gathered).  NULL, or why it cannot. */
static const char *watch(rt_buffer *b)
{
    if (b->transformed)
        return "an array or index buffer is in a converted layout";
    if (b->pinned) /* e.g. USE_HOST_PTR: the host may write it unseen */
        return "an array or index buffer stays in the program's hands";
    if (b->gathered)
        return NULL;
    __atomic_store_n(&b->ever_converted, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->host_busy, __ATOMIC_SEQ_CST))
        return "another thread is reading or writing an array or index "
               "buffer";
    b->gathered = 1;
    rt_memos_invalidate();
    return NULL;
}

/* The cache's budget in bytes (locked). */
static size_t cache_budget;

/* Locked: the cache, made at its first use with DL_GATHER_BUDGET of the
 * launch's device. */
static dl_reorder_cache *cache_for(cl_command_queue queue)
{
    if (dl_rt.reorder)
        return dl_rt.reorder;
    cl_device_id dev = NULL;
    dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
    size_t budget =
        dev ? dl_gather_budget_bytes(dev, dl_rt.controls.gather_budget) : 0;
    dl_reorder_cache *cache = NULL;
    if (budget && dl_reorder_cache_create(budget, &cache) == DL_SUCCESS) {
        cache_budget = budget;
        __atomic_store_n(&dl_rt.reorder, cache, __ATOMIC_RELEASE);
    }
    return cache;
}

/* Locked: the ordering rule for every buffer argument (a command that
 * touches it waits for its pending conversion back, on any queue), into
 * *order.  NULL, or why the launch declines: an argument in a converted
 * layout, which the launch as written restores first. */
static const char *order_args(const launch_call *c, const rt_kernel *k,
                              rt_events *order)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (b && b->transformed)
            return "an argument is in a converted layout";
        if (b)
            rt_buffer_order(b, c->queue, order);
    }
    return NULL;
}

/* Locked: looks each job up; A and P, tracked from now on, add their
 * ordering events to *order.  NULL, or why the launch declines. */
static const char *lookup(const launch_call *c, gather_job *jobs, uint32_t n,
                          rt_events *order, rt_chunk_plan *plan)
{
    dl_reorder_cache *cache = cache_for(c->queue);
    if (!cache)
        return "DL_GATHER_BUDGET allows no device memory";
    size_t need = 0;
    for (uint32_t i = 0; i < n; i++)
        need += jobs[i].bytes;
    if (need > cache_budget && !rt_chunks_fit(plan, jobs, n, cache_budget))
        return "its reordered copies exceed DL_GATHER_BUDGET, and no chunk "
               "of its range fits (partial duplication needs a chunked "
               "launch)";
    const char *why = NULL;
    for (uint32_t i = 0; i < n; i++) {
        gather_job *j = &jobs[i];
        rt_buffer *a = rt_buffer_get(j->key.a), *p = rt_buffer_get(j->key.p);
        if (!a || !p)
            return "an array or index buffer cannot be tracked";
        why = watch(a);
        why = why ? why : watch(p);
        if (why)
            return why;
        j->version_a = version_of(a);
        j->version_p = version_of(p);
        dl_reorder_found f = dl_reorder_cache_lookup(
            cache, &j->key, j->version_a, j->version_p, &j->a_prime, &j->ready);
        if (f == DL_REORDER_HIT) {
            RT_ADD(dl_rt.stats.reorder_hits, 1);
            continue;
        }
        if (f == DL_REORDER_STALE) {
            /* A fresh copy: launches still reading the old one keep it. */
            RT_ADD(dl_rt.stats.reorder_invalidations, 1);
            dl_cl.clReleaseMemObject(j->a_prime);
            j->a_prime = NULL;
        }
        j->gather = 1;
        rt_buffer_order(a, c->queue, order); /* newly tracked */
        rt_buffer_order(p, c->queue, order);
    }
    return NULL;
}

/* ----------------------------------------------------- without the lock */

/* Gathers the jobs the cache did not hold, after the launch's wait list
 * and the ordering events.  NULL, or why not. */
static const char *gather(const launch_call *c, gather_job *jobs, uint32_t n,
                          cl_uint nwait, const cl_event *wait,
                          const rt_events *order, rt_chunk_plan *plan)
{
    dl_engine *engine = NULL;
    cl_context ctx = NULL;
    for (uint32_t i = 0; i < n; i++) {
        gather_job *j = &jobs[i];
        if (!j->gather)
            continue;
        if (!engine) {
            rt_lock();
            dl_status st = rt_context_engine(c->queue, &engine);
            rt_unlock();
            if (st != DL_SUCCESS || dl_cl.clGetCommandQueueInfo(
                                        c->queue, CL_QUEUE_CONTEXT, sizeof ctx,
                                        &ctx, NULL) != CL_SUCCESS)
                return "no engine for the launch's queue";
        }
        cl_int err;
        j->a_prime =
            dl_cl.clCreateBuffer(ctx, CL_MEM_READ_WRITE, j->bytes, NULL, &err);
        if (!j->a_prime)
            return "the reordered copy cannot be allocated";
        rt_events joined = {0};
        cl_uint nw = 0;
        const cl_event *w = rt_events_join(&joined, nwait, wait, order, &nw);
        const char *why =
            plan->overlap ? rt_chunks_gather(c, plan, engine, i, j, nw, w)
            : dl_enqueue_gather(engine, c->queue, j->key.a, j->key.p,
                                &j->key.ref, &j->key.range, j->key.index_bytes,
                                j->a_prime, nw, w, &j->ready) != DL_SUCCESS
                ? dl_last_error()
                : NULL;
        rt_events_free(&joined);
        if (why)
            return why;
        RT_ADD(dl_rt.stats.reorders, 1);
    }
    return NULL;
}

/* Locked: keeps the new copies, records the gathers as uses of A and P
 * (a later conversion waits for them). */
static void store(const launch_call *c, gather_job *jobs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        gather_job *j = &jobs[i];
        if (!j->gather)
            continue;
        if (dl_rt.reorder)
            dl_reorder_cache_store(dl_rt.reorder, &j->key, j->version_a,
                                   j->version_p, j->a_prime, j->ready);
        rt_buffer *a = rt_buffer_find(j->key.a), *p = rt_buffer_find(j->key.p);
        if (a)
            rt_buffer_used(a, c->queue, j->ready);
        if (p)
            rt_buffer_used(p, c->queue, j->ready);
    }
}

static void jobs_free(gather_job *jobs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (jobs[i].a_prime)
            dl_cl.clReleaseMemObject(jobs[i].a_prime);
        if (jobs[i].ready)
            dl_cl.clReleaseEvent(jobs[i].ready);
    }
}

/* Locked: the variant with the copies (n jobs), or the program's kernel
 * (none), after the caller's list, the ordering events and the gathers;
 * its event is a use of every tracked argument, and goes to the probe. */
static cl_int enqueue(const launch_call *c, rt_kernel *k, gather_job *jobs,
                      uint32_t n, cl_uint nwait, const cl_event *wait,
                      rt_events *order, rt_chunk_plan *plan,
                      dl_tuner_probe *probe, cl_event *event)
{
    cl_kernel kernel = n ? k->xform : c->kernel;
    cl_int err = n ? rt_launch_sync_args(k) : CL_SUCCESS;
    for (uint32_t i = 0; i < n && err == CL_SUCCESS; i++) {
        err = dl_cl.clSetKernelArg(k->xform, jobs[i].param, sizeof(cl_mem),
                                   &jobs[i].a_prime);
        if (jobs[i].ready && !rt_chunks_per_chunk(plan, i))
            rt_events_push_once(order, jobs[i].ready);
    }
    if (err != CL_SUCCESS) {
        dl_tuner_probe_launched(probe, NULL, 0);
        return err;
    }
    rt_events joined = {0};
    cl_uint nw = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, order, &nw);
    cl_event own = NULL;
    cl_event *ev = event ? event : &own;
    int chunked = n && (plan->overlap || plan->gathered < plan->count);
    err = chunked ? rt_chunks_enqueue(c, kernel, plan, n, nw, w, ev)
          : c->task
              ? rt_fwd.clEnqueueTask(c->queue, kernel, nw, w, ev)
              : rt_fwd.clEnqueueNDRangeKernel(c->queue, kernel, c->work_dim,
                                              c->offset, c->global, c->local,
                                              nw, w, ev);
    dl_tuner_probe_launched(probe, err == CL_SUCCESS ? *ev : NULL, n > 0);
    if (err == CL_SUCCESS && *ev)
        for (cl_uint i = 0; i < k->nargs; i++) {
            cl_mem m = rt_launch_arg_mem(k, i);
            rt_buffer *b = m ? rt_buffer_find(m) : NULL;
            if (b)
                rt_buffer_used(b, c->queue, *ev);
        }
    if (err == CL_SUCCESS)
        rt_reorder_kernel_wrote(k);
    if (own)
        dl_cl.clReleaseEvent(own);
    rt_events_free(&joined);
    return err;
}

static int gathered_once; /* atomic: a gather program was built */

/* Whether a launch gathers some copy rather than finding all in the
 * cache. */
static int any_gather(const gather_job *jobs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (jobs[i].gather)
            return 1;
    return 0;
}

/* Under DL_POLICY=auto the tuner decides (rt_reorder_tune.h). */
static int tuned(void)
{
    return dl_rt.controls.policy == DL_POLICY_AUTO && dl_rt.tuner;
}

/* Locked: slot of the (a, p) pair in what k saw, or -1. */
static int seen_slot(const rt_reorder_seen *s, cl_mem a, cl_mem p)
{
    for (int i = 0; i < RT_SEEN_PAIRS; i++)
        if (s->a[i] == a && s->p[i] == p)
            return i;
    return -1;
}

/* Locked: notes the versions of the n jobs' A and P at this launch of k:
 * a copy whose pair changed version since k's previous launch, or was
 * not seen then, would be gathered again here (a loop that reads the
 * vector its previous launch wrote).  The first launch sees nothing.
 * A and P are tracked from their first sight, so that the launches that
 * write them move their versions; writes dlayout does not see (the
 * host's, before A is watched) look unchanged: the tuner then probes as
 * before, and measures them. */
static void note_versions(rt_kernel *k, const gather_job *jobs, uint32_t n)
{
    rt_reorder_seen *s = &k->reorder_seen;
    int first = s->a[0] == NULL;
    for (uint32_t i = 0; i < n; i++) {
        const dl_reorder_key *key = &jobs[i].key;
        rt_buffer *a = rt_buffer_get(key->a), *p = rt_buffer_get(key->p);
        if (!a || !p)
            continue;
        uint64_t version = version_of(a) + version_of(p);
        int slot = seen_slot(s, key->a, key->p);
        int stale = slot < 0 || s->version[slot] != version;
        if (slot < 0) {
            slot = (int)(s->next++ % RT_SEEN_PAIRS);
            s->a[slot] = key->a;
            s->p[slot] = key->p;
        }
        s->version[slot] = version;
        if (first)
            continue;
        s->seen_bytes += (double)jobs[i].bytes;
        if (!stale)
            continue;
        s->stale_bytes += (double)jobs[i].bytes;
        s->stale_most = k->annot->params[jobs[i].ref->array].name;
    }
}

/* The choice for this launch: always the variant under DL_POLICY=always,
 * the tuner's under auto (docs/tuning.md), keyed by the work sizes `sig`,
 * told what the n jobs' gathers would move. */
static dl_tuner_choice choose(const launch_call *c, rt_kernel *k,
                              const gather_job *jobs, uint32_t n, uint64_t sig)
{
    dl_tuner_choice always = {1, 0, 0, 0};
    if (!tuned())
        return always;
    rt_reorder_sizes sizes = {0, 0, n, 0, NULL};
    for (uint32_t i = 0; i < n; i++) {
        sizes.index_bytes +=
            jobs[i].key.range.threads * jobs[i].key.index_bytes;
        sizes.copy_bytes += jobs[i].bytes;
    }
    rt_lock();
    note_versions(k, jobs, n);
    const rt_reorder_seen *seen = &k->reorder_seen;
    if (seen->seen_bytes > 0)
        sizes.stale_share = seen->stale_bytes / seen->seen_bytes;
    sizes.stale_array = seen->stale_most;
    rt_unlock();
    return rt_reorder_tune(c, k, sig, &sizes, RT_LOAD(gathered_once));
}

/* The gathers the launch needs (some may be cached): NULL, or why not.
 * On success the jobs hold the copies and *order their ordering events. */
static const char *prepare(const launch_call *c, rt_kernel *k, gather_job *jobs,
                           uint32_t n, cl_uint nwait, const cl_event *wait,
                           rt_events *order, rt_chunk_plan *plan)
{
    rt_lock();
    const char *why = lookup(c, jobs, n, order, plan);
    rt_unlock();
    if (!why && any_gather(jobs, n))
        rt_chunks_choose_overlap(k, plan);
    why = why ? why : gather(c, jobs, n, nwait, wait, order, plan);
    if (!why)
        __atomic_store_n(&gathered_once, 1, __ATOMIC_RELAXED);
    return why;
}

int rt_reorder_launch(const launch_call *c, rt_kernel *k, cl_uint nwait,
                      const cl_event *wait, cl_event *event, cl_int *err)
{
    gather_job jobs[RT_GATHERS];
    const char *why = NULL;
    uint32_t n = make_jobs(c, k, jobs, &why);
    if (!n) {
        decline(k, why);
        return 0;
    }
    uint64_t sig = rt_reorder_signature(c);
    dl_tuner_choice tc = choose(c, k, jobs, n, sig);
    if (tc.transform && !rt_launch_xform_kernel(k, &(rt_global_end){0}, NULL)) {
        rt_lock();
        k->reorder = 0; /* logged there: it runs as written from now on */
        rt_unlock();
        return 0;
    }
    rt_events order = {0};
    rt_lock();
    why = order_args(c, k, &order);
    rt_unlock();
    /* A plain launch under auto: the analyser's sample reads before it
     * (and before a measured launch's start), so that it is counted while
     * the launch runs. */
    if (!why && !tc.transform && tuned() && rt_reorder_predict_wanted(k, sig))
        rt_reorder_predict_before(c, k, sig, nwait, wait, &order);
    dl_tuner_probe *probe = tc.measure
                                ? dl_tuner_probe_begin(dl_rt.tuner, tc.ticket,
                                                       c->queue, nwait, wait)
                                : NULL;
    rt_chunk_plan plan;
    rt_chunks_plan(c, k, jobs, tc.transform ? n : 0, &plan);
    plan.probed = probe != NULL;
    if (!why && tc.transform) {
        why = prepare(c, k, jobs, n, nwait, wait, &order, &plan);
        rt_events gathers = {0}; /* overlapped: none (never probed) */
        for (uint32_t i = 0; !why && !plan.overlap && i < n; i++)
            if (jobs[i].gather)
                rt_events_push(&gathers, jobs[i].ready);
        dl_tuner_probe_converted(probe, gathers.n, gathers.ev);
        rt_events_free(&gathers);
    }
    if (!why) {
        rt_lock();
        if (tc.transform)
            store(c, jobs, n);
        *err = enqueue(c, k, jobs, tc.transform ? n : 0, nwait, wait, &order,
                       &plan, probe, event);
        if (*err == CL_SUCCESS && tc.transform)
            rt_stats_ran_transformed(k);
        rt_unlock();
        /* A copy gathered again (its array or index written since, as
         * in a loop that writes the vector it reads next): the tuner
         * weighs such gathers as paid at every launch, not once. */
        if (*err == CL_SUCCESS && tc.transform && tc.ticket &&
            any_gather(jobs, n))
            dl_tuner_note_conversion(dl_rt.tuner, tc.ticket);
        if (*err == CL_SUCCESS)
            rt_chunks_time(c, k, &plan);
    } else
        dl_tuner_probe_launched(probe, NULL, 0);
    rt_chunks_free(&plan);
    jobs_free(jobs, n);
    rt_events_free(&order);
    if (why)
        decline(k, why);
    return !why;
}

/* ------------------------------------------------------------- versions */

/* Whether launches of k may write its argument i. */
static int writes_arg(const rt_kernel *k, cl_uint i)
{
    const dl_annot_kernel *ak = k->annot;
    if (!ak || i >= ak->nparams)
        return 1;
    if (ak->params[i].pointee_const || ak->params[i].space == DL_SPACE_CONSTANT)
        return 0;
    if (k->reorder) /* the redirected form reads its A and P only */
        for (uint32_t r = 0; r < ak->nindirect; r++)
            if (ak->indirect[r].array == i || ak->indirect[r].via == i)
                return 0;
    return 1;
}

void rt_reorder_kernel_wrote(const rt_kernel *k)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m && writes_arg(k, i) ? rt_buffer_find(m) : NULL;
        if (b)
            rt_buffer_wrote(b);
    }
}

int rt_reorder_writes_gathered(const rt_kernel *k, cl_uint i,
                               const rt_buffer *b)
{
    return b->gathered && writes_arg(k, i);
}

void rt_reorder_forget(rt_buffer *b)
{
    if (b->gathered && dl_rt.reorder)
        dl_reorder_cache_forget(dl_rt.reorder, b->mem);
}

const char *rt_reorder_watch(rt_buffer *b)
{
    return watch(b);
}

uint64_t rt_reorder_version(const rt_buffer *b)
{
    return version_of(b);
}
