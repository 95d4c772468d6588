/* rt_tripswap_plan.c - the planning of job swapping by trip count, on a
 * thread of its own once the key arrays' reads completed
 * (rt_tripswap.h): each job's key, R by decreasing key (stable), the
 * predicted warp steps before and after at the device's W and at 32,
 * the decision logged once at info level, and where it sorts, R uploaded
 * and the job-swapped form built.  Never under dlayout's lock but for
 * the final store; it stops where the process exits
 * (rt_irregular_stopping). */
#include "rt_tripswap_plan.h"
#include "job_swap.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Under auto, sorting must cut the predicted warp steps by this share at
 * least: the tuner's least transaction saving worth a probe (tuner.h,
 * min_saving). */
#define TRIP_MIN_SAVING 0.10

uint64_t rt_trips_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void rt_trips_free(rt_trips *t)
{
    if (!t)
        return;
    if (t->variant)
        dl_cl.clReleaseKernel(t->variant);
    if (t->job)
        dl_cl.clReleaseMemObject(t->job);
    free(t);
}

void rt_trips_plan_free(rt_trips_plan *p)
{
    if (!p)
        return;
    if (p->read)
        dl_cl.clReleaseEvent(p->read);
    if (p->context)
        dl_cl.clReleaseContext(p->context);
    if (p->st) {
        rt_lock();
        if (p->st->trips)
            p->st->trips->reading = 0;
        rt_irregular_unref(p->st);
        rt_unlock();
    }
    for (int i = 0; i < 2; i++)
        free(p->host[i]);
    free(p->kernel);
    free(p->source);
    free(p->options);
    free(p);
}

/* Term i's entry for job t, or 0 where the read stopped short. */
static int64_t term(const rt_trips_plan *p, unsigned i, size_t t)
{
    uint64_t e = (uint64_t)t * p->stride[i];
    if (e >= p->entries[i])
        return 0;
    int64_t v = 0;
    dl_int_decode((const char *)p->host[i] + e * dl_int_type_size(p->type[i]),
                  dl_int_type_size(p->type[i]), p->type[i], &v);
    return v;
}

/* Each job's trip count: the key, 0 where it is negative. */
static uint64_t *trip_counts(const rt_trips_plan *p)
{
    uint64_t *len = malloc((p->global ? p->global : 1) * sizeof *len);
    for (size_t t = 0; len && t < p->global; t++) {
        int64_t key = term(p, 0, t);
        if (p->nterms == 2 && __builtin_sub_overflow(key, term(p, 1, t), &key))
            key = 0;
        len[t] = key > 0 ? (uint64_t)key : 0;
    }
    return len;
}

/* The predicted warp steps at the device's W into *before and *after,
 * logged with those at W = 32; whether sorting is wanted. */
static int predict(const rt_trips_plan *p, const uint64_t *len,
                   const size_t *job, uint64_t *before, uint64_t *after)
{
    dl_coalesce_geometry g;
    if (!p->device || dl_coalesce_geometry_for_device(p->device, p->field_bytes,
                                                      &g) != DL_SUCCESS)
        g = dl_coalesce_geometry_gpu();
    *before = dl_job_swap_steps(len, NULL, p->global, g.simd_width);
    *after = dl_job_swap_steps(len, job, p->global, g.simd_width);
    uint64_t b32 = dl_job_swap_steps(len, NULL, p->global, 32);
    uint64_t a32 = dl_job_swap_steps(len, job, p->global, 32);
    double saving = *before ? 1.0 - (double)*after / (double)*before : 0;
    int wanted = p->forced || saving >= TRIP_MIN_SAVING;
    DL_LOG_INFO("irregular: kernel '%s' %s by trip count: predicted warp "
                "steps W=%u: %llu -> %llu (%.1f%% fewer), W=32: %llu -> %llu "
                "(%.1f%% fewer); %s",
                p->kernel, wanted ? "sorts its jobs" : "keeps its jobs' order",
                g.simd_width, (unsigned long long)*before,
                (unsigned long long)*after, 100.0 * saving,
                (unsigned long long)b32, (unsigned long long)a32,
                b32 ? 100.0 - 100.0 * (double)a32 / (double)b32 : 0.0,
                p->forced ? "DL_IRREGULAR=jobswap"
                : wanted  ? "sorting may pay"
                          : "below the tenth it must save");
    return wanted;
}

/* Locked: the outcome.  A first planning that sorts nothing declines for
 * good; a later one keeps the previous R. */
static void store(rt_trips_plan *p, cl_kernel variant, cl_mem job,
                  uint64_t before, uint64_t after)
{
    cl_mem old_job = NULL;
    rt_lock();
    rt_trips *t = p->st->gone ? NULL : p->st->trips;
    if (t && job && (variant || t->variant)) {
        old_job = t->job;
        t->job = job;
        job = NULL;
        if (!t->variant) {
            t->variant = variant;
            variant = NULL;
        }
        t->ready = 1;
        t->global = p->global;
        t->steps_before = before;
        t->steps_after = after;
        t->cost_ns += (double)(rt_trips_now_ns() - p->start_ns);
        memcpy(t->key_mem, p->key_mem, sizeof t->key_mem);
        memcpy(t->version, p->version, sizeof t->version);
    } else if (t && !t->ready) {
        t->declined = 1;
    }
    rt_unlock();
    if (variant)
        dl_cl.clReleaseKernel(variant);
    if (job)
        dl_cl.clReleaseMemObject(job);
    if (old_job)
        dl_cl.clReleaseMemObject(old_job);
}

static void plan(rt_trips_plan *p)
{
    uint64_t *len = trip_counts(p), before = 0, after = 0;
    size_t *job = malloc((p->global ? p->global : 1) * sizeof *job);
    const char *why = "out of host memory";
    cl_mem r = NULL;
    cl_kernel variant = NULL;
    /* The sort and the prediction take no OpenCL: they run (and say
     * what they found) also where the process exits meanwhile. */
    if (len && job &&
        dl_job_swap_by_length(len, p->global, job) == DL_SUCCESS &&
        predict(p, len, job, &before, &after) && !rt_irregular_stopping()) {
        r = rt_jobswap_upload_map(p->context, job, p->global, p->global, &why);
        if (r && p->build && !rt_irregular_stopping())
            variant = rt_jobswap_build_form(p->context, p->device, p->source,
                                            p->source_len, p->options,
                                            p->kernel, &why);
        if (r && p->build && !variant) {
            DL_LOG_INFO("irregular: kernel '%s' runs as before: %s", p->kernel,
                        why);
            dl_cl.clReleaseMemObject(r);
            r = NULL;
        }
    }
    free(len);
    free(job);
    store(p, variant, r, before, after);
}

static void *plan_thread(void *arg)
{
    rt_trips_plan *p = arg;
    plan(p);
    rt_trips_plan_free(p);
    rt_irregular_flight(-1);
    return NULL;
}

static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    rt_trips_plan *p = user;
    if (!rt_irregular_flight(1))
        return; /* exiting: dropped, with what it holds */
    if (status == CL_COMPLETE && !rt_irregular_spawn(plan_thread, p))
        return;
    DL_LOG_INFO("irregular: kernel '%s' keeps its jobs' order: %s", p->kernel,
                status == CL_COMPLETE ? "no planning thread"
                                      : "the jobs key's read failed");
    rt_trips_plan_free(p);
    rt_irregular_flight(-1);
}

int rt_tripswap_plan_start(rt_trips_plan *p)
{
    return dl_cl.clSetEventCallback(p->read, CL_COMPLETE, on_read, p) ==
                   CL_SUCCESS
               ? 0
               : -1;
}
