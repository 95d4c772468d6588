/* rt_launch.c - the buffer state machine at clEnqueueNDRangeKernel and
 * clEnqueueTask (DL paper section 5.2).  For each buffer argument:
 *   in the layout the kernel wants        -> nothing moves;
 *   original, a transformed one wanted    -> marshal it first;
 *   transformed, another layout wanted    -> convert it back (and on).
 * The application's kernel is the plain variant (its program is built as
 * written); a transformed launch runs the same kernel of the activated
 * variant (rt_programs.c), made at the first such launch, with the
 * application's argument values replayed into it.  A launch that cannot
 * be transformed (dimensions, aliasing, a sub-buffer, an engine failure)
 * runs the application's kernel on the original layout.
 *
 * launch() runs in steps: what the arguments want (args_open), the
 * decision (rt_decide.c), then under the lock what the buffers hold
 * (launch_plan), the builds that needs (launch_build: the activated
 * variant, the marshal programs, each built without the lock and planned
 * again after, since another thread may have used or converted the
 * buffers meanwhile), the conversions (launch_convert), the enqueue
 * (launch_enqueue) and the memo.  No blocking call is made under the
 * lock. */
#include "rt_indirect.h"
#include "rt_launch.h"
#include "rt_memo.h"
#include "rt_permute.h"
#include "rt_renumber.h"
#include "rt_jobswap.h"
#include "rt_reorder.h"
#include "rt_reshape.h"
#include "tuner_timing.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What one buffer argument must be in for this launch. */
typedef struct want {
    cl_mem mem;
    int transformed;    /* else: the original layout */
    rt_layout from, to; /* records borrowed from the annotation */
    size_t pad; /* the offset DA pad wanted of a variant not built yet */
} want;

/* Whether some buffer argument is in the buffer table (its uses must be
 * recorded). */
static int tracks_any_arg(const rt_kernel *k)
{
    if (!__atomic_load_n(&dl_rt.buffers.live, __ATOMIC_RELAXED))
        return 0;
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem mem = rt_launch_arg_mem(k, i);
        if (mem && rt_buffer_find(mem))
            return 1;
    }
    return 0;
}

static const char *cause_text(unsigned cause)
{
    switch (cause) {
    case RT_CAUSE_DIMS:
        return "its record count cannot be evaluated";
    case RT_CAUSE_SIZE:
        return "its record count does not fit the buffer";
    case RT_CAUSE_ALIAS:
        return "one buffer (or a sub-buffer of it) is bound to arguments "
               "that want different layouts";
    case RT_CAUSE_SUBBUF:
        return "an annotated argument is a sub-buffer";
    case RT_CAUSE_NOTMEM:
        return "an annotated argument is not a buffer";
    case RT_CAUSE_RESHAPE:
        return "its NDRange cannot be tiled";
    case RT_CAUSE_OFFSET:
        return "the buffer lacks the slack of the offset DA the activated "
               "variant was built with";
    case RT_CAUSE_PINNED:
        return "the buffer stays in the program's layout "
               "(CL_MEM_USE_HOST_PTR, an image view, OpenGL: "
               "docs/intercepted.md)";
    default:
        return "the conversion could not be prepared";
    }
}

