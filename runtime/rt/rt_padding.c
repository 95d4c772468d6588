/* rt_padding.c - padding on the device (rt_padding.h): the plan and its
 * upload on the planning thread, A'' gathered at the launches that find
 * it missing or older than A, and the program's kernel run on A'' and
 * Q' through dlayout's own kernel object. */
#include "rt_padding.h"
#include "gather.h"
#include "padding_slots.h"
#include "rt_permute.h"
#include "rt_reorder.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- facts */

const char *rt_padding_unfit(rt_kernel *k, const dl_annot_indirect *r,
                             int a_written)
{
    if (a_written)
        return "the kernel may write A (A'' would go stale)";
    int ref = rt_permute_ref(k);
    uint32_t refs[RT_PERM_ARRAYS];
    if (ref < 0 || &k->annot->indirect[ref] != r)
        return "the kernel names A or P other than as A[P[...]] with no "
               "offset, or reads another array through P";
    if (rt_permute_refs(k, refs) != 1)
        return "another array is read through P too (Q' serves one array)";
    const dl_kernel_param *via = &k->annot->params[r->via];
    if (!via->pointee_const && via->space != DL_SPACE_CONSTANT && !k->reorder)
        return "P is not const: its launches count as writes of it";
    return NULL;
}

/* ---------------------------------------------------------- planning */

static void decline(rt_jobswap_plan *p, const char *why)
{
    p->facts.padding_form = 0;
    p->facts.no_padding = why;
}

/* The largest slot number P's type holds (4 bytes: signed or not). */
static uint64_t slot_limit(dl_int_type type)
{
    return dl_int_type_size(type) >= 8 ? INT64_MAX : INT32_MAX;
}

unsigned rt_padding_e_bytes(const dl_padding_slots *s)
{
    for (size_t i = 0; i < s->slots; i++)
        if (s->source[i] > INT32_MAX)
            return 8;
    return 4;
}

void rt_padding_plan(rt_jobswap_plan *p, const int64_t *all,
                     const dl_coalesce_geometry *g,
                     const dl_coalesce_range *as_read)
{
    unsigned per = g->segment_bytes / p->ref.elem_bytes;
    dl_padding_slots *s = calloc(1, sizeof *s);
    if (!s || dl_padding_slots_build(all, p->entries, p->ref.offset, as_read,
                                     p->pad_job, g->simd_width, per ? per : 1,
                                     s) != DL_SUCCESS) {
        free(s);
        decline(p, "out of host memory for its plan");
        return;
    }
    p->padding = s;
    if (!s->slots || s->slots - 1 > slot_limit(p->type)) {
        decline(p, s->slots ? "A'' has more slots than P's type can index"
                            : "the launch reads no entry");
        return;
    }
    int64_t *q = malloc((s->entries ? s->entries : 1) * sizeof *q);
    if (!q) {
        decline(p, "out of host memory for its plan");
        return;
    }
    for (size_t i = 0; i < s->entries; i++)
        q[i] = (int64_t)s->slot[i];
    dl_coalesce_ref whole = p->ref;
    whole.offset = 0;
    dl_coalesce_counts c = {0, 0, 0};
    if (dl_coalesce_count(g, &whole, as_read, q, s->entries, 8, &c) ==
        DL_SUCCESS)
        p->facts.tx_padding = c.before;
    free(q);
    p->facts.bytes_padding =
        s->slots * (p->ref.elem_bytes + rt_padding_e_bytes(s)) + p->p_bytes;
}

/* Q' over all of P: the planned entries' slots from p->base on, zero
 * (a valid slot) elsewhere; in P's type. */
static void *q_entries(const rt_jobswap_plan *p, const dl_padding_slots *s)
{
    size_t isz = dl_int_type_size(p->type);
    unsigned char *q = calloc(1, p->p_bytes ? p->p_bytes : 1);
    for (size_t i = 0; q && i < s->entries; i++) {
        size_t at = (p->base + i) * isz;
        if (isz == 8) {
            uint64_t v = s->slot[i];
            memcpy(q + at, &v, 8);
        } else {
            uint32_t v = (uint32_t)s->slot[i];
            memcpy(q + at, &v, 4);
        }
    }
    return q;
}

static cl_mem upload_table(cl_context ctx, const void *host, size_t bytes)
{
    cl_int err = CL_SUCCESS;
    return dl_cl.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                bytes, (void *)host, &err);
}

/* E in entries of `bytes`: the gather zeroes the empty slots (-1). */
static void *e_entries(const dl_padding_slots *s, unsigned bytes)
{
    unsigned char *e = malloc(s->slots * bytes);
    for (size_t i = 0; e && i < s->slots; i++) {
        int64_t v = s->source[i] == DL_SLOT_EMPTY ? -1 : s->source[i];
        int32_t v4 = (int32_t)v;
        memcpy(e + i * bytes, bytes == 8 ? (void *)&v : (void *)&v4, bytes);
    }
    return e;
}

