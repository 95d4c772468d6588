/* irr_overlap.c - duplication run whole and in overlapped chunks
 * (irr_overlap.h).  Chunk c's gather of reference r covers the entries
 * its work-items [t0, t1) read: r's range with base + t0 * t_stride and
 * t1 - t0 work-items; it is enqueued on the side queue (in order, so
 * after chunk c-1's gathers), and chunk c's kernel, on the main queue
 * with global_work_offset t0, waits for it alone. */
#include "irr_overlap.h"

#include "bench.h"
#include "gather.h"

#include <stdlib.h>
#include <string.h>

/* Steps up to this many are gathered one range each (ELL's column-major
 * x[col[j*rows + t]]: a chunk's entries are `steps` runs).  A chunk of a
 * reference with more steps interleaved across P would be one range
 * tested entry by entry for membership, steps tests each: not measured. */
#define SPLIT_STEPS 64

int irr_overlap_applies(const irr_workload *w)
{
    if (w->nupload)
        return 0;
    for (int i = 0; i < w->nrefs; i++) {
        const dl_coalesce_range *r = &w->refs[i].range;
        size_t ts = r->t_stride, js = r->j_stride, s = r->steps;
        int rows = s <= 1 || ts > js * (s - 1); /* a chunk: one interval */
        int interleaved = ts > 0 && js / ts >= r->threads && s <= SPLIT_STEPS;
        int distinct = ts > 0 && (rows || interleaved);
        if (r->threads != w->threads || !distinct)
            return 0;
    }
    return 1;
}

typedef struct overlap_run {
    irr_device *d;
    const irr_workload *w;
    cl_mem *mem;
    cl_kernel redirect;
    size_t global, local, chunks;
} overlap_run;

/* One gather of reference r on the side queue. */
static int gather_one(overlap_run *o, const irr_ref *r,
                      const dl_coalesce_range *part, cl_uint nwait,
                      const cl_event *wait, cl_event *ev)
{
    if (dl_enqueue_gather(o->d->engine, o->d->side, o->mem[r->a], o->mem[r->p],
                          &r->ref, part, 4, o->mem[r->a_prime], nwait, wait,
                          ev) == DL_SUCCESS)
        return 1;
    fprintf(stderr, "dl-bench irregular: %s\n", dl_last_error());
    return 0;
}

/* The gathers of work-items [t0, t1) on the side queue (in order: the
 * first waits for `wait`); *ready: the last one. */
static int gather_part(overlap_run *o, size_t t0, size_t t1, cl_uint nwait,
                       const cl_event *wait, cl_event *ready)
{
    const irr_workload *w = o->w;
    int ok = 1, first = 1;
    for (int i = 0; ok && i < w->nrefs; i++) {
        const irr_ref *r = &w->refs[i];
        dl_coalesce_range part = r->range;
        size_t end = t1 < w->threads ? t1 : w->threads;
        part.threads = end > t0 ? end - t0 : 0;
        part.base += t0 * part.t_stride;
        size_t runs =
            part.steps > 1 && part.steps <= SPLIT_STEPS ? part.steps : 1;
        if (runs > 1)
            part.steps = 1;
        for (size_t j = 0; ok && j < runs; j++) {
            dl_coalesce_range run = part;
            run.base += j * r->range.j_stride;
            int final = i + 1 == w->nrefs && j + 1 == runs;
            ok = gather_one(o, r, &run, first ? nwait : 0, first ? wait : NULL,
                            final ? ready : NULL);
            first = 0;
        }
    }
    return ok;
}

static int enqueue_chunks(void *ctx, cl_command_queue q, cl_uint nwait,
                          const cl_event *wait, cl_event *last)
{
    overlap_run *o = ctx;
    size_t groups = o->global / o->local;
    cl_event prev = NULL;
    int ok = 1;
    for (size_t c = 0; ok && c < o->chunks; c++) {
        size_t t0 = groups * c / o->chunks * o->local;
        size_t t1 = groups * (c + 1) / o->chunks * o->local;
        if (t1 == t0)
            continue;
        cl_event ready = NULL, ev = NULL;
        ok = gather_part(o, t0, t1, prev ? 0 : nwait, prev ? NULL : wait,
                         &ready);
        size_t n = t1 - t0;
        ok =
            ok && bench_cl_ok(clEnqueueNDRangeKernel(q, o->redirect, 1, &t0, &n,
                                                     &o->local, 1, &ready, &ev),
                              "clEnqueueNDRangeKernel");
        if (ready)
            clReleaseEvent(ready);
        if (prev)
            clReleaseEvent(prev);
        prev = ev;
    }
    if (ok && last)
        *last = prev;
    else if (prev)
        clReleaseEvent(prev);
    return ok;
}

static int median_of(overlap_run *o, double *out)
{
    size_t reps = o->d->reps;
    double *t = calloc(reps, sizeof *t);
    int ok = t != NULL;
    for (size_t i = 0; ok && i < reps; i++)
        ok =
            bench_cl_time(o->d->cl, BENCH_TIMER_WALL, enqueue_chunks, o, &t[i]);
    if (ok)
        *out = bench_median(t, reps);
    free(t);
    return ok;
}

/* The chunked output, after poisoning it, against the plain one. */
static int check_output(overlap_run *o, const unsigned char *want, int *same)
{
    const irr_buf *out = &o->w->bufs[o->w->out];
    unsigned char *got = malloc(out->bytes ? out->bytes : 1);
    cl_uchar ff = 0xff;
    cl_event last = NULL;
    cl_command_queue q = o->d->cl->queue;
    int ok = got &&
             bench_cl_ok(clEnqueueFillBuffer(q, o->mem[o->w->out], &ff, 1, 0,
                                             out->bytes, 0, NULL, NULL),
                         "clEnqueueFillBuffer") &&
             enqueue_chunks(o, q, 0, NULL, &last) &&
             bench_cl_ok(clEnqueueReadBuffer(q, o->mem[o->w->out], CL_TRUE, 0,
                                             out->bytes, got, 0, NULL, NULL),
                         "clEnqueueReadBuffer");
    if (last)
        clReleaseEvent(last);
    *same = ok && memcmp(want, got, out->bytes) == 0;
    free(got);
    return ok;
}

int irr_overlap_time(irr_device *d, const irr_workload *w, cl_mem *mem,
                     cl_kernel redirect, size_t global, size_t local,
                     const unsigned char *want, double *whole, double *net,
                     int *same)
{
    overlap_run o = {d, w, mem, redirect, global, local, IRR_OVERLAP_CHUNKS};
    if (!check_output(&o, want, same) || !median_of(&o, net))
        return 0;
    o.chunks = 1;
    return median_of(&o, whole);
}