/* Fills wants[] for the transformed variant; returns 0 or a cause. */
static unsigned plan_transformed(rt_kernel *k, const dl_dims_env *env,
                                 want *wants, const dl_annot_arg **detail)
{
    const dl_annot_kernel *ak = k->annot;
    size_t *tiles = k->prog->tiles ? k->prog->tiles[k->annot_index] : NULL;
    if (!tiles) {
        dl_fail(DL_INVALID_ARGUMENT, "the program's build state is missing");
        return RT_CAUSE_ENGINE;
    }
    for (uint32_t j = 0; j < ak->nargs; j++) {
        const dl_annot_arg *arg = &ak->args[j];
        if (!arg->record || arg->index >= k->nargs)
            continue; /* no conversion asked for: original layout */
        cl_mem mem = rt_launch_arg_mem(k, arg->index);
        rt_buffer *b = mem ? rt_buffer_get(mem) : NULL;
        *detail = arg;
        if (!b)
            return RT_CAUSE_NOTMEM;
        size_t count = 0;
        if (dl_dims_eval_count(arg->count, env, &count) != DL_SUCCESS)
            return RT_CAUSE_DIMS;
        rt_layout from = rt_host_layout(arg, count);
        rt_layout to = {arg->record, count, tiles[j], 0};
        if (count == 0 || rt_layout_equal(&from, &to))
            continue;  /* nothing to convert for this launch */
        if (b->pinned) /* in the program's layout for good (rt_marks.c) */
            return RT_CAUSE_PINNED;
        if (b->parent)
            return RT_CAUSE_SUBBUF;
        uint64_t bytes = (uint64_t)count * dl_record_size(arg->record);
        if (count > bytes || bytes > b->size)
            return RT_CAUSE_SIZE;
        size_t pad = 0;
        unsigned offset = rt_offset_plan(k, j, b, &from, &to, &pad);
        if (offset)
            return offset;
        want *w = &wants[arg->index];
        w->transformed = 1;
        w->from = from;
        w->to = to;
        w->pad = pad;
    }
    /* The same buffer twice must be wanted in the same layout, and a
     * sub-buffer (wanted in the original layout) must not view a buffer
     * wanted transformed. */
    for (cl_uint i = 0; i < k->nargs; i++) {
        rt_buffer *b = wants[i].mem && !wants[i].transformed
                           ? rt_buffer_find(wants[i].mem)
                           : NULL;
        for (cl_uint j = 0; b && b->parent && j < k->nargs; j++)
            if (wants[j].transformed && wants[j].mem == b->parent) {
                const dl_annot_arg *arg = dl_annot_find_arg(ak, j);
                *detail = arg;
                return RT_CAUSE_ALIAS;
            }
    }
    for (cl_uint i = 0; i < k->nargs; i++)
        for (cl_uint j = i + 1; j < k->nargs; j++) {
            if (!wants[i].mem || wants[i].mem != wants[j].mem)
                continue;
            if (wants[i].transformed != wants[j].transformed ||
                (wants[i].transformed &&
                 !rt_layout_equal(&wants[i].to, &wants[j].to))) {
                const dl_annot_arg *arg = dl_annot_find_arg(ak, j);
                if (!wants[j].transformed || !arg)
                    arg = dl_annot_find_arg(ak, i);
                *detail = arg;
                return RT_CAUSE_ALIAS;
            }
        }
    return 0;
}

/* Brings every buffer argument into its wanted layout.  Returns nonzero
 * if a marshal failed (the caller then plans the plain variant). */
static int apply(const rt_kernel *k, want *wants, cl_command_queue q,
                 cl_uint nwait, const cl_event *wait, rt_events *done)
{
    for (cl_uint i = 0; i < k->nargs; i++) {
        want *w = &wants[i];
        if (!w->mem)
            continue;
        int seen = 0;
        for (cl_uint j = 0; j < i; j++)
            seen |= wants[j].mem == w->mem;
        if (seen)
            continue;
        if (!w->transformed) {
            /* Only buffers in the table: an argument of pointer size
             * may be a scalar, which must never reach OpenCL as a
             * cl_mem.  Sub-buffers are always in the table. */
            rt_buffer *b = rt_buffer_find(w->mem);
            if (!b)
                continue;
            b->bound_kernel = k->kernel;
            b->bound_index = i;
            rt_buffer_restore(b, q, nwait, wait, done);
            continue;
        }
        rt_buffer *b = rt_buffer_get(w->mem);
        if (!b)
            return 1;
        b->bound_kernel = k->kernel;
        b->bound_index = i;
        if (b->transformed && rt_layout_equal(&b->cur, &w->to)) {
            rt_buffer_order(b, q, done); /* its conversion, on any queue */
            continue;
        }
        if (rt_buffer_restore(b, q, nwait, wait, done) != DL_SUCCESS)
            return 1;
        if (rt_buffer_marshal(b, q, &w->from, &w->to, nwait, wait, done) !=
            DL_SUCCESS)
            return 1; /* dl_last_error() says why */
    }
    return 0;
}

/* Whether a variant built for launches ending within *bound can run a
 * launch ending at *end. */
static int bound_fits(const rt_global_end *bound, const rt_global_end *end)
{
    if (!bound->set)
        return 1;
    for (int d = 0; d < 3; d++)
        if (!end->set || end->end[d] > bound->end[d])
            return 0;
    return 1;
}

