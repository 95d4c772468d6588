/* rt_jobswap_plan.c - the planning of one kernel's method, on a thread of
 * its own once P's read completed (rt_jobswap.h): the transactions as
 * written, duplicated and job-swapped (the analyser), the choice (the
 * selector, or DL_IRREGULAR) logged once at info level, and for job swap
 * R uploaded and the job-swapped form built.  Never under dlayout's lock
 * but for the final store.  The exit stops the planning threads running:
 * each checks between its steps, and before any OpenCL call, whether the
 * process exits, and then drops its planning; the exit waits only for
 * the step in flight (an OpenCL call included), since those threads use
 * OpenCL, before the process goes on to tear it down. */
#define _GNU_SOURCE /* asprintf */
#include "rt_jobswap_plan.h"
#include "freq_order.h"
#include "job_swap.h"
#include "padding_slots.h"
#include "permute.h"
#include "rt_padding.h"
#include "rt_permute.h"
#include "rt_tripswap.h"
#include "rt_sharing.h"
#include "sharing_slots.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------- in flight */

static pthread_mutex_t flight_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flight_done = PTHREAD_COND_INITIALIZER;
static unsigned in_flight; /* planning threads running */
static int exiting;        /* no planning starts or goes on from now on */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

/* At exit: the plannings running stop at their next step (the one in
 * flight finishes, at most 30 s); a read that completes later starts
 * none (its planning is dropped). */
static void wait_in_flight(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 30;
    pthread_mutex_lock(&flight_lock);
    exiting = 1;
    while (in_flight &&
           pthread_cond_timedwait(&flight_done, &flight_lock, &until) == 0)
        ;
    pthread_mutex_unlock(&flight_lock);
}

static void register_exit(void)
{
    atexit(wait_in_flight);
}

/* Under the lock that the exit sets it with: planning threads check it
 * between steps, not in inner loops, and a checker (helgrind) then sees
 * the order an atomic alone would not show it. */
int rt_irregular_stopping(void)
{
    pthread_mutex_lock(&flight_lock);
    int stopping = exiting;
    pthread_mutex_unlock(&flight_lock);
    return stopping;
}

int rt_irregular_flight(int delta)
{
    pthread_once(&exit_once, register_exit);
    pthread_mutex_lock(&flight_lock);
    int ok = delta < 0 || !exiting;
    if (ok)
        in_flight += (unsigned)delta;
    if (!in_flight)
        pthread_cond_broadcast(&flight_done);
    pthread_mutex_unlock(&flight_lock);
    return ok;
}

/* ------------------------------------------------------------ state */

void rt_irregular_unref(rt_irregular *st)
{
    if (--st->refs)
        return;
    if (st->variant)
        dl_cl.clReleaseKernel(st->variant);
    if (st->job)
        dl_cl.clReleaseMemObject(st->job);
    rt_padding_unref(st->pad);
    rt_trips_free(st->trips);
    free(st);
}

void rt_jobswap_plan_free(rt_jobswap_plan *p)
{
    if (!p)
        return;
    if (p->read)
        dl_cl.clReleaseEvent(p->read);
    if (p->context)
        dl_cl.clReleaseContext(p->context);
    if (p->st) {
        rt_lock();
        p->st->reading = 0;
        rt_irregular_unref(p->st);
        rt_unlock();
    }
    if (p->pad_kernel)
        dl_cl.clReleaseKernel(p->pad_kernel);
    dl_padding_slots_free(p->padding);
    free(p->padding);
    dl_sharing_slots_free(p->sharing);
    free(p->sharing);
    free(p->pad_job);
    free(p->host);
    free(p->kernel);
    free(p->source);
    free(p->options);
    free(p);
}

/* ---------------------------------------------------------- counting */

static int64_t entry(const void *host, dl_int_type type, size_t i)
{
    switch (type) {
    case DL_INT_I8:
        return ((const int8_t *)host)[i];
    case DL_INT_U8:
        return ((const uint8_t *)host)[i];
    case DL_INT_I16:
        return ((const int16_t *)host)[i];
    case DL_INT_U16:
        return ((const uint16_t *)host)[i];
    case DL_INT_I32:
        return ((const int32_t *)host)[i];
    case DL_INT_U32:
        return ((const uint32_t *)host)[i];
    case DL_INT_U64:
        return (int64_t)((const uint64_t *)host)[i];
    default:
        return ((const int64_t *)host)[i];
    }
}

