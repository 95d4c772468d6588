/* rt_reorder_predict.c - samples of a reordered kernel's index buffers,
 * counted for the tuner (rt_reorder_predict.h).  One sample per kernel
 * and launch shape, kept in a list under a mutex of its own, which is
 * never held across an OpenCL call. */
#include "rt_reorder_predict.h"
#include "rt_indirect_count.h"

#include <stdlib.h>

typedef struct sample {
    const rt_kernel *k;
    uint64_t sig;
    unsigned pending; /* reads not counted yet                     */
    int failed;       /* one could not be enqueued or counted      */
    int forgotten;    /* k released: freed by the last count       */
    dl_coalesce_counts counts;
    struct sample *next;
} sample;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sample *samples;

/* Locked. */
static sample *find(const rt_kernel *k, uint64_t sig)
{
    for (sample *s = samples; s; s = s->next)
        if (s->k == k && s->sig == sig && !s->forgotten)
            return s;
    return NULL;
}

/* Locked. */
static void unlink_sample(sample *s)
{
    for (sample **p = &samples; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            return;
        }
}

int rt_reorder_predict_wanted(const rt_kernel *k, uint64_t sig)
{
    pthread_mutex_lock(&lock);
    int wanted = !find(k, sig);
    sample *s = wanted ? calloc(1, sizeof *s) : NULL;
    if (s) {
        *s = (sample){.k = k, .sig = sig, .next = samples};
        samples = s;
    }
    pthread_mutex_unlock(&lock);
    return s != NULL;
}

/* A read counted (the counting thread): into its sample. */
static void counted(rt_job *j, dl_status st, const dl_coalesce_counts *c)
{
    sample *s = j->owner;
    pthread_mutex_lock(&lock);
    if (st != DL_SUCCESS)
        s->failed = 1;
    s->counts.accesses += c->accesses;
    s->counts.before += c->before;
    s->counts.after += c->after;
    int last = --s->pending == 0;
    dl_coalesce_counts sum = s->counts;
    int failed = s->failed;
    if (last && s->forgotten)
        free(s);
    pthread_mutex_unlock(&lock);
    if (last) /* a launch waiting for plain times may stop waiting */
        dl_tuner_wake(dl_rt.tuner);
    if (last)
        DL_LOG_DEBUG("reorder: a sample counted: %llu warp-accesses, %llu -> "
                     "%llu transactions%s",
                     (unsigned long long)sum.accesses,
                     (unsigned long long)sum.before,
                     (unsigned long long)sum.after,
                     failed ? " (a read failed: not used)" : "");
}

/* The reads of the sample, after `after` (NULL: in the queue's order). */
static void enqueue_reads(const launch_call *c, const rt_kernel *k,
                          uint64_t sig, cl_event after)
{
    cl_device_id dev = NULL;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                    NULL) != CL_SUCCESS)
        dev = NULL;
    pthread_mutex_lock(&lock);
    sample *s = find(k, sig);
    if (s) /* held while reads are enqueued: their counts wait for this */
        s->pending++;
    pthread_mutex_unlock(&lock);
    if (!s)
        return;
    const char *why = NULL;
    for (uint32_t i = 0; i < k->annot->nindirect && !why; i++) {
        const dl_annot_indirect *r = &k->annot->indirect[i];
        rt_job proto = {.counted = counted, .owner = s};
        if (!dev || dl_coalesce_geometry_for_device(
                        dev, r->field_size, &proto.geometry) != DL_SUCCESS)
            proto.geometry = dl_coalesce_geometry_gpu();
        pthread_mutex_lock(&lock);
        s->pending++;
        pthread_mutex_unlock(&lock);
        why = rt_indirect_read(c, k, r, after, RT_PREDICT_THREADS, &proto);
        if (why) /* not enqueued: its count never comes */
            counted(&(rt_job){.owner = s}, DL_INVALID_ARGUMENT,
                    &(dl_coalesce_counts){0});
    }
    if (why)
        DL_LOG_DEBUG("reorder: kernel '%s': no predicted transactions: %s",
                     k->name, why);
    counted(&(rt_job){.owner = s}, DL_SUCCESS, &(dl_coalesce_counts){0});
}

void rt_reorder_predict_before(const launch_call *c, const rt_kernel *k,
                               uint64_t sig, cl_uint nwait,
                               const cl_event *wait, const rt_events *order)
{
    rt_events joined = {0};
    cl_uint n = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, order, &n);
    cl_event after = NULL;
    if (n && dl_cl.clEnqueueMarkerWithWaitList(c->queue, n, w, &after) !=
                 CL_SUCCESS) {
        DL_LOG_DEBUG("reorder: kernel '%s': no predicted transactions: no "
                     "marker for the launch's wait list",
                     k->name);
        rt_events_free(&joined);
        return;
    }
    rt_events_free(&joined);
    enqueue_reads(c, k, sig, after);
    if (after)
        dl_cl.clReleaseEvent(after);
}

void rt_reorder_predicted(const rt_kernel *k, uint64_t sig, double *before,
                          double *after)
{
    *before = *after = 0;
    pthread_mutex_lock(&lock);
    const sample *s = find(k, sig);
    if (s && !s->pending && !s->failed && s->counts.accesses) {
        *before = (double)s->counts.before / (double)s->counts.accesses;
        *after = (double)s->counts.after / (double)s->counts.accesses;
    }
    pthread_mutex_unlock(&lock);
}

void rt_reorder_predict_forget(const rt_kernel *k)
{
    pthread_mutex_lock(&lock);
    for (sample *s = samples, *n; s; s = n) {
        n = s->next;
        if (s->k != k)
            continue;
        unlink_sample(s);
        if (s->pending)
            s->forgotten = 1; /* its last count frees it */
        else
            free(s);
    }
    pthread_mutex_unlock(&lock);
}