cl_kernel rt_launch_xform_kernel(rt_kernel *k, const rt_global_end *end,
                                 const size_t *pads)
{
    rt_lock();
    cl_kernel xform = k->xform;
    int fits = bound_fits(&k->xform_bound, end);
    rt_program *p = k->prog;
    p->refs++;
    rt_unlock();
    if (xform && fits)
        goto out;
    rt_global_end got = {0, {0, 0, 0}};
    cl_program prog = xform ? rt_program_xform_wide(p)
                            : rt_program_xform(p, k->name, end, &got, pads);
    cl_int err = CL_SUCCESS;
    cl_kernel made = prog ? dl_cl.clCreateKernel(prog, k->name, &err) : NULL;
    if (prog && !made)
        DL_LOG_ERROR("kernel '%s': no activated variant (OpenCL error %d); "
                     "it runs as written",
                     k->name, (int)err);
    rt_lock();
    if (k->xform && bound_fits(&k->xform_bound, end)) {
        if (made) /* another thread was faster */
            dl_cl.clReleaseKernel(made);
        xform = k->xform;
    } else if (made) {
        if (k->xform) { /* built for a smaller range; the memo may run it */
            rt_memo_end(&k->memo);
            dl_cl.clReleaseKernel(k->xform);
        }
        k->xform = xform = made;
        k->xform_bound = got;
        k->xform_gen = k->args_gen - 1; /* its arguments are not set */
    } else {
        k->transformed = 0;
        xform = NULL;
    }
    rt_unlock();
out:
    rt_lock();
    rt_program_unref(p);
    rt_unlock();
    return xform;
}

/* Unlocked: makes k->xform_flat, the kernel of the flat variant.  NULL:
 * that variant did not build (logged); the range runs plain. */
static cl_kernel flat_kernel(rt_kernel *k)
{
    rt_lock();
    cl_kernel flat = k->xform_flat;
    rt_program *p = k->prog;
    p->refs++;
    rt_unlock();
    if (!flat) {
        cl_program prog = rt_program_xform_flat(p);
        cl_int err = CL_SUCCESS;
        cl_kernel made =
            prog ? dl_cl.clCreateKernel(prog, k->name, &err) : NULL;
        if (prog && !made)
            DL_LOG_ERROR("kernel '%s': no flat variant (OpenCL error %d)",
                         k->name, (int)err);
        rt_lock();
        if (k->xform_flat && made) /* another thread was faster */
            dl_cl.clReleaseKernel(made);
        else if (made) {
            k->xform_flat = made;
            k->flat_gen = k->args_gen - 1; /* its arguments are not set */
        }
        flat = k->xform_flat;
        rt_unlock();
    }
    rt_lock();
    rt_program_unref(p);
    rt_unlock();
    return flat;
}

/* Locked.  Gives `kernel`, a variant of k, the application's argument
 * values unless *gen says it has them. */
static cl_int sync_args(rt_kernel *k, cl_kernel kernel, unsigned *gen)
{
    if (*gen == k->args_gen)
        return CL_SUCCESS;
    for (cl_uint i = 0; i < k->nargs; i++) {
        const rt_arg *a = &k->args[i];
        if (!a->size)
            continue;
        cl_int err = dl_cl.clSetKernelArg(kernel, i, a->size, a->value);
        if (err != CL_SUCCESS)
            return err;
    }
    *gen = k->args_gen;
    return CL_SUCCESS;
}

cl_int rt_launch_sync_args(rt_kernel *k)
{
    return sync_args(k, k->xform, &k->xform_gen);
}

/* The real call.  `k`: the kernel launched transformed (NULL: plain or
 * unknown), which runs on the tiled range if it was built for one
 * (rt_reshape.h); a range it cannot take never gets here: launch() runs
 * those plain. */
static cl_int real_launch(const launch_call *c, const rt_kernel *k,
                          cl_kernel kernel, cl_uint nwait, const cl_event *wait,
                          cl_event *event)
{
    rt_reshaped shape;
    if (k && !c->task && c->work_dim == 1 &&
        rt_reshape_launch(k, c->work_dim, c->offset, c->global, c->local,
                          &shape) > 0) {
        DL_LOG_DEBUG("kernel '%s': tiled launch: global (%zu, %zu), offset "
                     "(0, %zu), local %s",
                     k->name, shape.global[0], shape.global[1], shape.offset[1],
                     shape.has_local ? "(T, L/T)" : "left to OpenCL");
        return rt_fwd.clEnqueueNDRangeKernel(
            c->queue, kernel, 2, shape.offset, shape.global,
            shape.has_local ? shape.local : NULL, nwait, wait, event);
    }
    if (c->task)
        return rt_fwd.clEnqueueTask(c->queue, kernel, nwait, wait, event);
    return rt_fwd.clEnqueueNDRangeKernel(c->queue, kernel, c->work_dim,
                                         c->offset, c->global, c->local, nwait,
                                         wait, event);
}

/* A kernel dlayout does not know (created before any annotated program):
 * its arguments are unknown, so every transformed buffer goes back. */
static cl_int launch_unknown(const launch_call *c, cl_uint nwait,
                             const cl_event *wait, cl_event *event)
{
    rt_events done = {0}, joined = {0};
    rt_lock();
    rt_buffer_restore_all(c->queue, nwait, wait, &done);
    rt_unlock();
    cl_uint n = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, &done, &n);
    cl_int err = real_launch(c, NULL, c->kernel, n, w, event);
    rt_events_free(&joined);
    rt_events_free(&done);
    return err;
}

