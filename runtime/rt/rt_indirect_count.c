/* rt_indirect_count.c - the counting side of DL_COALESCING: the totals of
 * each indirect reference, the reads still pending, and a thread of its
 * own that counts each completed read (dl_coalesce_count), so that
 * neither the OpenCL implementation's callback thread nor the program's
 * threads do that work.  The exit counts what is left and prints one line
 * per reference.  Nothing here takes dl_rt.lock. */
#define _GNU_SOURCE /* strdup */
#include "rt_indirect.h"
#include "rt_indirect_count.h"

#include <stdlib.h>
#include <string.h>

struct rt_total {
    char *kernel, *array, *via;
    unsigned line; /* of the annotation                              */
    int ambiguous; /* another reference of the kernel: same A and P  */
    dl_coalesce_geometry geometry;
    dl_coalesce_counts counts;
    uint64_t launches, skipped;
    char *why; /* the last reason a launch was not counted      */
    rt_total *next;
};

/* `lock` guards everything below.  It is never held across an OpenCL
 * call that can block, nor while counting. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t idle = PTHREAD_COND_INITIALIZER;
static rt_total *totals, **totals_end = &totals;
static rt_job *pending; /* reads not completed                */
static rt_job *done, **done_end = &done; /* completed, to count        */
static unsigned busy; /* jobs the thread is counting        */
static pthread_once_t started = PTHREAD_ONCE_INIT;
static int thread_ok;

/* ----------------------------------------------------------------- totals */

static int same_ref(const rt_total *t, const char *kernel,
                    const dl_annot_indirect *r, dl_coalesce_geometry g)
{
    return t->line == r->line && !strcmp(t->kernel, kernel) &&
           !strcmp(t->array, r->array_name) && !strcmp(t->via, r->via_name) &&
           t->geometry.simd_width == g.simd_width &&
           t->geometry.segment_bytes == g.segment_bytes;
}

/* Whether another reference of the kernel reads the same A through P. */
static int ambiguous(const dl_annot_kernel *k, const dl_annot_indirect *r)
{
    for (uint32_t i = 0; i < k->nindirect; i++)
        if (&k->indirect[i] != r &&
            !strcmp(k->indirect[i].array_name, r->array_name) &&
            !strcmp(k->indirect[i].via_name, r->via_name))
            return 1;
    return 0;
}

static rt_total *new_total(const dl_annot_kernel *k, const dl_annot_indirect *r,
                           dl_coalesce_geometry g)
{
    rt_total *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    *t = (rt_total){.kernel = strdup(k->name),
                    .array = strdup(r->array_name),
                    .via = strdup(r->via_name),
                    .line = r->line,
                    .ambiguous = ambiguous(k, r),
                    .geometry = g};
    if (t->kernel && t->array && t->via)
        return t;
    free(t->kernel);
    free(t->array);
    free(t->via);
    free(t);
    return NULL;
}

rt_total *rt_total_of(const dl_annot_kernel *k, const dl_annot_indirect *r,
                      dl_coalesce_geometry g)
{
    pthread_mutex_lock(&lock);
    rt_total *t = totals;
    while (t && !same_ref(t, k->name, r, g))
        t = t->next;
    if (!t && (t = new_total(k, r, g)) != NULL) {
        *totals_end = t; /* in the order of first use */
        totals_end = &t->next;
    }
    pthread_mutex_unlock(&lock);
    return t;
}

dl_coalesce_geometry rt_total_geometry(const rt_total *t)
{
    return t->geometry;
}

static void skip_locked(rt_total *t, const char *why)
{
    t->skipped++;
    if (!t->why || strcmp(t->why, why)) {
        free(t->why);
        t->why = strdup(why);
    }
}

void rt_total_skip(rt_total *t, const char *why)
{
    pthread_mutex_lock(&lock);
    skip_locked(t, why);
    pthread_mutex_unlock(&lock);
}

/* --------------------------------------------------------------- counting */

/* dl_coalesce_count reads 4- or 8-byte signed entries: other types are
 * widened to 8 bytes (a uint above INT_MAX stays positive). */
static const void *signed_entries(const rt_job *j, int64_t **wide,
                                  unsigned *bytes)
{
    *wide = NULL;
    *bytes = (unsigned)dl_int_type_size(j->type);
    if (j->type == DL_INT_I32 || j->type == DL_INT_I64)
        return j->host;
    *wide = malloc(j->count * sizeof **wide);
    if (!*wide)
        return NULL;
    for (size_t i = 0; i < j->count; i++)
        if (dl_int_decode((const char *)j->host + i * *bytes, *bytes, j->type,
                          &(*wide)[i]) != DL_SUCCESS)
            (*wide)[i] = -1; /* a ulong beyond INT64_MAX: outside A */
    *bytes = 8;
    return *wide;
}

/* The counts of j's entries (no lock: CPU work only). */
static dl_status count_job(const rt_job *j, dl_coalesce_counts *c)
{
    int64_t *wide;
    unsigned bytes;
    if (j->status != CL_COMPLETE)
        return dl_fail(DL_INVALID_ARGUMENT, "the read of the index buffer "
                                            "failed");
    const void *entries = signed_entries(j, &wide, &bytes);
    dl_status st = !entries ? dl_fail(DL_OUT_OF_MEMORY, "out of host memory")
                   : j->rows
                       ? rt_rows_count(j, entries, bytes, c)
                       : dl_coalesce_count(&j->geometry, &j->ref, &j->range,
                                           entries, j->count, bytes, c);
    free(wide);
    return st;
}