/* Transactions of the reference over idx[0..n) read as `range`; the
 * duplication layout's into *after. */
static uint64_t transactions(const dl_coalesce_geometry *g,
                             const dl_coalesce_ref *ref,
                             const dl_coalesce_range *range, const int64_t *idx,
                             size_t n, uint64_t *after)
{
    dl_coalesce_counts c = {0, 0, 0};
    if (!n || dl_coalesce_count(g, ref, range, idx, n, 8, &c) != DL_SUCCESS)
        return 0;
    if (after)
        *after = c.after;
    return c.before;
}

/* The work-items whose every step reads an entry that was read: the
 * first ones (the entries grow with t); the rest keep their jobs. */
size_t rt_jobswap_active(const rt_jobswap_plan *p)
{
    uint64_t last_step = (p->steps - 1) * p->j_stride;
    if (last_step >= p->entries)
        return 0;
    if (!p->t_stride)
        return p->global;
    uint64_t n = (p->entries - 1 - last_step) / p->t_stride + 1;
    return n < p->global ? (size_t)n : p->global;
}

/* P's entries as 64-bit numbers, and work-item t's at step j in
 * per_item[t * steps + j], t < active, in job order `job` (NULL: t). */
static void entries_by_item(const rt_jobswap_plan *p, const int64_t *all,
                            size_t active, const size_t *job, int64_t *out)
{
    for (size_t t = 0; t < active; t++)
        for (uint64_t j = 0; j < p->steps; j++)
            out[t * p->steps + j] =
                all[(job ? job[t] : t) * p->t_stride + j * p->j_stride];
}

/* The transactions of P's entries `all` as read, with A permuted in the
 * order the permutation layout would choose (rt_permute_plan.c: the
 * fewest transactions among first touch and METIS's, permute_choose.h):
 * P' = pi o P.  0 when out of memory. */
static uint64_t remapped(const rt_jobswap_plan *p,
                         const dl_coalesce_geometry *g,
                         const dl_coalesce_range *as_read, const int64_t *all)
{
    uint32_t *pi = malloc(p->elements * sizeof *pi);
    int64_t *moved = malloc((p->entries ? p->entries : 1) * sizeof *moved);
    dl_perm_source src = {
        *g, p->ref.elem_bytes, p->elements, *as_read, all, p->entries, 8};
    dl_perm_choice choice;
    uint64_t tx = 0;
    if (pi && moved &&
        rt_permute_choose(p->remap_keyed ? &p->remap_key : NULL, &src, pi,
                          &choice) == DL_SUCCESS) {
        for (size_t i = 0; i < p->entries; i++)
            moved[i] = all[i] >= 0 && (uint64_t)all[i] < p->elements
                           ? (int64_t)pi[all[i]]
                           : all[i];
        tx = transactions(g, &p->ref, as_read, moved, p->entries, NULL);
    }
    free(pi);
    free(moved);
    return tx;
}

/* Padding's R over the whole range: the frequency order of the first
 * `active` work-items' first reads (elem), then the rest in their own
 * order.  NULL when out of memory (padding then keeps launch order). */
static size_t *padding_jobs(const rt_jobswap_plan *p, const int64_t *elem,
                            size_t active)
{
    dl_freq_order o;
    size_t *job = malloc((p->global ? p->global : 1) * sizeof *job);
    if (!job || dl_freq_order_build(elem, active, &o) != DL_SUCCESS) {
        free(job);
        return NULL;
    }
    for (size_t t = 0; t < p->global; t++)
        job[t] = t < active ? o.job[t] : t;
    dl_freq_order_free(&o);
    return job;
}

/* R by segment for the first `active` work-items into job[] (a job's
 * segment: the one it reads at its first step), and the three counts
 * into the facts.  0, or -1 when out of memory. */
