/* irr_run.c - runs a workload of `dl-bench irregular` on the device.  The
 * plain kernel and the redirected one are each run once untimed (the
 * first gather builds gather.cl) and then `reps` times; before the
 * redirected kernel's untimed run its output buffer is filled with 0xff,
 * so that the comparison with the plain output cannot pass by accident. */
#include "irr_run.h"

#include "bench.h"
#include "gather.h"
#include "irr_overlap.h"

#include <stdlib.h>
#include <string.h>

#define LOCAL 64 /* work-items per group */

/* irregular.cl, embedded with copy.cl (meson.build). */
const char *bench_kernel_source(const char *name);

int irr_device_open(irr_device *d, bench_cl *cl, size_t reps)
{
    cl_ulong local = 0;
    clGetDeviceInfo(cl->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local,
                    NULL);
    *d = (irr_device){.cl = cl,
                      .reps = reps,
                      .group = LOCAL < cl->max_wg ? LOCAL : cl->max_wg,
                      .local_bytes = (size_t)local};
    const char *src = bench_kernel_source("irregular.cl");
    cl_int err;
    d->program = clCreateProgramWithSource(cl->context, 1, &src, NULL, &err);
    if (!bench_cl_ok(err, "clCreateProgramWithSource(irregular.cl)"))
        return 0;
    err = clBuildProgram(d->program, 1, &cl->device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(d->program, cl->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log - 1, log, NULL);
        fprintf(stderr,
                "dl-bench irregular: building irregular.cl failed "
                "(%d):\n%s\n",
                (int)err, log);
        return 0;
    }
    d->side = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    if (!bench_cl_ok(err, "clCreateCommandQueue"))
        return 0;
    if (dl_engine_create(cl->context, cl->device, &d->engine) != DL_SUCCESS) {
        fprintf(stderr, "dl-bench irregular: %s\n", dl_last_error());
        return 0;
    }
    return 1;
}

void irr_device_close(irr_device *d)
{
    if (d->engine)
        dl_engine_release(d->engine);
    if (d->program)
        clReleaseProgram(d->program);
    if (d->side)
        clReleaseCommandQueue(d->side);
    d->side = NULL;
    d->engine = NULL;
    d->program = NULL;
}

/* The device side of one workload. */
typedef struct irr_state {
    irr_device *dev;
    const irr_workload *w;
    cl_mem mem[IRR_MAX_BUFS];
    cl_kernel plain, redirect;
    cl_kernel launching; /* what enqueue_kernel launches */
    size_t global, local;
} irr_state;

static int create_buffers(irr_state *s)
{
    cl_context ctx = s->dev->cl->context;
    for (int i = 0; i < s->w->nbufs; i++) {
        const irr_buf *b = &s->w->bufs[i];
        cl_int err;
        s->mem[i] = clCreateBuffer(
            ctx, CL_MEM_READ_WRITE | (b->host ? CL_MEM_COPY_HOST_PTR : 0),
            b->bytes ? b->bytes : 1, b->host, &err);
        if (!bench_cl_ok(err, "clCreateBuffer"))
            return 0;
    }
    return 1;
}

static cl_kernel make_kernel(irr_state *s, const char *name,
                             const irr_arg *args, int nargs)
{
    cl_int err;
    cl_kernel k = clCreateKernel(s->dev->program, name, &err);
    if (!bench_cl_ok(err, name))
        return NULL;
    for (int i = 0; i < nargs && err == CL_SUCCESS; i++) {
        const irr_arg *a = &args[i];
        cl_uint v = a->value;
        err = a->buf >= 0 ? clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem),
                                           &s->mem[a->buf])
              : a->buf == IRR_LOCAL_ARG
                  ? clSetKernelArg(k, (cl_uint)i, a->value, NULL)
                  : clSetKernelArg(k, (cl_uint)i, sizeof v, &v);
    }
    if (!bench_cl_ok(err, "clSetKernelArg")) {
        clReleaseKernel(k);
        return NULL;
    }
    return k;
}

static void state_free(irr_state *s)
{
    if (s->plain)
        clReleaseKernel(s->plain);
    if (s->redirect)
        clReleaseKernel(s->redirect);
    for (int i = 0; i < s->w->nbufs; i++)
        if (s->mem[i])
            clReleaseMemObject(s->mem[i]);
}

static int enqueue_kernel(void *ctx, cl_command_queue q, cl_uint nwait,
                          const cl_event *wait, cl_event *last)
{
    irr_state *s = ctx;
    return bench_cl_ok(clEnqueueNDRangeKernel(q, s->launching, 1, NULL,
                                              &s->global, &s->local, nwait,
                                              wait, last),
                       "clEnqueueNDRangeKernel");
}

