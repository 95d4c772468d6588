/* rt_indirect.c - DL_COALESCING at a launch: for each indirect reference
 * A[P[e] + c] of the kernel, its range (the kernel's arguments and the
 * program's -D macros), then a non-blocking read of the entries of P it
 * uses, on the launch's queue, after the launch's event; no wait is added
 * and nothing blocks.  rt_indirect_count.c counts what the reads bring. */
#define _GNU_SOURCE /* strndup */
#include "rt_indirect.h"
#include "rt_indirect_count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

dl_status rt_indirect_macro(void *user, const char *name, int64_t *value)
{
    const char *options = user ? user : "";
    size_t n = strlen(name);
    for (const char *at = strstr(options, "-D"); at;
         at = strstr(at + 2, "-D")) {
        const char *s = at + 2;
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, name, n) ||
            (s[n] && s[n] != '=' && s[n] != ' ' && s[n] != '\t'))
            continue;
        if (s[n] != '=') {
            *value = 1;
            return DL_SUCCESS;
        }
        size_t len = strcspn(s + n + 1, " \t");
        dl_dims_expr *e = NULL;
        DL_RETURN_IF_FAIL(dl_dims_parse(s + n + 1, len, &e));
        dl_status st =
            dl_dims_is_const(e)
                ? dl_dims_eval(e, NULL, value)
                : dl_fail(DL_INVALID_ARGUMENT, "macro %s is no number", name);
        dl_dims_free(e);
        return st;
    }
    return dl_fail(DL_INVALID_ARGUMENT,
                   "'%s' is neither a kernel argument "
                   "nor a -D macro of the build options",
                   name);
}

/* The entries of P a launch reads, [first, first + count), within P's
 * `entries`; 0 when it reads none of them. */
static int window(const dl_annot_indirect_range *r, size_t threads,
                  uint64_t entries, uint64_t *first, uint64_t *count)
{
    uint64_t last, loop;
    if (!threads || !r->steps || (uint64_t)r->base >= entries)
        return 0;
    if (__builtin_mul_overflow((uint64_t)(threads - 1), (uint64_t)r->t_stride,
                               &last) ||
        __builtin_mul_overflow(r->steps - 1, (uint64_t)r->j_stride, &loop) ||
        __builtin_add_overflow(last, loop, &last) ||
        __builtin_add_overflow(last, (uint64_t)r->base, &last) ||
        last >= entries)
        last = entries - 1;
    *first = (uint64_t)r->base;
    *count = last - *first + 1;
    return 1;
}

dl_dims_env rt_indirect_env(const launch_call *c, const rt_kernel *k,
                            dl_dims_raw_arg *raw)
{
    static const size_t one[3] = {1, 1, 1};
    cl_uint n = k->nargs < 64 ? k->nargs : 64;
    for (cl_uint i = 0; i < n; i++)
        raw[i] = (dl_dims_raw_arg){k->args[i].size ? k->args[i].value : NULL,
                                   k->args[i].size};
    return (dl_dims_env){.work_dim = c->task ? 1 : c->work_dim,
                         .global_size = c->task ? one : c->global,
                         .local_size = c->task ? one : c->local,
                         .global_offset = c->task ? NULL : c->offset,
                         .args = raw,
                         .nargs = n};
}

dl_status rt_indirect_eval(const launch_call *c, const rt_kernel *k,
                           const dl_annot_indirect *r,
                           dl_annot_indirect_range *out)
{
    dl_dims_raw_arg raw[64];
    dl_dims_env env = rt_indirect_env(c, k, raw);
    return dl_annot_indirect_eval(r, k->annot->nparams, &env, rt_indirect_macro,
                                  k->prog ? k->prog->options : NULL, out);
}

dl_status rt_indirect_rows_eval(const launch_call *c, const rt_kernel *k,
                                const dl_annot_indirect *r,
                                dl_annot_rows_range *out)
{
    dl_dims_raw_arg raw[64];
    dl_dims_env env = rt_indirect_env(c, k, raw);
    return dl_annot_indirect_rows_eval(r, k->annot->nparams, &env,
                                       rt_indirect_macro,
                                       k->prog ? k->prog->options : NULL, out);
}