static int plan_jobs(rt_jobswap_plan *p, size_t active, size_t *job)
{
    dl_coalesce_geometry g;
    if (!p->device || dl_coalesce_geometry_for_device(
                          p->device, p->ref.field_bytes, &g) != DL_SUCCESS)
        g = dl_coalesce_geometry_gpu();
    size_t items = active * p->steps;
    int64_t *all = malloc((p->entries ? p->entries : 1) * sizeof *all);
    int64_t *elem = malloc((active ? active : 1) * sizeof *elem);
    int64_t *swapped = malloc((items ? items : 1) * sizeof *swapped);
    int ok = all && elem && swapped;
    for (size_t i = 0; ok && i < p->entries; i++)
        all[i] = entry(p->host, p->type, i);
    for (size_t t = 0; ok && t < active; t++)
        elem[t] = all[t * p->t_stride] + p->ref.offset;
    unsigned per_segment = g.segment_bytes / p->ref.elem_bytes;
    ok = ok && !rt_irregular_stopping() &&
         (!active || dl_job_swap_by_segment(elem, active, g.simd_width,
                                            per_segment ? per_segment : 1,
                                            job) == DL_SUCCESS);
    /* Each step checks first whether the process exits. */
    dl_coalesce_range as_read = {p->global, p->steps, 0, p->t_stride,
                                 p->j_stride};
    dl_coalesce_range by_item = {active, p->steps, 0, p->steps, 1};
    if (ok && !rt_irregular_stopping())
        p->facts.tx_none = transactions(&g, &p->ref, &as_read, all, p->entries,
                                        &p->facts.tx_duplication);
    if (ok && !rt_irregular_stopping()) {
        entries_by_item(p, all, active, job, swapped);
        p->facts.tx_job_swap =
            transactions(&g, &p->ref, &by_item, swapped, items, NULL);
    }
    if (ok && p->facts.remap_form && !rt_irregular_stopping())
        p->facts.tx_remap = remapped(p, &g, &as_read, all);
    int clustered = p->facts.padding_form ||
                    (p->facts.sharing_form && p->sharing_clustered);
    if (ok && clustered && p->facts.jobswap_form && !rt_irregular_stopping())
        p->pad_job = padding_jobs(p, elem, active);
    p->sharing_clustered &= p->pad_job != NULL;
    if (ok && p->facts.padding_form && !rt_irregular_stopping())
        rt_padding_plan(p, all, &g, &as_read);
    if (ok && p->facts.sharing_form && !rt_irregular_stopping())
        rt_sharing_plan(p, all, &g, &as_read);
    free(all);
    free(elem);
    free(swapped);
    return ok ? 0 : -1;
}

/* ---------------------------------------------------------- building */

cl_mem rt_jobswap_upload_map(cl_context context, const size_t *job,
                             size_t active, size_t global, const char **why)
{
    uint32_t *r = malloc((global ? global : 1) * sizeof *r);
    if (!r) {
        *why = "out of host memory";
        return NULL;
    }
    for (size_t t = 0; t < global; t++)
        r[t] = (uint32_t)(t < active ? job[t] : t);
    cl_int err = CL_SUCCESS;
    cl_mem m =
        dl_cl.clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             global * sizeof *r, r, &err);
    free(r);
    if (!m)
        *why = "the job map cannot be allocated on the device";
    return m;
}

cl_kernel rt_jobswap_build_forms(cl_context context, cl_device_id device,
                                 const char *source, size_t source_len,
                                 const char *options, const char *kernel,
                                 int swap, int share, const char **why)
{
    char *all = NULL;
    if (asprintf(&all, "%s%s%s%s%s", options, swap ? " -D DL_JOBSWAP_" : "",
                 swap ? kernel : "", share ? " -D DL_SHARE_" : "",
                 share ? kernel : "") < 0) {
        *why = "out of host memory";
        return NULL;
    }
    cl_int err = CL_SUCCESS;
    cl_program prog =
        dl_cl.clCreateProgramWithSource(context, 1, &source, &source_len, &err);
    if (prog)
        err = dl_cl.clBuildProgram(prog, 1, &device, all, NULL, NULL);
    cl_kernel k = prog && err == CL_SUCCESS
                      ? dl_cl.clCreateKernel(prog, kernel, &err)
                      : NULL;
    if (prog)
        dl_cl.clReleaseProgram(prog); /* the kernel keeps it */
    free(all);
    if (!k)
        *why = share ? "the shared form does not build"
                     : "the job-swapped form does not build";
    return k;
}

cl_kernel rt_jobswap_build_form(cl_context context, cl_device_id device,
                                const char *source, size_t source_len,
                                const char *options, const char *kernel,
                                const char **why)
{
    return rt_jobswap_build_forms(context, device, source, source_len, options,
                                  kernel, 1, 0, why);
}

