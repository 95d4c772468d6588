/* rt_indirect.c - counts the memory transactions of annotated indirect
 * references A[P[e] + c] from the index buffer's contents at each launch
 * (DL_COALESCING).  At a launch: the reference's range (rt's kernel
 * arguments and the program's -D macros), then a non-blocking read of the
 * entries of P it uses, on the launch's queue, after the launch's event.
 * The read's completion callback counts (dl_coalesce_count) and adds to
 * the reference's totals; that callback takes only this file's mutex,
 * never dl_rt.lock.  The totals are printed at exit. */
#define _GNU_SOURCE /* strndup */
#include "rt_indirect.h"
#include "coalesce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The totals of one reference of one kernel at one geometry. */
typedef struct total {
    char *kernel, *array, *via;
    unsigned line;       /* of the annotation */
    int ambiguous;       /* another reference of the kernel: A and P too */
    dl_coalesce_geometry geometry;
    dl_coalesce_counts counts;
    uint64_t launches, skipped;
    char *why;           /* the last reason a launch was not counted */
    struct total *next;
} total;

/* One index read waiting for its completion.  Counted once, by its
 * callback or by the exit (`claimed`); freed by its callback. */
typedef struct job {
    total *into;
    dl_coalesce_ref ref;
    dl_coalesce_range range; /* base relative to `first` */
    dl_int_type type;
    void *host;              /* the entries first .. first + count - 1 */
    size_t first, count;
    cl_event read;           /* retained while the job is pending */
    int claimed;             /* atomic */
    struct job *prev, *next; /* the pending list */
} job;

/* totals_lock guards the totals; pending_lock the list of reads not yet
 * completed (taken before totals_lock where both are).  Neither is held
 * across an OpenCL call that can block. */
static pthread_mutex_t totals_lock = PTHREAD_MUTEX_INITIALIZER;
static total *totals, **totals_end = &totals;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static job *pending;

/* ---------------------------------------------------------------- totals */

static int same_ref(const total *t, const char *kernel, unsigned line,
                    const dl_annot_indirect *r, dl_coalesce_geometry g)
{
    return t->line == line && !strcmp(t->kernel, kernel) &&
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

/* Under totals_lock: the totals of reference r, made on first use. */
static total *find_total(const dl_annot_kernel *k, const dl_annot_indirect *r,
                         dl_coalesce_geometry g)
{
    for (total *t = totals; t; t = t->next)
        if (same_ref(t, k->name, r->line, r, g))
            return t;
    total *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    *t = (total){.kernel = strdup(k->name), .array = strdup(r->array_name),
                 .via = strdup(r->via_name), .line = r->line,
                 .ambiguous = ambiguous(k, r), .geometry = g};
    if (!t->kernel || !t->array || !t->via) {
        free(t->kernel);
        free(t->array);
        free(t->via);
        free(t);
        return NULL;
    }
    *totals_end = t; /* in the order of first use */
    totals_end = &t->next;
    return t;
}

/* A launch of the reference that is not counted, and why. */
static void skip(total *t, const char *why)
{
    pthread_mutex_lock(&totals_lock);
    t->skipped++;
    if (!t->why || strcmp(t->why, why)) {
        free(t->why);
        t->why = strdup(why);
    }
    pthread_mutex_unlock(&totals_lock);
}

/* ----------------------------------------------------------- the counting */

/* dl_coalesce_count reads 4- or 8-byte signed entries: other types are
 * widened to 8 bytes (a uint above INT_MAX stays positive). */
static const void *signed_entries(const job *j, int64_t **wide,
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
        dl_int_decode((const char *)j->host + i * *bytes, *bytes, j->type,
                      &(*wide)[i]); /* a ulong above INT64_MAX reads 0 */
    *bytes = 8;
    return *wide;
}

/* Counts j's entries into its totals, once. */
static void count_once(job *j)
{
    if (__atomic_exchange_n(&j->claimed, 1, __ATOMIC_ACQ_REL))
        return;
    int64_t *wide;
    unsigned bytes;
    const void *entries = signed_entries(j, &wide, &bytes);
    dl_coalesce_counts c = {0};
    dl_status st = entries ? dl_coalesce_count(&j->into->geometry, &j->ref,
                                               &j->range, entries, j->count,
                                               bytes, &c)
                           : DL_OUT_OF_MEMORY;
    free(wide);
    if (st != DL_SUCCESS) {
        skip(j->into, dl_last_error());
        return;
    }
    pthread_mutex_lock(&totals_lock);
    j->into->counts.accesses += c.accesses;
    j->into->counts.before += c.before;
    j->into->counts.after += c.after;
    j->into->launches++;
    pthread_mutex_unlock(&totals_lock);
}

static void pending_add(job *j)
{
    pthread_mutex_lock(&pending_lock);
    j->next = pending;
    if (pending)
        pending->prev = j;
    pending = j;
    pthread_mutex_unlock(&pending_lock);
}

static void pending_remove(job *j)
{
    pthread_mutex_lock(&pending_lock);
    if (j->prev)
        j->prev->next = j->next;
    else
        pending = j->next;
    if (j->next)
        j->next->prev = j->prev;
    pthread_mutex_unlock(&pending_lock);
}

/* The read's completion: an OpenCL callback, which must not take
 * dl_rt.lock (see rt_internal.h). */
static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    job *j = user;
    pending_remove(j);
    if (status == CL_COMPLETE)
        count_once(j);
    else if (!__atomic_exchange_n(&j->claimed, 1, __ATOMIC_ACQ_REL))
        skip(j->into, "the read of the index buffer failed");
    dl_cl.clReleaseEvent(ev);
    free(j->host);
    free(j);
}