rt_pad *rt_padding_upload(rt_jobswap_plan *p, const dl_padding_slots *s,
                          cl_kernel variant, cl_mem job, const char **why)
{
    rt_pad *pad = calloc(1, sizeof *pad);
    void *q = pad ? q_entries(p, s) : NULL;
    unsigned eb = rt_padding_e_bytes(s);
    void *e = q ? e_entries(s, eb) : NULL;
    if (!e) {
        free(pad);
        free(q);
        *why = "out of host memory";
        return NULL;
    }
    pad->refs = 1;
    pad->e_bytes = eb;
    pad->q = upload_table(p->context, q, p->p_bytes);
    pad->e = upload_table(p->context, e, s->slots * eb);
    free(q);
    free(e);
    if (variant) {
        dl_cl.clRetainKernel(variant);
        if (job)
            dl_cl.clRetainMemObject(job);
        pad->kernel = variant;
        pad->job = job;
    } else {
        pad->kernel = p->pad_kernel;
        p->pad_kernel = NULL;
    }
    pad->a = p->a_mem;
    pad->p = p->p_mem;
    pad->array = p->array;
    pad->via = p->via;
    pad->version_p = p->version_p;
    pad->slots = s->slots;
    pad->empty = s->empty;
    pad->elem = p->ref.elem_bytes;
    pad->q_bytes = p->p_bytes;
    pad->global = p->global;
    pad->base = p->base;
    pad->t_stride = p->t_stride;
    pad->j_stride = p->j_stride;
    pad->steps = p->steps;
    if (!pad->q || !pad->e || !pad->kernel) {
        *why = "Q' or E cannot be allocated on the device";
        rt_padding_unref(pad);
        return NULL;
    }
    return pad;
}

void rt_padding_unref(rt_pad *pad)
{
    if (!pad || --pad->refs)
        return;
    cl_mem mems[] = {pad->q,   pad->e,         pad->a2,
                     pad->job, pad->block_pos, pad->block_size};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        if (mems[i])
            dl_cl.clReleaseMemObject(mems[i]);
    if (pad->ready)
        dl_cl.clReleaseEvent(pad->ready);
    if (pad->kernel)
        dl_cl.clReleaseKernel(pad->kernel);
    free(pad);
}

/* ----------------------------------------------------------- launches */

/* A''[s] = A[E[s]] on the launch's queue after its wait list and A's
 * ordering events.  NULL, or why not. */
static const char *gather(const launch_call *c, const rt_pad *pad,
                          dl_engine *engine, cl_uint nwait,
                          const cl_event *wait, const rt_events *order,
                          cl_mem *a2, cl_event *ready)
{
    cl_context ctx = NULL;
    cl_int err = CL_SUCCESS;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_CONTEXT, sizeof ctx,
                                    &ctx, NULL) != CL_SUCCESS ||
        !(*a2 = dl_cl.clCreateBuffer(ctx, CL_MEM_READ_WRITE,
                                     pad->slots * pad->elem, NULL, &err)))
        return "A'' cannot be allocated";
    dl_coalesce_ref whole = {pad->elem, 0, pad->elem, 0};
    dl_coalesce_range slots = {pad->slots, 1, 0, 1, 0};
    rt_events joined = {0};
    cl_uint nw = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, order, &nw);
    dl_status st = dl_enqueue_gather(engine, c->queue, pad->a, pad->e, &whole,
                                     &slots, pad->e_bytes, *a2, nw, w, ready);
    rt_events_free(&joined);
    return st == DL_SUCCESS ? NULL : dl_last_error();
}

/* Locked: why pad cannot serve this launch of k, or NULL; *stale when P
 * moved on since its entries were read. */
static const char *unusable(const launch_call *c, const rt_kernel *k,
                            const rt_pad *pad, int *stale)
{
    rt_buffer *a = rt_buffer_find(pad->a), *p = rt_buffer_find(pad->p);
    *stale = 0;
    if (rt_launch_arg_mem(k, pad->array) != pad->a ||
        rt_launch_arg_mem(k, pad->via) != pad->p)
        return "its array or index buffer argument changed";
    if (!a || !p || a->transformed || p->transformed)
        return "its array or index buffer is in another layout or untracked";
    for (cl_uint i = 0; i < k->nargs; i++) /* dlayout's object needs all */
        if (!k->args[i].size && i != pad->array && i != pad->via)
            return "an argument's value is not known to dlayout";
    if (pad->group && c->local && c->local[0] != pad->group)
        return "its local size is not the one its groups were planned for";
    *stale = rt_reorder_version(p) != pad->version_p;
    return *stale ? "its index buffer was written" : NULL;
}

