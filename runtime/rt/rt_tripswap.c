/* rt_tripswap.c - the launches of a kernel whose jobs are sorted by trip
 * count (rt_tripswap.h): until R is ready they take their path as before
 * (DL_IRREGULAR=auto: the reordering path) or run as written (forced),
 * the one that may plan reads the key arrays after itself without
 * blocking (rt_tripswap_plan.c plans from them); then the job-swapped
 * form runs with R, under DL_POLICY=auto where the tuner chooses it,
 * the launches it keeps plain taking their path as before. */
#define _GNU_SOURCE /* strdup */
#include "rt_indirect.h"
#include "rt_reorder.h"
#include "rt_reorder_tune.h"
#include "rt_tripswap_plan.h"
#include "tuner_timing.h"

#include <stdlib.h>
#include <string.h>

/* The planning's estimated cost per job (the key reads, the sort, the
 * counts: as the selector's per index entry, rt_jobswap.c). */
#define TRIP_PLAN_NS_PER_JOB 150.0

int rt_tripswap_applies(const rt_kernel *k)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    return (mode == DL_IRREGULAR_AUTO || mode == DL_IRREGULAR_JOBSWAP) &&
           k->annot && k->annot->njobs && rt_irregular_jobswap_form(k->annot);
}

/* Whether the tuner decides the sorted launches: DL_POLICY=auto with the
 * selector (DL_IRREGULAR=jobswap sorts wherever it plans). */
static int tuned(void)
{
    return dl_rt.controls.policy == DL_POLICY_AUTO &&
           dl_rt.controls.irregular == DL_IRREGULAR_AUTO && dl_rt.tuner;
}

/* ------------------------------------------------------------ planning */

/* Term i of the key at launch c: its array, first entry, stride and the
 * entries the launch reads, up to the array's end.  NULL, or why not. */
static const char *key_term(const launch_call *c, const rt_kernel *k,
                            const dl_annot_rows_range *at, unsigned i,
                            rt_trips_plan *p)
{
    const dl_annot_bound *b = &k->annot->jobs[i];
    size_t isz = dl_int_type_size(b->type), bytes = 0;
    cl_mem m = rt_launch_arg_mem(k, b->array);
    if (at->base[i] < 0 || at->stride[i] < 0)
        return "the jobs key's index decreases or starts before its array";
    if (!m || !isz ||
        dl_cl.clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
            CL_SUCCESS ||
        (uint64_t)at->base[i] >= bytes / isz)
        return "the jobs key's array holds no entry the launch reads";
    uint64_t left = bytes / isz - (uint64_t)at->base[i], last;
    if (__builtin_mul_overflow((uint64_t)(c->global[0] - 1),
                               (uint64_t)at->stride[i], &last) ||
        last >= left)
        last = left - 1;
    p->key_mem[i] = m;
    p->type[i] = b->type;
    p->stride[i] = (uint64_t)at->stride[i];
    p->entries[i] = (size_t)last + 1;
    p->host[i] = malloc(p->entries[i] * isz);
    return p->host[i] ? NULL : "out of host memory";
}

/* A planning of launch c, its reads not enqueued.  NULL, or *why. */
static rt_trips_plan *new_plan(const launch_call *c, rt_kernel *k, int build,
                               size_t first[2], const char **why)
{
    dl_dims_raw_arg raw[64];
    dl_dims_env env = rt_indirect_env(c, k, raw);
    dl_annot_rows_range at;
    rt_trips_plan *p = calloc(1, sizeof *p);
    *why = p ? NULL : "out of host memory";
    if (p && dl_annot_jobs_eval(k->annot, &env, rt_indirect_macro,
                                k->prog->options, &at) != DL_SUCCESS)
        *why = "the jobs key cannot be evaluated at this launch (a macro "
               "the build options do not define?)";
    if (p)
        p->nterms = k->annot->njobs;
    for (unsigned i = 0; p && !*why && i < p->nterms; i++) {
        *why = key_term(c, k, &at, i, p);
        first[i] = (size_t)at.base[i];
    }
    if (p && !*why) {
        dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof p->device,
                                    &p->device, NULL);
        dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_CONTEXT,
                                    sizeof p->context, &p->context, NULL);
        p->kernel = strdup(k->name);
        p->options = strdup(k->prog->options ? k->prog->options : "");
        p->source = malloc(k->prog->source_len + 1);
        if (!p->context || !p->kernel || !p->options || !p->source ||
            dl_cl.clRetainContext(p->context) != CL_SUCCESS) {
            p->context = NULL;
            *why = "out of host memory";
        }
    }
    if (*why) {
        rt_trips_plan_free(p);
        return NULL;
    }
    memcpy(p->source, k->prog->source, k->prog->source_len);
    p->source_len = k->prog->source_len;
    p->global = c->global[0];
    p->build = build;
    p->forced = dl_rt.controls.irregular == DL_IRREGULAR_JOBSWAP;
    p->field_bytes = k->annot->nindirect && k->annot->indirect[0].field_size
                         ? k->annot->indirect[0].field_size
                         : 4;
    return p;
}

