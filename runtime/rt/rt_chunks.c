/* rt_chunks.c - a reordered launch in chunks (rt_chunks.h).
 *
 * A chunk is whole work-groups of the launch's 1-D range, launched with
 * global_work_offset, so each work-item keeps its global id; the kernel's
 * `launch: chunks` flag says nothing else it reads changes.  A reference
 * whose work-item t reads entries base + t*t_stride + j*j_stride of P
 * (j < steps) reads, in chunk i, an interval of P that lies before chunk
 * i+1's when t_stride > |j_stride| * (steps - 1); the intervals' starts
 * cut [0, |P|) into the parts of A' each chunk needs, so the chunks'
 * gathers together make the same A' as one whole gather (the cache keeps
 * it), and chunk i waits only for its own part.  ELL's column-major
 * x[col[j*N + gid]] reads across all of P in every chunk: it runs whole. */
#include "rt_chunks.h"
#include "clock.h"
#include "gather.h"

#include <stdlib.h>
#include <string.h>

/* DL_OVERLAP=auto's measurements of one kernel: the net time of a
 * gathering launch, whole [0] and overlapped [1] (0: none yet), shared
 * by the kernel entry and the pending callbacks that fill them. */
typedef struct rt_overlap_times {
    uint64_t ns[2]; /* atomic */
    unsigned trials;
    int refs; /* atomic */
} rt_overlap_times;