/* ----------------------------------------------------------- at a launch */

/* The value of macro `name` in the build options ("-D K=8", "-DK=8",
 * "-D K" is 1), as dimension expressions read integers. */
static dl_status macro_value(void *user, const char *name, int64_t *value)
{
    const char *options = user ? user : "";
    size_t n = strlen(name);
    for (const char *at = strstr(options, "-D"); at;
         at = strstr(at + 2, "-D")) {
        const char *s = at + 2;
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, name, n) || (s[n] && s[n] != '=' && s[n] != ' ' &&
                                    s[n] != '\t'))
            continue;
        if (s[n] != '=') {
            *value = 1;
            return DL_SUCCESS;
        }
        size_t len = strcspn(s + n + 1, " \t");
        dl_dims_expr *e = NULL;
        DL_RETURN_IF_FAIL(dl_dims_parse(s + n + 1, len, &e));
        dl_status st = dl_dims_is_const(e) ? dl_dims_eval(e, NULL, value)
                                           : dl_fail(DL_INVALID_ARGUMENT,
                                                     "macro %s is no number",
                                                     name);
        dl_dims_free(e);
        return st;
    }
    return dl_fail(DL_INVALID_ARGUMENT, "'%s' is neither a kernel argument "
                   "nor a -D macro of the build options", name);
}

/* The entries of P a launch reads, [first, first + count), within P's
 * `entries`; 0 when it reads none of them. */
static int window(const dl_annot_indirect_range *r, size_t threads,
                  uint64_t entries, uint64_t *first, uint64_t *count)
{
    uint64_t last;
    if (!threads || !r->steps || (uint64_t)r->base >= entries)
        return 0;
    if (__builtin_mul_overflow((uint64_t)(threads - 1), (uint64_t)r->t_stride,
                               &last) ||
        __builtin_add_overflow(last, (r->steps - 1) * (uint64_t)r->j_stride,
                               &last) ||
        __builtin_add_overflow(last, (uint64_t)r->base, &last) ||
        last >= entries)
        last = entries - 1;
    *first = (uint64_t)r->base;
    *count = last - *first + 1;
    return 1;
}

/* The job of reference r at launch c, or NULL with the reason in *why. */
static job *make_job(const launch_call *c, const rt_kernel *k,
                     const dl_annot_indirect *r, size_t p_bytes,
                     const char **why)
{
    dl_dims_raw_arg raw[64];
    cl_uint n = k->nargs < 64 ? k->nargs : 64;
    for (cl_uint i = 0; i < n; i++)
        raw[i] = (dl_dims_raw_arg){k->args[i].size ? k->args[i].value : NULL,
                                   k->args[i].size};
    dl_dims_env env = {.work_dim = c->work_dim, .global_size = c->global,
                       .local_size = c->local, .global_offset = c->offset,
                       .args = raw, .nargs = n};
    dl_annot_indirect_range range;
    if (dl_annot_indirect_eval(r, k->annot->nparams, &env, macro_value,
                               k->prog ? k->prog->options : NULL,
                               &range) != DL_SUCCESS) {
        *why = dl_last_error();
        return NULL;
    }
    if (range.base < 0 || range.t_stride < 0 || range.j_stride < 0) {
        *why = "the index decreases or starts before the index buffer";
        return NULL;
    }
    size_t isz = dl_int_type_size(r->via_type);
    uint64_t first, count;
    if (!window(&range, c->global[0], p_bytes / isz, &first, &count)) {
        *why = "the launch reads no entry of the index buffer";
        return NULL;
    }
    job *j = calloc(1, sizeof *j);
    if (j)
        j->host = malloc(count * isz);
    if (!j || !j->host) {
        free(j);
        *why = "out of host memory";
        return NULL;
    }
    j->ref = (dl_coalesce_ref){r->elem_size, r->field_offset, r->field_size,
                               range.offset};
    j->range = (dl_coalesce_range){c->global[0], range.steps, 0,
                                   (size_t)range.t_stride,
                                   (size_t)range.j_stride};
    j->type = r->via_type;
    j->first = (size_t)first;
    j->count = (size_t)count;
    return j;
}

/* Enqueues the read of j's entries of P after `launched`; its callback
 * then owns j.  Returns NULL, or why it could not. */