/* Where the launch's range ends.  Unknown (set 0) for a kernel built for
 * the tiled range, which the runtime makes itself (rt_reshape.h), and for
 * a range that overflows (the real call rejects it). */
static rt_global_end launch_end(const launch_call *c, const rt_kernel *k)
{
    rt_global_end e = {1, {1, 1, 1}};
    if (c->task)
        return e;
    if (c->work_dim > 3 || !c->global || rt_reshape_tile(k)) {
        e.set = 0;
        return e;
    }
    for (cl_uint d = 0; d < c->work_dim; d++) {
        size_t offset = c->offset ? c->offset[d] : 0;
        if (c->global[d] > SIZE_MAX - offset)
            e.set = 0;
        else
            e.end[d] = offset + c->global[d];
    }
    return e;
}

/* One warning per kernel and cause, naming the annotation's line. */
static void warn_plain(rt_kernel *k, unsigned cause, const dl_annot_arg *arg)
{
    if (k->warned & cause)
        return;
    k->warned |= cause;
    RT_ADD(dl_rt.stats.declined, 1);
    const char *file = k->prog ? k->prog->name : "<source>";
    unsigned line = arg ? arg->line : k->annot ? k->annot->line : 0;
    if (cause == RT_CAUSE_PINNED) /* the program's choice, not a fault */
        DL_LOG_INFO_AT(file, line,
                       "kernel '%s' runs untransformed (argument '%s'): %s",
                       k->name, arg->name, cause_text(cause));
    else if (cause == RT_CAUSE_ENGINE || !arg)
        DL_LOG_WARN_AT(file, line, "kernel '%s' runs untransformed: %s: %s",
                       k->name, cause_text(cause), dl_last_error());
    else
        DL_LOG_WARN_AT(file, line,
                       "kernel '%s' runs untransformed (argument '%s'): %s",
                       k->name, arg->name, cause_text(cause));
}

/* What the launch's arguments hold: their values as the record counts
 * read them (env), and per argument the buffer and the layout it wants
 * (wants).  On the stack for kernels of up to 32 arguments. */
typedef struct launch_args {
    want *wants;
    dl_dims_raw_arg *raw;
    dl_dims_env env;
    int flat; /* the range cannot be tiled: the flat variant runs it */
    int on_heap;
    want wants_stack[32];
    dl_dims_raw_arg raw_stack[32];
} launch_args;

/* Returns 0 when out of memory. */
static int args_open(launch_args *a, const launch_call *c, const rt_kernel *k)
{
    static const size_t one[3] = {1, 1, 1};
    a->flat = 0;
    a->on_heap = k->nargs > 32;
    a->wants = a->on_heap ? calloc(k->nargs, sizeof *a->wants) : a->wants_stack;
    a->raw = a->on_heap ? calloc(k->nargs, sizeof *a->raw) : a->raw_stack;
    if (!a->wants || !a->raw) {
        free(a->wants);
        free(a->raw);
        return 0;
    }
    for (cl_uint i = 0; i < k->nargs; i++) {
        const rt_arg *arg = &k->args[i];
        a->wants[i] = (want){.mem = rt_launch_arg_mem(k, i)};
        a->raw[i] = (dl_dims_raw_arg){arg->size ? arg->value : NULL, arg->size};
    }
    a->env = (dl_dims_env){.work_dim = c->task ? 1 : c->work_dim,
                           .global_size = c->task ? one : c->global,
                           .local_size = c->task ? one : c->local,
                           .global_offset = c->task ? NULL : c->offset,
                           .args = a->raw,
                           .nargs = k->nargs};
    return 1;
}

static void args_close(launch_args *a)
{
    if (a->on_heap) {
        free(a->wants);
        free(a->raw);
    }
}

/* Every argument wants the original layout again. */
static void wants_plain(launch_args *a, const rt_kernel *k)
{
    for (cl_uint i = 0; i < k->nargs; i++)
        a->wants[i].transformed = 0;
}

/* Locked: what the buffers hold, for a transformed launch: fills wants[]
 * and returns 0, or the cause that makes it run plain. */