/* The job of reference r at launch c, or NULL with the reason in *why. */
static rt_job *make_job(const launch_call *c, const rt_kernel *k,
                        const dl_annot_indirect *r, size_t p_bytes,
                        size_t sample, const char **why)
{
    dl_annot_indirect_range range;
    if (rt_indirect_eval(c, k, r, &range) != DL_SUCCESS) {
        *why = dl_last_error();
        return NULL;
    }
    if (range.base < 0 || range.t_stride < 0 || range.j_stride < 0) {
        *why = "the index decreases or starts before the index buffer";
        return NULL;
    }
    size_t isz = dl_int_type_size(r->via_type);
    size_t threads = sample && sample < c->global[0] ? sample : c->global[0];
    uint64_t first, count;
    if (sample && window(&range, threads, p_bytes / isz, &first, &count) &&
        count > RT_SAMPLE_ENTRIES)
        range.steps = 1;
    if (!window(&range, threads, p_bytes / isz, &first, &count)) {
        *why = "the launch reads no entry of the index buffer";
        return NULL;
    }
    rt_job *j = calloc(1, sizeof *j);
    if (j)
        j->host = malloc(count * isz);
    if (!j || !j->host) {
        free(j);
        *why = "out of host memory";
        return NULL;
    }
    j->ref = (dl_coalesce_ref){r->elem_size, r->field_offset, r->field_size,
                               range.offset};
    j->range =
        (dl_coalesce_range){threads, range.steps, 0, (size_t)range.t_stride,
                            (size_t)range.j_stride};
    j->type = r->via_type;
    j->first = (size_t)first;
    j->count = (size_t)count;
    return j;
}

/* Enqueues the read of j's entries of P after `launched`; its callback
 * then owns j.  Returns NULL, or why it could not. */
static const char *enqueue_read(const launch_call *c, rt_job *j, cl_mem p,
                                cl_mem bounds, cl_event launched)
{
    size_t isz = dl_int_type_size(j->type), bsz = dl_int_type_size(j->btype);
    if (j->rows && dl_cl.clEnqueueReadBuffer(
                       c->queue, bounds, CL_FALSE, j->bfirst * bsz,
                       j->bcount * bsz, j->bounds, launched ? 1 : 0,
                       launched ? &launched : NULL, &j->bread) != CL_SUCCESS)
        return "the bounds array cannot be read";
    cl_event after = j->rows ? j->bread : launched; /* P after the bounds */
    cl_int err = dl_cl.clEnqueueReadBuffer(
        c->queue, p, CL_FALSE, j->first * isz, j->count * isz, j->host,
        after ? 1 : 0, after ? &after : NULL, &j->read);
    if (err != CL_SUCCESS)
        return "the index buffer cannot be read";
    if (rt_job_watch(j) == 0)
        return NULL;
    /* Left pending: the exit counts it once the read is done. */
    DL_LOG_WARN("coalescing: no completion callback on a read of an index "
                "buffer; it is counted at exit if it is done by then");
    return NULL;
}

/* Why launch c of k is counted for none of its references, or NULL. */
static const char *uncountable(const launch_call *c)
{
    if (c->task || c->work_dim != 1)
        return "counted for 1-D ranges only";
    return NULL;
}

const char *rt_indirect_buffer(const rt_kernel *k, uint32_t via, cl_mem *p,
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
    if (!*p || dl_cl.clGetMemObjectInfo(*p, CL_MEM_SIZE, sizeof *bytes, bytes,
                                        NULL) != CL_SUCCESS)
        return "the index buffer is no buffer";
    return NULL;
}

const char *rt_indirect_read(const launch_call *c, const rt_kernel *k,
                             const dl_annot_indirect *r, cl_event launched,
                             size_t sample, const rt_job *proto)
{
    cl_mem p = NULL, bounds = NULL;
    size_t bytes = 0;
    const char *why = uncountable(c);
    why = why ? why : rt_indirect_buffer(k, r->via, &p, &bytes);
    rt_job *j = why ? NULL
                : r->rows[0].index
                    ? rt_rows_job(c, k, r, bytes, sample, &bounds, &why)
                    : make_job(c, k, r, bytes, sample, &why);
    if (j) {
        j->into = proto->into;
        j->geometry = proto->geometry;
        j->counted = proto->counted;
        j->owner = proto->owner;
        why = enqueue_read(c, j, p, bounds, launched);
    }
    if (why && j) {
        if (j->bread) /* its read may still write them: left, not freed */
            dl_cl.clReleaseEvent(j->bread);
        else
            free(j->bounds);
        free(j->host);
        free(j);
    }
    return why;
}

/* One reference at launch c: its totals, then its read. */
static void launched_ref(const launch_call *c, const rt_kernel *k,
                         const dl_annot_indirect *r, cl_device_id dev,
                         cl_event launched)
{
    dl_coalesce_geometry g;
    if (!dev ||
        dl_coalesce_geometry_for_device(dev, r->field_size, &g) != DL_SUCCESS)
        g = dl_coalesce_geometry_gpu();
    rt_total *t = rt_total_of(k->annot, r, g);
    if (!t)
        return;
    const char *why = rt_indirect_read(c, k, r, launched, 0,
                                       &(rt_job){.into = t, .geometry = g});
    if (why)
        rt_total_skip(t, why);
}

void rt_indirect_launched(const launch_call *c, const rt_kernel *k,
                          cl_event launched)
{
    cl_device_id dev = NULL;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                    NULL) != CL_SUCCESS)
        dev = NULL;
    for (uint32_t i = 0; i < k->annot->nindirect; i++)
        launched_ref(c, k, &k->annot->indirect[i], dev, launched);
}