/* A method's reorganisation: its host-built layout uploaded, in order. */
static int enqueue_uploads(irr_state *s, cl_command_queue q, cl_uint nwait,
                           const cl_event *wait, cl_event *last)
{
    const irr_workload *w = s->w;
    cl_event prev = NULL;
    int ok = 1;
    for (int i = 0; ok && i < w->nupload; i++) {
        const irr_buf *b = &w->bufs[w->upload[i]];
        cl_event ev = NULL;
        ok = bench_cl_ok(clEnqueueWriteBuffer(q, s->mem[w->upload[i]], CL_FALSE,
                                              0, b->bytes, b->host,
                                              prev ? 1 : nwait,
                                              prev ? &prev : wait, &ev),
                         "clEnqueueWriteBuffer");
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

/* A'[e] = A[P[e]] for every reference, in queue order (or a method's
 * uploads). */
static int enqueue_gathers(void *ctx, cl_command_queue q, cl_uint nwait,
                           const cl_event *wait, cl_event *last)
{
    irr_state *s = ctx;
    if (s->w->nupload)
        return enqueue_uploads(s, q, nwait, wait, last);
    for (int i = 0; i < s->w->nrefs; i++) {
        const irr_ref *r = &s->w->refs[i];
        int final = i + 1 == s->w->nrefs;
        if (dl_enqueue_gather(s->dev->engine, q, s->mem[r->a], s->mem[r->p],
                              &r->ref, &r->range, 4, s->mem[r->a_prime],
                              i ? 0 : nwait, i ? NULL : wait,
                              final ? last : NULL) != DL_SUCCESS) {
            fprintf(stderr, "dl-bench irregular: %s\n", dl_last_error());
            return 0;
        }
    }
    return 1;
}

/* Median seconds of `reps` timed batches of fn. */
static int time_median(irr_state *s, bench_enqueue_fn fn, double *out)
{
    size_t reps = s->dev->reps;
    double *t = calloc(reps, sizeof *t);
    int ok = t != NULL;
    for (size_t i = 0; ok && i < reps; i++)
        ok = bench_cl_time(s->dev->cl, BENCH_TIMER_EVENT, fn, s, &t[i]);
    if (ok)
        *out = bench_median(t, reps);
    free(t);
    return ok;
}

/* One untimed run of s->launching; its output into host. */
static int run_once(irr_state *s, void *host)
{
    cl_command_queue q = s->dev->cl->queue;
    cl_event ev = NULL;
    int ok = enqueue_kernel(s, q, 0, NULL, &ev);
    if (ev)
        clReleaseEvent(ev);
    const irr_buf *out = &s->w->bufs[s->w->out];
    return ok &&
           bench_cl_ok(clEnqueueReadBuffer(q, s->mem[s->w->out], CL_TRUE, 0,
                                           out->bytes, host, 0, NULL, NULL),
                       "clEnqueueReadBuffer");
}

static int poison_output(irr_state *s)
{
    cl_uchar ff = 0xff;
    return bench_cl_ok(
        clEnqueueFillBuffer(s->dev->cl->queue, s->mem[s->w->out], &ff, 1, 0,
                            s->w->bufs[s->w->out].bytes, 0, NULL, NULL),
        "clEnqueueFillBuffer");
}

static int measure(irr_state *s, unsigned char *want, unsigned char *got,
                   irr_times *out)
{
    cl_event ev = NULL;
    s->launching = s->plain;
    int ok = run_once(s, want) && (s->w->plain_untimed ||
                                   time_median(s, enqueue_kernel, &out->plain));
    ok = ok && enqueue_gathers(s, s->dev->cl->queue, 0, NULL, &ev);
    if (ev)
        clReleaseEvent(ev);
    ok = ok && time_median(s, enqueue_gathers, &out->reorg);
    s->launching = s->redirect;
    ok = ok && poison_output(s) && run_once(s, got) &&
         time_median(s, enqueue_kernel, &out->redirect);
    out->verified = ok && memcmp(want, got, s->w->bufs[s->w->out].bytes) == 0;
    int same = 1;
    if (ok && irr_overlap_applies(s->w))
        ok = irr_overlap_time(s->dev, s->w, s->mem, s->redirect, s->global,
                              s->local, want, &out->whole, &out->overlapped,
                              &same);
    out->verified = out->verified && same;
    return ok;
}

int irr_run(irr_device *d, const irr_workload *w, irr_times *out)
{
    irr_state s = {.dev = d, .w = w};
    size_t bytes = w->bufs[w->out].bytes;
    unsigned char *want = malloc(bytes ? bytes : 1);
    unsigned char *got = malloc(bytes ? bytes : 1);
    s.local = d->group;
    s.global = (w->threads + s.local - 1) / s.local * s.local;
    *out = (irr_times){0, 0, 0, 0, 0, 0};
    int ok = want && got && create_buffers(&s) &&
             (s.plain = make_kernel(&s, w->plain, w->plain_args, w->nplain)) &&
             (s.redirect = make_kernel(&s, w->redirect, w->redirect_args,
                                       w->nredirect)) &&
             measure(&s, want, got, out);
    state_free(&s);
    free(want);
    free(got);
    return ok;
}