static unsigned launch_plan(rt_kernel *k, launch_args *a,
                            const dl_annot_arg **detail)
{
    const dl_dims_env *env = &a->env;
    rt_reshaped shape; /* a kernel built for the tiled range only */
    a->flat = rt_reshape_launch(k, env->work_dim, env->global_offset,
                                env->global_size, env->local_size, &shape) < 0;
    if (a->flat && !rt_reshape_flat_form(k))
        return RT_CAUSE_RESHAPE;
    if (a->flat && !k->flat_said) {
        k->flat_said = 1;
        DL_LOG_INFO_AT(k->prog->name, k->annot->tiled_line,
                       "kernel '%s' runs its flat ASTA form, in the same "
                       "layout, where the tiled launch cannot: %s",
                       k->name, dl_last_error());
    }
    return plan_transformed(k, env, a->wants, detail);
}

/* How many times a launch may drop the lock to build what it needs and
 * plan again; beyond, a conversion whose plan is not built is declined
 * (the launch runs plain) rather than built under the lock. */
#define LAUNCH_BUILD_TRIES 3

/* Locked: whether the flat variant a launch needs is there; if not, it is
 * built with the lock dropped (returns 1: plan again), or -1 when that
 * build failed before. */
static int build_flat(rt_kernel *k, int tries)
{
    if (k->xform_flat)
        return 0;
    if (tries >= LAUNCH_BUILD_TRIES || k->prog->flat_failed) {
        dl_fail(DL_BUILD_ERROR, "the flat variant did not build");
        return -1;
    }
    rt_unlock();
    flat_kernel(k);
    rt_lock();
    return 1;
}

/* Locked, after launch_plan: whether something the launch needs is not
 * built yet (the activated variant for this range, the marshal programs
 * of a conversion it makes).  Then the lock is dropped while it is built
 * (builds block), taken again, and returns 1: the caller plans again,
 * since meanwhile another thread may have used or converted the
 * buffers.  0: all built, or no more rounds (a conversion not built
 * then is declined under the lock); -1: no variant fits this range (the
 * launch runs plain). */
static int launch_build(const launch_call *c, rt_kernel *k,
                        const launch_args *a, const rt_global_end *end,
                        int tries)
{
    int flat = a->flat ? build_flat(k, tries) : 0;
    if (flat)
        return flat;
    if (!a->flat && (!k->xform || !bound_fits(&k->xform_bound, end))) {
        if (tries >= LAUNCH_BUILD_TRIES) {
            dl_fail(DL_BUILD_ERROR, "no activated variant fits the range");
            return -1;
        }
        /* A failed build (logged there) leaves the kernel untransformed. */
        size_t pads[32] = {0};
        int with_pads = k->annot->nargs <= 32;
        for (uint32_t j = 0; with_pads && j < k->annot->nargs; j++) {
            cl_uint i = k->annot->args[j].index;
            pads[j] =
                i < k->nargs && a->wants[i].transformed ? a->wants[i].pad : 0;
        }
        rt_unlock();
        rt_launch_xform_kernel(k, end, with_pads ? pads : NULL);
        rt_lock();
        return 1;
    }
    if (tries >= LAUNCH_BUILD_TRIES)
        return 0;
    for (cl_uint i = 0; i < k->nargs; i++) {
        const want *w = &a->wants[i];
        rt_buffer *b = w->transformed ? rt_buffer_find(w->mem) : NULL;
        if (!b || (b->transformed && rt_layout_equal(&b->cur, &w->to)) ||
            !rt_conversion_builds(c->queue, &w->from, &w->to))
            continue;
        rt_layout from = w->from, to = w->to; /* records: the annotation's */
        rt_unlock();
        int built = rt_conversion_prepare(c->queue, &from, &to);
        rt_lock();
        return built; /* not built: no use trying again this launch */
    }
    return 0;
}

/* Locked: brings the buffers into the layouts wanted, transformed unless
 * `plain`.  Returns 0, or the cause of a failed conversion (the launch
 * then runs plain on the original layout). */
static unsigned launch_convert(const launch_call *c, rt_kernel *k,
                               launch_args *a, int plain, cl_uint nwait,
                               const cl_event *wait, rt_events *done)
{
    if (!plain && !apply(k, a->wants, c->queue, nwait, wait, done))
        return 0;
    unsigned cause = plain ? 0 : RT_CAUSE_ENGINE;
    wants_plain(a, k);
    apply(k, a->wants, c->queue, nwait, wait, done);
    return cause;
}

/* The kernel a launch runs: the application's, or one of the activated
 * variant, flat where the range cannot be tiled. */
static cl_kernel launch_kernel(const launch_call *c, const rt_kernel *k,
                               const launch_args *a, int run_xform)
{
    return !run_xform ? c->kernel : a->flat ? k->xform_flat : k->xform;
}

/* Locked: the enqueue of the variant chosen, after the conversions, and
 * the record of its event on the buffers it uses.  Under the lock (it
 * does not block), so that no other thread converts these buffers
 * between our conversions and the command that needs them. */