/* Locked: the key arrays watched for writes, their versions taken, and
 * the planning's hold on the state.  NULL, or why not. */
static const char *watch(rt_irregular *st, rt_trips_plan *p)
{
    for (unsigned i = 0; i < p->nterms; i++) {
        rt_buffer *b = rt_buffer_get(p->key_mem[i]);
        const char *why = !b ? "the jobs key's array cannot be tracked"
                          : b->transformed
                              ? "the jobs key's array is in a converted layout"
                              : rt_reorder_watch(b);
        if (why)
            return why;
        p->version[i] = rt_reorder_version(b);
    }
    p->st = st;
    st->refs++;
    st->trips->reading = 1;
    return NULL;
}

/* The reads of the key arrays after `launched`, one after the other,
 * handed to the planning.  NULL, or why not (p is then freed). */
static const char *read_keys(const launch_call *c, rt_irregular *st,
                             rt_trips_plan *p, const size_t first[2],
                             cl_event launched)
{
    p->start_ns = rt_trips_now_ns();
    rt_lock();
    const char *why = watch(st, p);
    rt_unlock();
    cl_event after = launched, ev = NULL;
    for (unsigned i = 0; !why && i < p->nterms; i++) {
        size_t isz = dl_int_type_size(p->type[i]);
        if (dl_cl.clEnqueueReadBuffer(c->queue, p->key_mem[i], CL_FALSE,
                                      first[i] * isz, p->entries[i] * isz,
                                      p->host[i], 1, &after, &ev) != CL_SUCCESS)
            why = "the jobs key's array cannot be read";
        if (after != launched)
            dl_cl.clReleaseEvent(after);
        after = ev;
    }
    if (why) {
        rt_trips_plan_free(p);
        return why;
    }
    p->read = ev;
    dl_cl.clFlush(c->queue); /* the reads run even if nothing waits */
    RT_ADD(dl_rt.stats.trip_plans, 1);
    if (rt_tripswap_plan_start(p))
        /* The reads go on into p's buffers: p stays allocated (a rare
         * failure of clSetEventCallback). */
        return "no completion callback on the jobs key's read";
    return NULL;
}

/* Locked: the trip-count state, made at the first launch. */
static rt_trips *trips_of(rt_irregular *st)
{
    if (st && !st->trips)
        st->trips = calloc(1, sizeof *st->trips);
    return st ? st->trips : NULL;
}

/* Sorting is off for k: said once, at info level. */
static void decline(rt_kernel *k, rt_irregular *st, const char *why)
{
    rt_lock();
    rt_trips *t = trips_of(st);
    int first = t && !t->declined && !t->ready;
    if (first)
        t->declined = 1;
    rt_unlock();
    if (first)
        DL_LOG_INFO("irregular: kernel '%s' keeps its jobs' order: %s", k->name,
                    why);
}

/* After launch `launched` of c: a planning, building the variant where
 * `build`. */
static void plan_after(const launch_call *c, rt_kernel *k, rt_irregular *st,
                       int build, cl_event launched)
{
    size_t first[2] = {0, 0};
    const char *why = NULL;
    rt_trips_plan *p = new_plan(c, k, build, first, &why);
    why = p ? read_keys(c, st, p, first, launched) : why;
    if (why)
        decline(k, st, why);
}

/* ------------------------------------------------------------ launches */

/* What one launch found of the state, with the variant and R retained. */
typedef struct snapshot {
    int declined, ready, reading, fits, stale, announce;
    cl_kernel variant;
    cl_mem job;
    uint64_t before, after;
    double cost_ns;
} snapshot;

/* Locked: whether a key array's buffer or version changed since R. */
static int keys_changed(const rt_kernel *k, const rt_trips *t)
{
    for (uint32_t i = 0; i < k->annot->njobs; i++) {
        cl_mem m = rt_launch_arg_mem(k, k->annot->jobs[i].array);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (m != t->key_mem[i] || !b || rt_reorder_version(b) != t->version[i])
            return 1;
    }
    return 0;
}

static snapshot take(const launch_call *c, const rt_kernel *k, rt_trips *t)
{
    snapshot s = {0};
    rt_lock();
    s.declined = t->declined;
    s.ready = t->ready;
    s.reading = t->reading;
    s.fits = t->ready && c->global[0] == t->global;
    s.stale = s.ready && !s.reading && keys_changed(k, t);
    s.announce = s.fits && !t->announced;
    t->announced |= s.fits;
    if (s.fits) {
        s.variant = t->variant;
        s.job = t->job;
        dl_cl.clRetainKernel(s.variant);
        dl_cl.clRetainMemObject(s.job);
    }
    s.before = t->steps_before;
    s.after = t->steps_after;
    s.cost_ns = t->cost_ns;
    rt_unlock();
    return s;
}

/* Under DL_POLICY=auto: the tuner's choice, keyed apart from the kernel's
 * other patterns; the planning, build and upload count as paid up front,
 * the predicted warp steps bound the saving. */