/* R over the whole range: the planned jobs, then the work-items past P
 * in their own order; uploaded.  NULL, or *why. */
static cl_mem upload(rt_jobswap_plan *p, const size_t *job, size_t active,
                     const char **why)
{
    if (rt_irregular_stopping()) {
        *why = "the process exits";
        return NULL;
    }
    return rt_jobswap_upload_map(p->context, job, active, p->global, why);
}

/* The kernel of the job-swapped form (`swap`), the shared form
 * (`share`) or both: the program's source built with its options and
 * DL_JOBSWAP_<kernel>, DL_SHARE_<kernel>.  NULL, or *why. */
static cl_kernel build(rt_jobswap_plan *p, int swap, int share,
                       const char **why)
{
    if (rt_irregular_stopping()) { /* nothing would run it */
        *why = "the process exits";
        return NULL;
    }
    return rt_jobswap_build_forms(p->context, p->device, p->source,
                                  p->source_len, p->options, p->kernel, swap,
                                  share, why);
}

/* ------------------------------------------------------------ thread */

/* Locked: the decision, with the variant and R for job swap, A'' and Q'
 * for padding. */
static void store(rt_jobswap_plan *p, rt_irregular_path path, cl_kernel variant,
                  cl_mem job, rt_pad *pad)
{
    rt_lock();
    rt_irregular *st = p->st;
    if (!st->gone && !st->decided) {
        st->path = path;
        st->variant = variant;
        st->job = job;
        st->pad = pad;
        st->range = (rt_irregular_range){p->global, p->base, p->t_stride,
                                         p->j_stride, p->steps};
        st->decided = 1;
        variant = NULL;
        job = NULL;
        pad = NULL;
    }
    rt_padding_unref(pad);
    rt_unlock();
    if (variant)
        dl_cl.clReleaseKernel(variant);
    if (job)
        dl_cl.clReleaseMemObject(job);
}

/* Sharing's pad: the shared form built (job-swapped too, with R
 * uploaded, where clustered) and the plan uploaded.  NULL, or *why. */
static rt_pad *shared(rt_jobswap_plan *p, const char **why)
{
    int swap = p->sharing_clustered;
    cl_mem r = swap ? upload(p, p->pad_job, p->global, why) : NULL;
    cl_kernel variant = !swap || r ? build(p, swap, 1, why) : NULL;
    rt_pad *pad = variant ? rt_sharing_upload(p, variant, r, why) : NULL;
    if (variant) /* the pad holds its own */
        dl_cl.clReleaseKernel(variant);
    if (r)
        dl_cl.clReleaseMemObject(r);
    return pad;
}

/* What the kernel's other references get under `path` (the method
 * chosen for the planned one), and why: one line each at info level. */
static void log_others(const rt_jobswap_plan *p, rt_irregular_path path)
{
    if (p->same_p[0])
        DL_LOG_INFO("irregular: %s: %s %s", p->label, p->same_p,
                    path == RT_PATH_REMAP
                        ? "permuted by the same pi (read only through the "
                          "same index buffer)"
                    : path == RT_PATH_JOB_SWAP
                        ? "follows the job map (it moves work-items: every "
                          "reference at once)"
                        : "takes the kernel's path: the method was chosen "
                          "for the planned reference");
    if (!p->others[0])
        return;
    const char *how =
        path == RT_PATH_JOB_SWAP
            ? "follows the job map (it moves work-items: every reference at "
              "once)"
        : path == RT_PATH_ASIS
            ? "keeps its path (the reordering path's form gathers every "
              "reference it names)"
            : "runs as written: the method chosen for the planned reference "
              "serves it alone (one method a kernel)";
    DL_LOG_INFO("irregular: %s: %s %s", p->label, p->others, how);
}