/* Locked: adds one launch's counts (or why it has none) to its totals. */
static void add_locked(rt_total *t, dl_status st, const dl_coalesce_counts *c)
{
    if (st != DL_SUCCESS) {
        skip_locked(t, dl_last_error());
        return;
    }
    t->counts.accesses += c->accesses;
    t->counts.before += c->before;
    t->counts.after += c->after;
    t->launches++;
}

/* Counts j into its totals, once (the thread or the exit). */
static void count_once(rt_job *j)
{
    if (__atomic_exchange_n(&j->claimed, 1, __ATOMIC_ACQ_REL))
        return;
    dl_coalesce_counts c = {0};
    dl_status st = count_job(j, &c);
    if (j->counted) {
        j->counted(j, st, &c);
        return;
    }
    pthread_mutex_lock(&lock);
    add_locked(j->into, st, &c);
    pthread_mutex_unlock(&lock);
}

static void free_job(rt_job *j)
{
    if (j->bread)
        dl_cl.clReleaseEvent(j->bread);
    free(j->bounds);
    free(j->host);
    free(j);
}

/* Locked: the oldest completed job, or NULL. */
static rt_job *pop_done(void)
{
    rt_job *j = done;
    if (j && !(done = j->next))
        done_end = &done;
    return j;
}

/* The counting thread: completed reads, oldest first. */
static void *counter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        rt_job *j;
        while (!(j = pop_done()))
            pthread_cond_wait(&work, &lock);
        busy++;
        pthread_mutex_unlock(&lock);
        count_once(j);
        free_job(j);
        rt_stats_thread_done(); /* the thread never ends: per job */
        pthread_mutex_lock(&lock);
        if (--busy == 0 && !done)
            pthread_cond_broadcast(&idle);
    }
    return NULL;
}

static void start_counter(void)
{
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    thread_ok = pthread_create(&t, &attr, counter, NULL) == 0;
    pthread_attr_destroy(&attr);
    if (!thread_ok)
        DL_LOG_WARN("coalescing: no counting thread; reads are counted at "
                    "exit");
}

/* Locked. */
static void unlink_pending(rt_job *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        pending = j->next;
    if (j->next)
        j->next->prev = j->prev;
    j->prev = j->next = NULL;
}

/* The read's completion: an OpenCL callback, which must not take
 * dl_rt.lock (rt_internal.h) and should return quickly: the job goes to
 * the counting thread. */
static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    rt_job *j = user;
    pthread_mutex_lock(&lock);
    unlink_pending(j);
    j->status = status;
    *done_end = j;
    done_end = &j->next;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    dl_cl.clReleaseEvent(ev);
}

int rt_job_watch(rt_job *j)
{
    pthread_once(&started, start_counter);
    pthread_mutex_lock(&lock);
    j->next = pending;
    if (pending)
        pending->prev = j;
    pending = j;
    pthread_mutex_unlock(&lock);
    return dl_cl.clSetEventCallback(j->read, CL_COMPLETE, on_read, j) ==
                   CL_SUCCESS
               ? 0
               : -1;
}

/* ---------------------------------------------------------------- at exit */

/* Locked (a callback that comes meanwhile waits): counts the reads that
 * completed but whose callbacks have not run; returns how many are still
 * running.  The jobs stay for their callbacks, which find them counted. */
static unsigned count_completed(void)
{
    unsigned waiting = 0;
    for (rt_job *j = pending; j; j = j->next) {
        cl_int status = CL_QUEUED;
        if (dl_cl.clGetEventInfo(j->read, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                 sizeof status, &status, NULL) != CL_SUCCESS)
            continue;
        if (status > CL_COMPLETE) {
            waiting++;
            continue;
        }
        if (j->counted || __atomic_exchange_n(&j->claimed, 1, __ATOMIC_ACQ_REL))
            continue;
        j->status = status;
        dl_coalesce_counts c = {0};
        dl_status st = count_job(j, &c);
        add_locked(j->into, st, &c);
    }
    return waiting;
}

/* Locked: counts what the thread has not, and waits for the job it
 * counts (the exit's only wait: CPU work, never the device). */
static void drain(void)
{
    rt_job *j;
    while ((j = pop_done()) != NULL) {
        pthread_mutex_unlock(&lock);
        count_once(j);
        free_job(j);
        rt_stats_thread_done(); /* the thread never ends: per job */
        pthread_mutex_lock(&lock);
    }
    while (busy)
        pthread_cond_wait(&idle, &lock);
}

static void report_total(FILE *out, const rt_total *t)
{
    char counts[256], at[32] = "";
    if (t->ambiguous)
        snprintf(at, sizeof at, " (line %u)", t->line);
    dl_coalesce_format(&t->geometry, &t->counts, counts, sizeof counts);
    fprintf(out, "coalescing: kernel %s arg %s via %s%s: %s", t->kernel,
            t->array, t->via, at, t->launches ? counts : "not counted");
    if (t->skipped)
        fprintf(out, "; %llu launch(es) not counted: %s",
                (unsigned long long)t->skipped, t->why ? t->why : "?");
    fputc('\n', out);
}

void rt_indirect_report(FILE *out)
{
    pthread_mutex_lock(&lock);
    drain();
    unsigned waiting = count_completed();
    for (const rt_total *t = totals; t; t = t->next)
        report_total(out, t);
    if (waiting)
        fprintf(out,
                "coalescing: %u index read(s) not finished at exit, "
                "not counted\n",
                waiting);
    pthread_mutex_unlock(&lock);
}