static cl_int launch_enqueue(const launch_call *c, rt_kernel *k,
                             const launch_args *a, int run_xform,
                             dl_tuner_probe *probe, cl_uint nwait,
                             const cl_event *wait, const rt_events *done,
                             cl_event *event)
{
    /* Buffers whose later uses matter: those in the table. */
    rt_buffer *first_tracked = NULL;
    for (cl_uint i = 0; i < k->nargs && !first_tracked; i++)
        if (a->wants[i].mem)
            first_tracked = rt_buffer_find(a->wants[i].mem);
    rt_events joined = {0};
    cl_uint n = 0;
    dl_tuner_probe_converted(probe, done->n, done->ev);
    const cl_event *w = rt_events_join(&joined, nwait, wait, done, &n);
    cl_event own = NULL;
    cl_event *ev = event ? event : (first_tracked || probe ? &own : NULL);
    cl_int err = !run_xform ? CL_SUCCESS
                 : a->flat  ? sync_args(k, k->xform_flat, &k->flat_gen)
                            : rt_launch_sync_args(k);
    if (err == CL_SUCCESS) /* the flat variant runs the caller's range */
        err = real_launch(c, run_xform && !a->flat ? k : NULL,
                          launch_kernel(c, k, a, run_xform), n, w, ev);
    dl_tuner_probe_launched(probe, err == CL_SUCCESS && ev ? *ev : NULL,
                            run_xform);
    if (err == CL_SUCCESS)
        rt_reorder_kernel_wrote(k);
    if (err == CL_SUCCESS && ev && *ev)
        for (cl_uint i = 0; i < k->nargs; i++) {
            rt_buffer *b =
                a->wants[i].mem ? rt_buffer_find(a->wants[i].mem) : NULL;
            if (b)
                rt_buffer_used(b, c->queue, *ev);
        }
    if (own)
        dl_cl.clReleaseEvent(own);
    rt_events_free(&joined);
    return err;
}

/* A launch once annotated programs exist: what the arguments want and
 * the decision (without the lock), then under the lock what the buffers
 * hold, the builds that needs (each without the lock, then planned
 * again), the conversions, the enqueue and the memo. */
static cl_int launch_layout(const launch_call *c, cl_uint nwait,
                            const cl_event *wait, cl_event *event)
{
    /* A range OpenCL rejects runs nothing: the real call says why, and no
     * buffer moves for it. */
    if (!c->task && (!c->work_dim || !c->global))
        return real_launch(c, NULL, c->kernel, nwait, wait, event);
    /* Fast paths, without the lock (see rt_map_get). */
    rt_kernel *k = rt_kernel_get(c->kernel);
    if (!k) {
        rt_reorder_unknown_launch();
        if (RT_LOAD(dl_rt.transformed))
            return launch_unknown(c, nwait, wait, event);
        return real_launch(c, NULL, c->kernel, nwait, wait, event);
    }
    cl_int reordered;
    if (rt_renumber_launch(c, k, nwait, wait, event, &reordered))
        return reordered;
    if (rt_permute_launch(c, k, nwait, wait, event, &reordered))
        return reordered;
    rt_irregular_launched irr =
        rt_irregular_launch(c, k, nwait, wait, event, &reordered);
    if (irr == RT_IRREGULAR_DONE)
        return reordered;
    if (k->reorder && irr != RT_IRREGULAR_PLAIN &&
        rt_reorder_launch(c, k, nwait, wait, event, &reordered))
        return reordered;
    if (!k->transformed && !RT_LOAD(dl_rt.transformed) && !tracks_any_arg(k))
        return real_launch(c, NULL, c->kernel, nwait, wait, event);
    launch_args a;
    if (!args_open(&a, c, k)) {
        DL_LOG_ERROR("out of memory at a launch of '%s'", k->name);
        return launch_unknown(c, nwait, wait, event); /* runs it plain */
    }
    int tuned = rt_launch_tuned(k);
    dl_tuner_choice tc = rt_launch_decide(c, k, &a.env);
    rt_global_end end =
        k->transformed && tc.transform ? launch_end(c, k) : (rt_global_end){0};

    rt_lock();
    unsigned cause = 0;
    const dl_annot_arg *detail = NULL;
    for (int tries = 0; k->transformed && tc.transform; tries++) {
        cause = launch_plan(k, &a, &detail);
        int built = cause ? 0 : launch_build(c, k, &a, &end, tries);
        if (built < 0)
            cause = RT_CAUSE_ENGINE;
        if (built <= 0)
            break;
        wants_plain(&a, k); /* plan again: the state may have moved */
    }
    /* Nothing was converted yet: the probe's timing starts here. */
    dl_tuner_probe *probe = tc.measure
                                ? dl_tuner_probe_begin(dl_rt.tuner, tc.ticket,
                                                       c->queue, nwait, wait)
                                : NULL;
    /* plain: decided (no warning), or a cause found. */
    int plain = !k->transformed || !tc.transform || cause;
    rt_events done = {0};
    unsigned failed = launch_convert(c, k, &a, plain, nwait, wait, &done);
    int run_xform = !plain && !failed;
    cause = cause ? cause : failed;
    if (cause)
        warn_plain(k, cause, detail);
    else if (run_xform && tc.ticket && done.n)
        dl_tuner_note_conversion(dl_rt.tuner, tc.ticket);
    failed = cause == RT_CAUSE_ENGINE; /* the next launch tries again */
    if (k->transformed && !run_xform)
        RT_ADD(dl_rt.stats.plain_launches, 1);
    cl_int err =
        launch_enqueue(c, k, &a, run_xform, probe, nwait, wait, &done, event);
    if (err == CL_SUCCESS && run_xform)
        rt_stats_ran_transformed(k);
    /* The memo: every launch of a transformed kernel (either variant)
     * whose inputs decide it, i.e. not while the tuner probes or
     * measures, and under DL_POLICY=auto only for as many launches as
     * the tuner lets pass unseen between its monitoring launches.  Not
     * after a failed conversion: the next launch tries again. */
    int hits =
        !k->transformed || err != CL_SUCCESS || failed || rt_indirect_counts(k)
            ? 0
        : !tuned              ? INT_MAX
        : probe || tc.measure ? 0
                              : (int)tc.unseen;
    rt_memo_make(k, c->queue, c->task, c->work_dim, c->offset, c->global,
                 c->local, launch_kernel(c, k, &a, run_xform), hits);
    rt_unlock();
    rt_events_free(&done);
    args_close(&a);
    return err;
}