static void plan(rt_jobswap_plan *p)
{
    size_t active = rt_jobswap_active(p);
    size_t *job = malloc((active ? active : 1) * sizeof *job);
    int failed = !job || plan_jobs(p, active, job);
    if (failed ||
        rt_irregular_stopping()) { /* exiting: dropped, no launch follows */
        if (!rt_irregular_stopping())
            DL_LOG_INFO("irregular: %s keeps its path: out of host memory",
                        p->label);
        free(job);
        store(p, RT_PATH_ASIS, NULL, NULL, NULL);
        return;
    }
    dl_selection sel;
    rt_irregular_path path = rt_select_path(p->mode, &p->facts, &sel);
    DL_LOG_INFO("irregular: %s: %s, %s: %s (transactions per launch: "
                "%llu as written, %llu duplicated, %llu job-swapped, %llu "
                "permuted, %llu padded, %llu shared; memory: %zu B "
                "duplicated, %zu B padded, %zu B shared)",
                p->label, dl_irregular_method_name(sel.method),
                rt_select_path_words(path), sel.reason,
                (unsigned long long)p->facts.tx_none,
                (unsigned long long)p->facts.tx_duplication,
                (unsigned long long)p->facts.tx_job_swap,
                (unsigned long long)p->facts.tx_remap,
                (unsigned long long)p->facts.tx_padding,
                (unsigned long long)p->facts.tx_sharing,
                p->facts.bytes_duplication, p->facts.bytes_padding,
                p->facts.bytes_sharing);
    cl_mem r = NULL;
    cl_kernel variant = NULL;
    rt_pad *pad = NULL;
    const char *why = NULL;
    if (path == RT_PATH_JOB_SWAP) {
        r = upload(p, job, active, &why);
        variant = r ? build(p, 1, 0, &why) : NULL;
    }
    free(job);
    if (path == RT_PATH_PADDING && p->pad_job) {
        /* A'' and Q' hold the values whatever R: without the variant, the
         * program's kernel reads them right, only less coalesced. */
        r = upload(p, p->pad_job, p->global, &why);
        variant = r ? build(p, 1, 0, &why) : NULL;
        if (!variant)
            DL_LOG_INFO("irregular: %s runs padded without its job map: %s",
                        p->label, why);
    }
    int stop = rt_irregular_stopping();
    if (stop)
        why = "the process exits";
    if (path == RT_PATH_PADDING &&
        (stop || !(pad = rt_padding_upload(p, p->padding, variant,
                                           variant ? r : NULL, &why)))) {
        DL_LOG_INFO("irregular: %s runs as written: %s", p->label, why);
        path = RT_PATH_PLAIN;
    }
    if (path == RT_PATH_SHARING && (stop || !(pad = shared(p, &why)))) {
        DL_LOG_INFO("irregular: %s runs as written: %s", p->label, why);
        path = RT_PATH_PLAIN;
    }
    if (path == RT_PATH_PADDING || path == RT_PATH_PLAIN) {
        if (variant) /* the pad holds its own */
            dl_cl.clReleaseKernel(variant);
        if (r)
            dl_cl.clReleaseMemObject(r);
        variant = NULL;
        r = NULL;
    }
    if (path == RT_PATH_JOB_SWAP && !variant) {
        DL_LOG_INFO("irregular: %s runs as written: %s", p->label, why);
        if (r)
            dl_cl.clReleaseMemObject(r);
        r = NULL;
        path = RT_PATH_PLAIN;
    }
    log_others(p, path);
    store(p, path, variant, r, pad);
}

static void *plan_thread(void *arg)
{
    rt_jobswap_plan *p = arg;
    plan(p);
    rt_jobswap_plan_free(p);
    rt_stats_thread_done();
    rt_irregular_flight(-1);
    return NULL;
}

int rt_irregular_spawn(void *(*fn)(void *), void *arg)
{
    pthread_t thread;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr))
        return -1;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int failed = pthread_create(&thread, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return failed ? -1 : 0;
}

static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    rt_jobswap_plan *p = user;
    if (!rt_irregular_flight(1))
        return; /* exiting: dropped, with what it holds */
    if (status == CL_COMPLETE && !rt_irregular_spawn(plan_thread, p))
        return;
    DL_LOG_INFO("irregular: %s keeps its path: %s", p->label,
                status == CL_COMPLETE ? "no planning thread"
                                      : "the index buffer's read failed");
    store(p, RT_PATH_ASIS, NULL, NULL, NULL);
    rt_jobswap_plan_free(p);
    rt_stats_thread_done();
    rt_irregular_flight(-1);
}

int rt_jobswap_plan_start(rt_jobswap_plan *p)
{
    return dl_cl.clSetEventCallback(p->read, CL_COMPLETE, on_read, p) ==
                   CL_SUCCESS
               ? 0
               : -1;
}