/* Locked: A'' and its gather event made current (regathered: the new
 * ones, a use of A), retained into *a2, *ready for the launch. */
static void take(const launch_call *c, rt_pad *pad, uint64_t version,
                 cl_mem *a2, cl_event *ready)
{
    if (*a2) {
        if (pad->a2)
            dl_cl.clReleaseMemObject(pad->a2);
        if (pad->ready)
            dl_cl.clReleaseEvent(pad->ready);
        pad->a2 = *a2;
        pad->ready = *ready;
        pad->version_a = version;
        rt_buffer *a = rt_buffer_find(pad->a);
        if (a && *ready)
            rt_buffer_used(a, c->queue, *ready);
    }
    *a2 = pad->a2;
    *ready = pad->ready;
    dl_cl.clRetainMemObject(*a2);
    if (*ready)
        dl_cl.clRetainEvent(*ready);
}

static void announce_pad(const rt_kernel *k, const rt_pad *pad)
{
    if (pad->group)
        DL_LOG_INFO("irregular: kernel '%s' runs shared from this launch on, "
                    "%s (A_s of %zu slots, %zu empty: %zu B, L %zu B, E %zu "
                    "B; %zu groups of %zu work-items, the largest block %zu "
                    "elements: %zu B of __local memory)",
                    k->name, pad->job ? "clustered" : "in launch order",
                    pad->slots, pad->empty, pad->slots * pad->elem,
                    pad->q_bytes, pad->slots * pad->e_bytes, pad->groups,
                    pad->group, pad->max_block, pad->local_bytes);
    else
        DL_LOG_INFO("irregular: kernel '%s' runs padded from this launch on, "
                    "%s (A'' of %zu slots, %zu empty: %zu B, Q' %zu B, E %zu "
                    "B)",
                    k->name, pad->job ? "job-swapped" : "in launch order",
                    pad->slots, pad->empty, pad->slots * pad->elem,
                    pad->q_bytes, pad->slots * pad->e_bytes);
}

rt_pad_launched rt_padding_launch(const launch_call *c, rt_kernel *k,
                                  rt_pad *pad, cl_uint nwait,
                                  const cl_event *wait, cl_event *event,
                                  cl_int *err)
{
    int stale;
    rt_events order = {0};
    dl_engine *engine = NULL;
    rt_lock();
    const char *why = unusable(c, k, pad, &stale);
    uint64_t version = why ? 0 : rt_reorder_version(rt_buffer_find(pad->a));
    int regather = !why && (!pad->a2 || version != pad->version_a);
    if (regather) {
        rt_buffer_order(rt_buffer_find(pad->a), c->queue, &order);
        if (rt_context_engine(c->queue, &engine) != DL_SUCCESS)
            why = "no engine for the launch's queue";
    }
    rt_unlock();
    cl_mem a2 = NULL;
    cl_event ready = NULL;
    if (regather && !why)
        why = gather(c, pad, engine, nwait, wait, &order, &a2, &ready);
    rt_events_free(&order);
    if (why) {
        if (a2)
            dl_cl.clReleaseMemObject(a2);
        if (ready)
            dl_cl.clReleaseEvent(ready);
        DL_LOG_DEBUG("irregular: kernel '%s' runs as written at this launch: "
                     "%s",
                     k->name, why);
        return stale ? RT_PAD_STALE : RT_PAD_PLAIN;
    }
    rt_lock();
    take(c, pad, version, &a2, &ready);
    int announce = !pad->announced;
    pad->announced = 1;
    rt_unlock();
    if (announce)
        announce_pad(k, pad);
    else if (regather) /* not the first: A was written since */
        DL_LOG_INFO("irregular: kernel '%s': %s gathered again, its array "
                    "was written",
                    k->name, pad->group ? "A_s" : "A''");
    rt_irregular_args x = {.job = pad->job,
                           .array = pad->array,
                           .via = pad->via,
                           .a = a2,
                           .p = pad->q,
                           .ready = ready,
                           .block_pos = pad->block_pos,
                           .block_size = pad->block_size,
                           .local_bytes = pad->local_bytes,
                           /* the kernel cannot observe it: the form
                              exists only where that holds (rt_sharing.h) */
                           .local =
                               pad->group && !c->local ? &pad->group : NULL};
    rt_irregular_launched run =
        rt_irregular_run(c, k, pad->kernel, &x, nwait, wait, event, err);
    dl_cl.clReleaseMemObject(a2);
    if (ready)
        dl_cl.clReleaseEvent(ready);
    /* A refused enqueue ran nothing: the program's kernel runs instead. */
    return run == RT_IRREGULAR_DONE && *err == CL_SUCCESS ? RT_PAD_DONE
                                                          : RT_PAD_PLAIN;
}