/* The launch, and with DL_COALESCING the count of its indirect
 * references, which needs its event (asked for if the caller did not). */
static __attribute__((noinline)) cl_int launch(const launch_call *c,
                                               cl_uint nwait,
                                               const cl_event *wait,
                                               cl_event *event)
{
    rt_kernel *k = dl_rt.controls.coalescing ? rt_kernel_get(c->kernel) : NULL;
    if (!rt_indirect_counts(k))
        return launch_layout(c, nwait, wait, event);
    cl_event own = NULL;
    cl_int err = launch_layout(c, nwait, wait, &own);
    if (err == CL_SUCCESS)
        rt_indirect_launched(c, k, own);
    if (event)
        *event = own;
    else if (own)
        dl_cl.clReleaseEvent(own);
    return err;
}

/* A launch the memo did not serve, once annotated programs exist. */
static __attribute__((noinline)) cl_int
launch_ndrange(cl_command_queue command_queue, cl_kernel kernel,
               cl_uint work_dim, const size_t *global_work_offset,
               const size_t *global_work_size, const size_t *local_work_size,
               cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
               cl_event *event)
{
    RT_ADD(dl_rt.stats.launches, 1);
    launch_call c = {.queue = command_queue,
                     .kernel = kernel,
                     .work_dim = work_dim,
                     .offset = global_work_offset,
                     .global = global_work_size,
                     .local = local_work_size};
    return launch(&c, num_events_in_wait_list, event_wait_list, event);
}

/* The real call of a claimed memo: the caller's range, or the tiled one
 * the memo keeps. */
static inline cl_int
memo_launch(rt_memo *m, cl_command_queue command_queue, cl_uint work_dim,
            const size_t *global_work_offset, const size_t *global_work_size,
            const size_t *local_work_size, cl_uint num_events_in_wait_list,
            const cl_event *event_wait_list, cl_event *event)
{
    cl_event own;
    cl_event *ev = rt_memo_call_begin(m, event, &own);
    cl_int err =
        !m->run_dim
            ? m->enqueue(command_queue, m->run_kernel, work_dim,
                         global_work_offset, global_work_size, local_work_size,
                         num_events_in_wait_list, event_wait_list, ev)
            : m->enqueue(command_queue, m->run_kernel, m->run_dim,
                         m->run_offset, m->run_global, m->run_local,
                         num_events_in_wait_list, event_wait_list, ev);
    rt_memo_call_end(m, err, event, own);
    return err;
}

/* What the shortest path below does not serve: a memo that tiles the
 * range, a kernel that is not the one used last (a loop of several
 * kernels: its entry from the table without the lock, then its memo),
 * and the launches no memo serves. */