static void times_unref(rt_overlap_times *t)
{
    if (t && __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(t);
}

/* ------------------------------------------------------------- splitting */

size_t rt_chunks_split(size_t global, size_t unit, size_t want, rt_chunk *out)
{
    if (!global)
        return 0;
    unit = unit ? unit : 1;
    want = want < 1 ? 1 : want > RT_CHUNKS_MAX ? RT_CHUNKS_MAX : want;
    size_t units = global / unit + (global % unit != 0);
    size_t k = want < units ? want : units;
    for (size_t i = 0; i < k; i++) {
        /* units * (i + 1) / k without overflow: 128 bits */
        size_t u0 = (size_t)((unsigned __int128)units * i / k);
        size_t u1 = (size_t)((unsigned __int128)units * (i + 1) / k);
        size_t end = u1 * unit < global && i + 1 < k ? u1 * unit : global;
        out[i] = (rt_chunk){u0 * unit, end - u0 * unit};
    }
    return k;
}

/* The unit of a chunk: the work-group the program asked for; without
 * one, any split is whole groups of the kernel (it reads no local id or
 * size): the largest power of two up to 256 dividing the range, so that
 * the device can still pick wide groups. */
static size_t chunk_unit(const launch_call *c)
{
    if (c->local && c->local[0])
        return c->local[0];
    size_t unit = 1;
    while (unit < 256 && c->global[0] % (unit * 2) == 0)
        unit *= 2;
    return unit;
}

/* --------------------------------------------------------------- planning */

/* Job j's parts of P, one per chunk (rt_chunks.c's head comment); NULL,
 * or why the reference keeps the launch whole. */
static const char *job_entries(rt_chunk_plan *plan, uint32_t j,
                               const gather_job *job)
{
    const dl_annot_indirect_range *at = &job->at;
    __int128 steps = at->steps ? (__int128)at->steps - 1 : 0;
    __int128 reach = steps * at->j_stride; /* of the loop, from t's first */
    __int128 low = reach < 0 ? reach : 0, spread = reach < 0 ? -reach : reach;
    if (at->t_stride <= 0 || (__int128)at->t_stride <= spread)
        return "a reference's chunks would read overlapping parts of its "
               "index buffer (a loop striding across it, like ELL's "
               "column-major x[col[j*N + gid]])";
    __int128 p_count = (__int128)job->key.range.threads;
    plan->entry[j][0] = 0;
    for (size_t i = 1; i < plan->count; i++) {
        __int128 e = (__int128)at->base +
                     (__int128)plan->chunk[i].first * at->t_stride + low;
        plan->entry[j][i] = (size_t)(e < 0 ? 0 : e > p_count ? p_count : e);
    }
    plan->entry[j][plan->count] = (size_t)p_count;
    return NULL;
}

static const char *plan_why(const launch_call *c, const rt_kernel *k,
                            const gather_job *jobs, uint32_t n,
                            rt_chunk_plan *plan)
{
    if (!k->annot->chunks)
        return "dl-annotate did not mark it 'launch: chunks'";
    if (c->task || c->work_dim != 1)
        return "its range is not 1-D";
    size_t want =
        dl_rt.controls.chunks ? dl_rt.controls.chunks : RT_CHUNKS_DEFAULT;
    plan->count =
        rt_chunks_split(c->global[0], chunk_unit(c), want, plan->chunk);
    if (plan->count < 2)
        return "its range is one work-group, or DL_CHUNKS=1";
    for (uint32_t j = 0; j < n; j++) {
        if (jobs[j].ref->rows[0].index)
            return "a reference's loop is bounded by an array's contents "
                   "(CSR): which entries each chunk reads is unknown";
        const char *why = job_entries(plan, j, &jobs[j]);
        if (why)
            return why;
    }
    return NULL;
}

void rt_chunks_plan(const launch_call *c, rt_kernel *k, const gather_job *jobs,
                    uint32_t n, rt_chunk_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->count = plan->gathered = 1;
    if (!n) /* the program's kernel: one launch */
        return;
    const char *why = plan_why(c, k, jobs, n, plan);
    plan->gathered = plan->count;
    if (!why)
        return;
    plan->count = plan->gathered = 1;
    rt_lock();
    int first = !k->chunks_warned;
    k->chunks_warned = 1;
    rt_unlock();
    if (first)
        DL_LOG_INFO_AT(k->prog ? k->prog->name : "<source>",
                       k->annot ? k->annot->line : 0,
                       "kernel '%s' is reordered in one launch, not in "
                       "chunks: %s",
                       k->name, why);
}

/* Job j's A' for the first m chunks: its entries [0, entry[j][m]). */
static dl_status part_of(const rt_chunk_plan *plan, uint32_t j,
                         const gather_job *job, size_t m, dl_reorder_key *key,
                         size_t *bytes)
{
    *key = job->key;
    key->range.threads = plan->entry[j][m];
    dl_gather_extent x;
    DL_RETURN_IF_FAIL(dl_gather_extent_of(&key->ref, &key->range,
                                          job->key.range.threads, &x));
    *bytes = x.bytes;
    return DL_SUCCESS;
}

int rt_chunks_fit(rt_chunk_plan *plan, gather_job *jobs, uint32_t n,
                  size_t budget)
{
    for (size_t m = plan->count - 1; plan->count > 1 && m >= 1; m--) {
        size_t need = 0, bytes[RT_GATHERS];
        dl_reorder_key keys[RT_GATHERS];
        int fits = 1;
        for (uint32_t j = 0; j < n && fits; j++)
            fits = part_of(plan, j, &jobs[j], m, &keys[j], &bytes[j]) ==
                       DL_SUCCESS &&
                   bytes[j] && !__builtin_add_overflow(need, bytes[j], &need);
        if (!fits || need > budget)
            continue;
        for (uint32_t j = 0; j < n; j++) {
            jobs[j].key = keys[j];
            jobs[j].bytes = bytes[j];
        }
        plan->gathered = m;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- overlap */

void rt_chunks_choose_overlap(rt_kernel *k, rt_chunk_plan *plan)
{
    plan->overlap = plan->measured = 0;
    if (plan->count < 2 || plan->probed ||
        dl_rt.controls.overlap == DL_OVERLAP_OFF)
        return;
    if (dl_rt.controls.overlap == DL_OVERLAP_ON) {
        plan->overlap = 1;
        return;
    }
    rt_lock();
    if (!k->overlap && (k->overlap = calloc(1, sizeof *k->overlap)))
        k->overlap->refs = 1;
    unsigned trial = k->overlap ? k->overlap->trials++ : 0;
    uint64_t whole = k->overlap ? RT_LOAD(k->overlap->ns[0]) : 0;
    uint64_t over = k->overlap ? RT_LOAD(k->overlap->ns[1]) : 0;
    rt_unlock();
    /* Each way's first launch is untimed: it may build the gather
     * program, and the device compiles the kernel for each new launch
     * shape (POCL: per local size, which a chunk without one may get
     * anew). */
    plan->overlap = trial == 1 || trial == 3 ||
                    (trial > 3 && whole && over && over < whole);
    if (trial < 2)
        return;
    plan->measured = 1;
    plan->start_ns = dl_now_ns();
    if (trial == 4 && whole && over)
        DL_LOG_INFO("kernel '%s': a gathering launch took %.3f ms whole and "
                    "%.3f ms in overlapped chunks: it runs %s from now on",
                    k->name, (double)whole / 1e6, (double)over / 1e6,
                    plan->overlap ? "overlapped" : "whole");
}

typedef struct timing {
    rt_overlap_times *times;
    int slot;
    uint64_t start_ns;
} timing;

static void CL_CALLBACK timed(cl_event ev, cl_int status, void *user)
{
    timing *t = user;
    if (status == CL_COMPLETE)
        __atomic_store_n(&t->times->ns[t->slot], dl_now_ns() - t->start_ns,
                         __ATOMIC_RELAXED);
    times_unref(t->times);
    free(t);
    dl_cl.clReleaseEvent(ev);
}

void rt_chunks_time(const launch_call *c, rt_kernel *k,
                    const rt_chunk_plan *plan)
{
    if (!plan->measured || !dl_cl.clSetEventCallback)
        return;
    timing *t = malloc(sizeof *t);
    cl_event done = NULL;
    rt_lock();
    rt_overlap_times *times = k->overlap;
    if (times && t)
        __atomic_add_fetch(&times->refs, 1, __ATOMIC_ACQ_REL);
    rt_unlock();
    if (!times || !t) {
        free(t);
        return;
    }
    *t = (timing){times, plan->overlap, plan->start_ns};
    /* A marker waits for the queue's commands so far (the launch), and
     * holds back nothing: it is no barrier. */
    if (dl_cl.clEnqueueMarkerWithWaitList(c->queue, 0, NULL, &done) !=
            CL_SUCCESS ||
        dl_cl.clSetEventCallback(done, CL_COMPLETE, timed, t) != CL_SUCCESS) {
        if (done)
            dl_cl.clReleaseEvent(done);
        times_unref(times);
        free(t);
    }
}

void rt_chunks_forget(rt_kernel *k)
{
    times_unref(k->overlap);
    k->overlap = NULL;
}

/* ---------------------------------------------------------------- gathers */

static int in_order(cl_command_queue q)
{
    cl_command_queue_properties props = 0;
    dl_cl.clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props,
                                NULL);
    return !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

/* dlayout's queue, and on an in-order program queue a marker after what
 * the program enqueued so far, which the launch implied waiting for. */
static const char *open_side(const launch_call *c, rt_chunk_plan *plan)
{
    if (plan->side)
        return NULL;
    rt_lock();
    dl_status st = rt_context_side_queue(c->queue, &plan->side);
    rt_unlock();
    if (st != DL_SUCCESS)
        return "dlayout's own queue cannot be made";
    if (in_order(c->queue) &&
        dl_cl.clEnqueueMarkerWithWaitList(c->queue, 0, NULL, &plan->before) !=
            CL_SUCCESS)
        return "a marker cannot be enqueued on the launch's queue";
    return NULL;
}

const char *rt_chunks_gather(const launch_call *c, rt_chunk_plan *plan,
                             dl_engine *engine, uint32_t j, gather_job *job,
                             cl_uint nwait, const cl_event *wait)
{
    const char *why = open_side(c, plan);
    if (why)
        return why;
    cl_event *list = malloc((nwait + 1) * sizeof *list);
    if (!list)
        return "out of host memory";
    memcpy(list, wait, nwait * sizeof *list);
    cl_uint nl = nwait;
    if (plan->before)
        list[nl++] = plan->before;
    for (size_t i = 0; i < plan->gathered && !why; i++) {
        dl_coalesce_range part = {.threads =
                                      plan->entry[j][i + 1] - plan->entry[j][i],
                                  .steps = 1,
                                  .base = plan->entry[j][i],
                                  .t_stride = 1};
        if (dl_enqueue_gather(engine, plan->side, job->key.a, job->key.p,
                              &job->key.ref, &part, job->key.index_bytes,
                              job->a_prime, nl, nl ? list : NULL,
                              &plan->ready[j][i]) != DL_SUCCESS)
            why = dl_last_error();
        else
            RT_ADD(dl_rt.stats.overlapped_gathers, 1);
    }
    free(list);
    if (why)
        return why;
    /* On dlayout's in-order queue the last part completes after all. */
    job->ready = plan->ready[j][plan->gathered - 1];
    dl_cl.clRetainEvent(job->ready);
    return NULL;
}

/* ----------------------------------------------------------------- launch */

/* Chunk i: through the variant after its own gathers, or as written. */
static cl_int enqueue_chunk(const launch_call *c, cl_kernel xform,
                            const rt_chunk_plan *plan, uint32_t njobs, size_t i,
                            cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    cl_event *list = malloc((nwait + RT_GATHERS) * sizeof *list);
    if (!list)
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(list, wait, nwait * sizeof *list);
    cl_uint nl = nwait;
    for (uint32_t j = 0; i < plan->gathered && j < njobs; j++)
        if (plan->ready[j][i])
            list[nl++] = plan->ready[j][i];
    size_t offset = (c->offset ? c->offset[0] : 0) + plan->chunk[i].first;
    size_t global = plan->chunk[i].count;
    cl_int err = rt_fwd.clEnqueueNDRangeKernel(
        c->queue, i < plan->gathered ? xform : c->kernel, 1, &offset, &global,
        c->local, nl, nl ? list : NULL, ev);
    free(list);
    return err;
}

cl_int rt_chunks_enqueue(const launch_call *c, cl_kernel xform,
                         rt_chunk_plan *plan, uint32_t njobs, cl_uint nwait,
                         const cl_event *wait, cl_event *event)
{
    cl_event ev[RT_CHUNKS_MAX] = {0};
    cl_int err = CL_SUCCESS;
    /* The chunks as written first: they need no gather. */
    size_t order[RT_CHUNKS_MAX], n = 0;
    for (size_t i = plan->gathered; i < plan->count; i++)
        order[n++] = i;
    for (size_t i = 0; i < plan->gathered; i++)
        order[n++] = i;
    for (size_t o = 0; o < n && err == CL_SUCCESS; o++)
        err =
            enqueue_chunk(c, xform, plan, njobs, order[o], nwait, wait, &ev[o]);
    if (err == CL_SUCCESS && in_order(c->queue)) {
        *event = ev[n - 1]; /* after every chunk before it */
        ev[n - 1] = NULL;
    } else if (err == CL_SUCCESS)
        err =
            dl_cl.clEnqueueMarkerWithWaitList(c->queue, (cl_uint)n, ev, event);
    for (size_t o = 0; o < n; o++)
        if (ev[o])
            dl_cl.clReleaseEvent(ev[o]);
    if (err == CL_SUCCESS) {
        RT_ADD(dl_rt.stats.chunked_launches, 1);
        if (plan->gathered < plan->count)
            RT_ADD(dl_rt.stats.partial_launches, 1);
    }
    return err;
}

void rt_chunks_free(rt_chunk_plan *plan)
{
    for (uint32_t j = 0; j < RT_GATHERS; j++)
        for (size_t i = 0; i < plan->count; i++)
            if (plan->ready[j][i])
                dl_cl.clReleaseEvent(plan->ready[j][i]);
    if (plan->before)
        dl_cl.clReleaseEvent(plan->before);
}