static dl_tuner_choice tune(const launch_call *c, rt_kernel *k,
                            const snapshot *s)
{
    dl_tuner_prediction p = {0};
    p.first_ns = s->cost_ns;
    p.past_horizon = 1;
    p.transactions_before = (double)s->before;
    p.transactions_after = (double)s->after;
    uint64_t sig = dl_tuner_signature(rt_reorder_signature(c), 0x74726970);
    dl_tuner_launch l = {k, k->name, sig, &p, 0};
    return dl_tuner_choose(dl_rt.tuner, &l);
}

/* Under DL_IRREGULAR=auto the launches that run neither sorted nor
 * measured for the tuner take their path as before (the reordering path
 * and its tuner, which may gather); forced, they run as written. */
static int keeps_path(void)
{
    return dl_rt.controls.irregular == DL_IRREGULAR_AUTO;
}

/* The path as before, run here for the launch's event (a planning's). */
static rt_irregular_launched as_before(const launch_call *c, rt_kernel *k,
                                       cl_uint nwait, const cl_event *wait,
                                       cl_event *ev, cl_int *err)
{
    if (keeps_path() && k->reorder &&
        rt_reorder_launch(c, k, nwait, wait, ev, err))
        return RT_IRREGULAR_DONE;
    return rt_irregular_run(c, k, c->kernel, NULL, nwait, wait, ev, err);
}

/* A launch with R, or as written measured for the tuner, or as before
 * (ASIS where the caller's path may run it: not `planning`). */
static rt_irregular_launched launch(const launch_call *c, rt_kernel *k,
                                    const snapshot *s, int planning,
                                    cl_uint nwait, const cl_event *wait,
                                    cl_event *ev, cl_int *err)
{
    dl_tuner_choice tc = {s->fits, 0, 0, 0};
    if (s->fits && tuned())
        tc = tune(c, k, s);
    if (!tc.transform && !tc.measure)
        return planning || !keeps_path() ? as_before(c, k, nwait, wait, ev, err)
                                         : RT_IRREGULAR_ASIS;
    dl_tuner_probe *probe = tc.measure
                                ? dl_tuner_probe_begin(dl_rt.tuner, tc.ticket,
                                                       c->queue, nwait, wait)
                                : NULL;
    dl_tuner_probe_converted(probe, 0, NULL);
    rt_irregular_args x = {.job = s->job};
    rt_irregular_launched done =
        rt_irregular_run(c, k, tc.transform ? s->variant : c->kernel,
                         tc.transform ? &x : NULL, nwait, wait, ev, err);
    int ok = done == RT_IRREGULAR_DONE && *err == CL_SUCCESS;
    dl_tuner_probe_launched(probe, ok ? *ev : NULL, tc.transform);
    if (ok && tc.transform)
        RT_ADD(dl_rt.stats.trip_launches, 1);
    return done;
}

/* Whether this launch starts a planning (at its first, once the kernel
 * could pay it under auto, or where R is stale or for another range). */
static int plans_now(const launch_call *c, rt_kernel *k, rt_irregular *st,
                     const snapshot *s)
{
    if (s->reading || s->declined)
        return 0;
    if (s->ready)
        return s->stale || !s->fits;
    double cost =
        (double)c->global[0] * k->annot->njobs * TRIP_PLAN_NS_PER_JOB +
        (double)k->prog->build_ns;
    return rt_irregular_plan_pays(k, st, cost);
}

rt_irregular_launched rt_tripswap_launch(const launch_call *c, rt_kernel *k,
                                         rt_irregular *st, cl_uint nwait,
                                         const cl_event *wait, cl_event *event,
                                         cl_int *err)
{
    const char *why = rt_irregular_unplannable(c);
    rt_lock();
    rt_trips *t = trips_of(st);
    rt_unlock();
    if (!t)
        return RT_IRREGULAR_ASIS;
    if (why) { /* planned already: this launch alone takes that path */
        decline(k, st, why);
        return RT_IRREGULAR_ASIS;
    }
    snapshot s = take(c, k, t);
    if (s.declined)
        return RT_IRREGULAR_ASIS;
    if (s.announce && tuned())
        DL_LOG_INFO("irregular: kernel '%s' has its jobs sorted by trip "
                    "count from this launch on (%zu work-items): the tuner "
                    "chooses between that and the kernel as written",
                    k->name, c->global[0]);
    else if (s.announce)
        DL_LOG_INFO("irregular: kernel '%s' runs its jobs sorted by trip "
                    "count from this launch on (%zu work-items)",
                    k->name, c->global[0]);
    int plan = plans_now(c, k, st, &s);
    cl_event own = NULL, *ev = event ? event : &own;
    rt_irregular_launched done = launch(c, k, &s, plan, nwait, wait, ev, err);
    if (plan && done == RT_IRREGULAR_DONE && *err == CL_SUCCESS && *ev)
        plan_after(c, k, st, !s.ready, *ev);
    if (own)
        dl_cl.clReleaseEvent(own);
    if (s.fits) {
        dl_cl.clReleaseKernel(s.variant);
        dl_cl.clReleaseMemObject(s.job);
    }
    return done;
}