static __attribute__((noinline)) cl_int
launch_unmemoized(cl_command_queue command_queue, cl_kernel kernel,
                  cl_uint work_dim, const size_t *global_work_offset,
                  const size_t *global_work_size, const size_t *local_work_size,
                  cl_uint num_events_in_wait_list,
                  const cl_event *event_wait_list, cl_event *event)
{
    rt_kernel *k = rt_kernel_get(kernel);
    if (k &&
        rt_memo_claim(k, command_queue, RT_CLAIM_ANY_RANGE, work_dim,
                      global_work_offset, global_work_size, local_work_size))
        return memo_launch(&k->memo, command_queue, work_dim,
                           global_work_offset, global_work_size,
                           local_work_size, num_events_in_wait_list,
                           event_wait_list, event);
    return launch_ndrange(command_queue, kernel, work_dim, global_work_offset,
                          global_work_size, local_work_size,
                          num_events_in_wait_list, event_wait_list, event);
}

/* The real call of a claimed memo on the caller's range, keeping its
 * event (rt_memo_call_begin).  Not inline: the event's stack slot and
 * the calls around it would give the entry point below a frame on every
 * path. */
static __attribute__((noinline)) cl_int
memo_call(rt_memo *m, cl_command_queue command_queue, cl_uint work_dim,
          const size_t *global_work_offset, const size_t *global_work_size,
          const size_t *local_work_size, cl_uint num_events_in_wait_list,
          const cl_event *event_wait_list, cl_event *event)
{
    cl_event own;
    cl_event *ev = rt_memo_call_begin(m, event, &own);
    cl_int err =
        m->enqueue(command_queue, m->run_kernel, work_dim, global_work_offset,
                   global_work_size, local_work_size, num_events_in_wait_list,
                   event_wait_list, ev);
    rt_memo_call_end(m, err, event, own);
    return err;
}

/* The memo first (rt_memo.h): the path of a launch repeated as it was,
 * kept short because every such launch pays it.  No sibling call: GCC
 * would keep the stack arguments in registers for it, on every path.  No
 * jump threading: GCC would copy the real call once per work_dim it can
 * tell apart, with that work_dim as a constant.  Only launches the memo
 * does not serve count here; the memo's reach `launches` through
 * rt_memo_count. */
__attribute__((optimize("no-optimize-sibling-calls", "no-thread-jumps"))) cl_int
dl_rt_clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                             cl_uint work_dim, const size_t *global_work_offset,
                             const size_t *global_work_size,
                             const size_t *local_work_size,
                             cl_uint num_events_in_wait_list,
                             const cl_event *event_wait_list, cl_event *event)
{
    rt_kernel *k = RT_LOAD(rt_last_kernel);
    if (__builtin_expect(RT_LOAD(k->kernel) == kernel, 1) &&
        rt_memo_claim(k, command_queue, RT_CLAIM_RANGE, work_dim,
                      global_work_offset, global_work_size, local_work_size)) {
        return memo_call(&k->memo, command_queue, work_dim, global_work_offset,
                         global_work_size, local_work_size,
                         num_events_in_wait_list, event_wait_list, event);
    }
    if (!RT_LOAD(dl_rt.annotated)) {
        RT_ADD(dl_rt.stats.launches, 1);
        return rt_fwd.clEnqueueNDRangeKernel(
            command_queue, kernel, work_dim, global_work_offset,
            global_work_size, local_work_size, num_events_in_wait_list,
            event_wait_list, event);
    }
    return launch_unmemoized(
        command_queue, kernel, work_dim, global_work_offset, global_work_size,
        local_work_size, num_events_in_wait_list, event_wait_list, event);
}

cl_int dl_rt_clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    rt_kernel *k = RT_LOAD(dl_rt.annotated) ? rt_kernel_get(kernel) : NULL;
    if (k &&
        rt_memo_claim(k, command_queue, RT_CLAIM_TASK, 0, NULL, NULL, NULL)) {
        cl_event own;
        cl_event *ev = rt_memo_call_begin(&k->memo, event, &own);
        cl_int err =
            rt_fwd.clEnqueueTask(command_queue, k->memo.run_kernel,
                                 num_events_in_wait_list, event_wait_list, ev);
        rt_memo_call_end(&k->memo, err, event, own);
        return err;
    }
    RT_ADD(dl_rt.stats.launches, 1);
    if (!RT_LOAD(dl_rt.annotated))
        return rt_fwd.clEnqueueTask(command_queue, kernel,
                                    num_events_in_wait_list, event_wait_list,
                                    event);
    launch_call c = {.queue = command_queue, .kernel = kernel, .task = 1};
    return launch(&c, num_events_in_wait_list, event_wait_list, event);
}