static const char *enqueue_read(const launch_call *c, job *j, cl_mem p,
                                cl_event launched)
{
    size_t isz = dl_int_type_size(j->type);
    cl_int err = dl_cl.clEnqueueReadBuffer(
        c->queue, p, CL_FALSE, j->first * isz, j->count * isz, j->host,
        launched ? 1 : 0, launched ? &launched : NULL, &j->read);
    if (err != CL_SUCCESS)
        return "the index buffer cannot be read";
    pending_add(j);
    if (dl_cl.clSetEventCallback(j->read, CL_COMPLETE, on_read, j) ==
        CL_SUCCESS)
        return NULL;
    /* Left pending: the exit counts it once the read is done. */
    DL_LOG_WARN("coalescing: no completion callback on the read of '%s'",
                j->into->via);
    return NULL;
}

/* Why launch c of k is counted for none of its references, or NULL. */
static const char *uncountable(const launch_call *c)
{
    if (c->task || c->work_dim != 1)
        return "counted for 1-D ranges only";
    return NULL;
}

/* P's handle and size at this launch, or why not.  Locked briefly: a
 * buffer dlayout holds in another layout is not read. */
static const char *index_buffer(const rt_kernel *k, uint32_t via, cl_mem *p,
                                size_t *bytes)
{
    const rt_arg *a = via < k->nargs ? &k->args[via] : NULL;
    if (!a || a->size != sizeof(cl_mem) || !a->value)
        return "the index buffer argument is not set";
    *p = *(const cl_mem *)a->value;
    rt_lock();
    rt_buffer *b = *p ? rt_buffer_find(*p) : NULL;
    int moved = b && b->transformed;
    rt_unlock();
    if (moved)
        return "the index buffer is in a converted layout";
    if (!*p || dl_cl.clGetMemObjectInfo(*p, CL_MEM_SIZE, sizeof *bytes,
                                        bytes, NULL) != CL_SUCCESS)
        return "the index buffer is no buffer";
    return NULL;
}

/* One reference at launch c: its totals, then its read. */
static void launched_ref(const launch_call *c, const rt_kernel *k,
                         const dl_annot_indirect *r, cl_device_id dev,
                         cl_event launched)
{
    dl_coalesce_geometry g;
    if (!dev || dl_coalesce_geometry_for_device(dev, r->field_size, &g) !=
                    DL_SUCCESS)
        g = dl_coalesce_geometry_gpu();
    pthread_mutex_lock(&totals_lock);
    total *t = find_total(k->annot, r, g);
    pthread_mutex_unlock(&totals_lock);
    if (!t)
        return;
    cl_mem p = NULL;
    size_t bytes = 0;
    const char *why = uncountable(c);
    why = why ? why : index_buffer(k, r->via, &p, &bytes);
    job *j = why ? NULL : make_job(c, k, r, bytes, &why);
    if (j) {
        j->into = t;
        why = enqueue_read(c, j, p, launched);
    }
    if (!why)
        return;
    skip(t, why);
    if (j) {
        free(j->host);
        free(j);
    }
}

void rt_indirect_launched(const launch_call *c, const rt_kernel *k,
                          cl_event launched)
{
    cl_device_id dev = NULL;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof dev,
                                    &dev, NULL) != CL_SUCCESS)
        dev = NULL;
    for (uint32_t i = 0; i < k->annot->nindirect; i++)
        launched_ref(c, k, &k->annot->indirect[i], dev, launched);
}

/* --------------------------------------------------------------- at exit */

/* Counts the reads that completed but whose callbacks have not run. */
static unsigned count_completed(void)
{
    unsigned waiting = 0;
    pthread_mutex_lock(&pending_lock);
    for (job *j = pending; j; j = j->next) {
        cl_int status = CL_QUEUED;
        if (dl_cl.clGetEventInfo(j->read, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                 sizeof status, &status, NULL) != CL_SUCCESS)
            continue;
        if (status == CL_COMPLETE)
            count_once(j);
        else
            waiting += status > 0;
    }
    pthread_mutex_unlock(&pending_lock);
    return waiting;
}

static void report_total(FILE *out, const total *t)
{
    char counts[256], at[32] = "";
    if (t->ambiguous)
        snprintf(at, sizeof at, " (line %u)", t->line);
    dl_coalesce_format(&t->geometry, &t->counts, counts, sizeof counts);
    if (t->launches)
        fprintf(out, "coalescing: kernel %s arg %s via %s%s: %s", t->kernel,
                t->array, t->via, at, counts);
    else
        fprintf(out, "coalescing: kernel %s arg %s via %s%s: not counted",
                t->kernel, t->array, t->via, at);
    if (t->skipped)
        fprintf(out, "; %llu launch(es) not counted: %s",
                (unsigned long long)t->skipped, t->why ? t->why : "?");
    fputc('\n', out);
}

void rt_indirect_report(FILE *out)
{
    unsigned waiting = count_completed();
    pthread_mutex_lock(&totals_lock);
    for (const total *t = totals; t; t = t->next)
        report_total(out, t);
    pthread_mutex_unlock(&totals_lock);
    if (waiting)
        fprintf(out, "coalescing: %u index read(s) not finished at exit, "
                "not counted\n", waiting);
}
