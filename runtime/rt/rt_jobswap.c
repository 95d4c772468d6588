/* rt_jobswap.c - the launches of a kernel with indirect references
 * (rt_jobswap.h): the first one reads P after itself, without blocking,
 * for the planning (rt_jobswap_plan.c); the job-swapped variant runs once
 * the planning chose it and R is on the device.  The variant gets the
 * program's arguments and R after them: dl-annotate appends dl_job after
 * the kernel's own parameters, and the DL_ACTIVE_ ones are not compiled
 * in this build. */
#define _GNU_SOURCE /* strdup */
#include "rt_jobswap_plan.h"
#include "gather.h"
#include "rt_indirect.h"
#include "rt_padding.h"
#include "rt_permute.h"
#include "rt_reorder.h"
#include "rt_tripswap_plan.h"
#include "rt_sharing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Under DL_POLICY=auto the selector's planning starts only once the
 * kernel's launches took PLAN_PAYS_AFTER times its estimated cost: P's
 * entries at PLAN_NS_PER_ENTRY (its read, the counts, the job map, the
 * permutation's and padding's plans: 2.7 s for 16.8M entries of a 2M-row
 * ELL SpMV on POCL here), and two builds of the program (the job-swapped
 * form, padding's kernel).  A program too short to pay it plans nothing. */
#define PLAN_NS_PER_ENTRY 150.0
#define PLAN_PAYS_AFTER   4.0
/* The launches the tuner runs plain before any probe (tuner.h). */
#define PLAN_MIN_LAUNCHES 3u

/* ------------------------------------------------------------- facts */

int rt_irregular_jobswap_form(const dl_annot_kernel *ak)
{
    for (uint32_t i = 0; i < ak->nparams; i++)
        if (!strcmp(ak->params[i].name, "dl_job"))
            return 1;
    return 0;
}

/* Whether a __global pointer other than the indirect references' arrays
 * and index buffers is read or written: by the work-item id, as far as
 * dlayout knows, so moving work-items would disturb it. */
static int others_indexed(const dl_annot_kernel *ak)
{
    for (uint32_t i = 0; i < ak->nparams; i++) {
        const dl_kernel_param *p = &ak->params[i];
        if (!p->pointer || p->space != DL_SPACE_GLOBAL ||
            !strncmp(p->name, "dl_", 3))
            continue;
        int used = 0;
        for (uint32_t r = 0; r < ak->nindirect && !used; r++)
            used = ak->indirect[r].array == i || ak->indirect[r].via == i;
        if (!used)
            return 1;
    }
    return 0;
}

static int a_written(const dl_annot_kernel *ak, const dl_annot_indirect *r)
{
    const dl_kernel_param *a = &ak->params[r->array];
    return r->write || !(a->pointee_const || a->space == DL_SPACE_CONSTANT);
}

/* ------------------------------------------------------------ state */

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

rt_irregular *rt_irregular_state(rt_kernel *k)
{
    if (!k->irregular && (k->irregular = calloc(1, sizeof *k->irregular))) {
        k->irregular->refs = 1;
        k->irregular->first_ns = now_ns();
    }
    return k->irregular;
}

void rt_irregular_forget(rt_kernel *k)
{
    if (!k->irregular)
        return;
    k->irregular->gone = 1;
    rt_irregular_unref(k->irregular);
    k->irregular = NULL;
}

/* Whether a launch on `path` that dlayout does not run itself runs as
 * written (rather than on the reordering path). */
static int as_written(rt_irregular_path path)
{
    return path == RT_PATH_PLAIN || path == RT_PATH_REMAP ||
           path == RT_PATH_PADDING || path == RT_PATH_SHARING;
}

/* Logs `why` once per kernel and makes the path final. */
static rt_irregular_launched settle(rt_kernel *k, rt_irregular_path path,
                                    const char *why)
{
    rt_lock();
    rt_irregular *st = k->irregular;
    int first = st && !st->decided;
    if (first) {
        st->decided = 1;
        st->path = path;
    }
    rt_unlock();
    if (first)
        DL_LOG_INFO_AT(k->prog ? k->prog->name : "<source>",
                       k->annot ? k->annot->line : 0,
                       "irregular: kernel '%s' %s: %s", k->name,
                       rt_select_path_words(path), why);
    return as_written(path) ? RT_IRREGULAR_PLAIN : RT_IRREGULAR_ASIS;
}

int rt_irregular_remapped(const rt_kernel *k)
{
    return k->irregular && k->irregular->decided &&
           k->irregular->path == RT_PATH_REMAP;
}

void rt_irregular_remap_forced(rt_kernel *k)
{
    rt_lock();
    rt_irregular *st = rt_irregular_state(k);
    int first = st && !st->decided;
    rt_unlock();
    if (!first)
        return;
    dl_selection sel;
    rt_select_facts f;
    rt_select_facts_init(&f);
    f.remap_form = 1;
    settle(k, rt_select_path(DL_IRREGULAR_REMAP, &f, &sel), sel.reason);
}

/* ----------------------------------------------------------- enqueue */

/* The shared form's parameters from `at` on: dl_block_pos, dl_block_size
 * and the __local dl_share. */
static cl_int share_args(cl_kernel kernel, cl_uint at,
                         const rt_irregular_args *x)
{
    cl_int err =
        dl_cl.clSetKernelArg(kernel, at, sizeof x->block_pos, &x->block_pos);
    if (err == CL_SUCCESS)
        err = dl_cl.clSetKernelArg(kernel, at + 1, sizeof x->block_size,
                                   &x->block_size);
    return err == CL_SUCCESS
               ? dl_cl.clSetKernelArg(kernel, at + 2, x->local_bytes, NULL)
               : err;
}

/* Locked: `kernel` (the program's, or one of dlayout's with the
 * program's arguments and x's changes: R after them, A and P substituted)
 * after the caller's list, the ordering events and x's event; its event a
 * use of every tracked argument.  NULL, or why not (an argument in a
 * converted layout: the caller's path restores it). */
static const char *enqueue(const launch_call *c, rt_kernel *k, cl_kernel kernel,
                           const rt_irregular_args *x, cl_uint nwait,
                           const cl_event *wait, cl_event *ev, cl_int *err)
{
    rt_events order = {0};
    for (cl_uint i = 0; i < k->nargs; i++) {
        cl_mem m = rt_launch_arg_mem(k, i);
        rt_buffer *b = m ? rt_buffer_find(m) : NULL;
        if (b && b->transformed) {
            rt_events_free(&order);
            return "an argument is in a converted layout";
        }
        if (b)
            rt_buffer_order(b, c->queue, &order);
    }
    *err = CL_SUCCESS;
    for (cl_uint i = 0; x && i < k->nargs && *err == CL_SUCCESS; i++) {
        cl_mem sub = x->a && i == x->array ? x->a
                     : x->p && i == x->via ? x->p
                                           : NULL;
        if (sub)
            *err = dl_cl.clSetKernelArg(kernel, i, sizeof sub, &sub);
        else if (k->args[i].size)
            *err = dl_cl.clSetKernelArg(kernel, i, k->args[i].size,
                                        k->args[i].value);
    }
    cl_uint extra = k->nargs;
    if (x && x->job && *err == CL_SUCCESS)
        *err = dl_cl.clSetKernelArg(kernel, extra++, sizeof x->job, &x->job);
    if (x && x->block_pos && *err == CL_SUCCESS)
        *err = share_args(kernel, extra, x);
    if (x && x->ready)
        rt_events_push_once(&order, x->ready);
    rt_events joined = {0};
    cl_uint nw = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, &order, &nw);
    const size_t *local = x && x->local ? x->local : c->local;
    if (*err == CL_SUCCESS)
        *err = rt_fwd.clEnqueueNDRangeKernel(c->queue, kernel, 1, c->offset,
                                             c->global, local, nw, w, ev);
    if (*err == CL_SUCCESS && *ev) {
        for (cl_uint i = 0; i < k->nargs; i++) {
            cl_mem m = rt_launch_arg_mem(k, i);
            rt_buffer *b = m ? rt_buffer_find(m) : NULL;
            if (b)
                rt_buffer_used(b, c->queue, *ev);
        }
        rt_reorder_kernel_wrote(k);
    }
    rt_events_free(&joined);
    rt_events_free(&order);
    return NULL;
}

rt_irregular_launched rt_irregular_run(const launch_call *c, rt_kernel *k,
                                       cl_kernel kernel,
                                       const rt_irregular_args *x,
                                       cl_uint nwait, const cl_event *wait,
                                       cl_event *event, cl_int *err)
{
    cl_event own = NULL;
    rt_lock();
    const char *why =
        enqueue(c, k, kernel, x, nwait, wait, event ? event : &own, err);
    rt_unlock();
    if (own)
        dl_cl.clReleaseEvent(own);
    return why ? RT_IRREGULAR_ASIS : RT_IRREGULAR_DONE;
}

/* The job-swapped variant with R, or the program's kernel (job NULL). */
static rt_irregular_launched run(const launch_call *c, rt_kernel *k,
                                 cl_kernel kernel, cl_mem job, cl_uint nwait,
                                 const cl_event *wait, cl_event *event,
                                 cl_int *err)
{
    rt_irregular_args x = {.job = job};
    return rt_irregular_run(c, k, kernel, job ? &x : NULL, nwait, wait, event,
                            err);
}

/* ---------------------------------------------------------- planning */

const char *rt_irregular_unplannable(const launch_call *c)
{
    if (c->task || c->work_dim != 1)
        return "job swapping and the selector take 1-D ranges only";
    if (c->offset && c->offset[0])
        return "the range has a global offset";
    if (c->global[0] > UINT32_MAX)
        return "the range exceeds the job map's 32-bit entries";
    return NULL;
}

/* The range of reference r at launch c (work-item t reads entry base +
 * t * t_stride + j * j_stride at step j), growing with t and j.  NULL, or
 * why not. */
static const char *plan_range(const launch_call *c, const rt_kernel *k,
                              const dl_annot_indirect *r,
                              dl_annot_indirect_range *range)
{
    if (r->rows[0].index)
        return "its first reference is a row-bounded (CSR) loop, whose "
               "entries job swapping cannot plan by segment (a jobs key, "
               "'//DL: jobs: by rowptr[gid + 1] - rowptr[gid]', has it "
               "sort the jobs by trip count)";
    if (rt_indirect_eval(c, k, r, range) != DL_SUCCESS)
        return "its first reference cannot be evaluated at this launch";
    if (range->t_stride < 0 || range->j_stride < 0 || range->base < 0 ||
        !range->steps)
        return "its first reference's index decreases or starts before the "
               "index buffer";
    return NULL;
}

/* The permutation's row: whether r is the reference it may take, and A's
 * elements (the planning counts pi's transactions from P's entries).  The
 * memory is pi, pi^-1 and both plans' order tables, 16 bytes an element
 * at most (rt_permute_plan.c checks the exact figure). */
static void remap_facts(rt_kernel *k, const dl_annot_indirect *r,
                        rt_jobswap_plan *p)
{
    cl_mem a = rt_launch_arg_mem(k, r->array);
    size_t bytes = 0;
    rt_lock();
    int ref = rt_permute_ref(k);
    rt_unlock();
    if (ref < 0 || &k->annot->indirect[ref] != r || !a || !r->elem_size ||
        dl_cl.clGetMemObjectInfo(a, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
            CL_SUCCESS)
        return;
    p->elements = bytes / r->elem_size;
    p->facts.remap_form = p->elements >= 2 && p->elements <= INT32_MAX;
    p->remap_key = (rt_metis_key){rt_launch_arg_mem(k, r->via), a, 0,
                                  p->elements, r->elem_size};
    p->facts.bytes_remap = p->elements * 4 * sizeof(uint32_t);
}

/* Padding's row: whether it may serve r, and what its plan needs: the
 * program's kernel as dlayout's own object (under DL_IRREGULAR=padding
 * or auto only: it is made for nothing else). */
static void padding_facts(rt_kernel *k, const dl_annot_indirect *r,
                          const dl_annot_indirect_range *range, size_t p_bytes,
                          rt_jobswap_plan *p)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    rt_lock();
    const char *why = rt_padding_unfit(k, r, p->facts.a_written);
    rt_unlock();
    cl_int err = CL_SUCCESS;
    if (!why && mode != DL_IRREGULAR_PADDING && mode != DL_IRREGULAR_AUTO)
        why = "not considered";
    else if (!why && range->offset)
        why = "the reference has an offset";
    else if (!why && !(p->pad_kernel = dl_cl.clCreateKernel(k->prog->program,
                                                            k->name, &err)))
        why = "the program's kernel cannot be made again";
    p->facts.padding_form = !why;
    p->facts.no_padding = why;
    p->a_mem = rt_launch_arg_mem(k, r->array);
    p->p_mem = rt_launch_arg_mem(k, r->via);
    p->array = r->array;
    p->via = r->via;
    p->p_bytes = p_bytes;
    p->base = (size_t)range->base;
}

/* Sharing's row: whether it may serve r at launch c (padding's
 * parameters are padding_facts'), and the group size it plans for. */
static void sharing_facts(const launch_call *c, rt_kernel *k,
                          const dl_annot_indirect *r,
                          const dl_annot_indirect_range *range,
                          rt_jobswap_plan *p)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    const char *no_group = rt_sharing_group(c, &p->local); /* unlocked */
    rt_lock();
    const char *why = rt_sharing_unfit(k, r, p->facts.a_written);
    rt_unlock();
    why = why ? why : no_group;
    if (!why && mode != DL_IRREGULAR_SHARING && mode != DL_IRREGULAR_AUTO)
        why = "not considered";
    else if (!why && mode == DL_IRREGULAR_AUTO)
        why = rt_sharing_unwanted(c->queue);
    if (!why && range->offset)
        why = "the reference has an offset";
    p->facts.sharing_form = !why;
    p->facts.no_sharing = why;
    /* Clustering moves work-items: under the selector not where others
     * index by them; forced, as padding does (results stay identical). */
    p->sharing_clustered =
        p->facts.jobswap_form &&
        (mode == DL_IRREGULAR_SHARING || !p->facts.others_disturbed);
}

/* Locked: A and P watched for writes, P's version taken, where padding
 * or sharing may serve the reference. */
static void padding_watch(rt_jobswap_plan *p)
{
    if (!p->facts.padding_form && !p->facts.sharing_form)
        return;
    rt_buffer *a = rt_buffer_get(p->a_mem), *pb = rt_buffer_get(p->p_mem);
    const char *why = !a || !pb ? "its array or index buffer cannot be tracked"
                                : rt_reorder_watch(a);
    why = why ? why : rt_reorder_watch(pb);
    if (why) {
        p->facts.padding_form = p->facts.sharing_form = 0;
        p->facts.no_padding = p->facts.no_sharing = why;
    } else {
        p->version_p = rt_reorder_version(pb);
    }
}

/* Locked: P watched and its version taken, where the remap row counts
 * METIS's order: the order is kept under that version for the
 * permutation's own planning (rt_permute_choose.c). */
static void remap_watch(rt_jobswap_plan *p)
{
    rt_buffer *pb = p->facts.remap_form && p->remap_key.p
                        ? rt_buffer_get(p->remap_key.p)
                        : NULL;
    p->remap_keyed = pb && !rt_reorder_watch(pb);
    if (p->remap_keyed)
        p->remap_key.version = rt_reorder_version(pb);
}

/* The entries of P (`total` of them, more than range->base) that launch
 * c reads, up to P's end (its last work-item's last step, unless that
 * overflows). */
static size_t entries_read(const launch_call *c,
                           const dl_annot_indirect_range *range, uint64_t total)
{
    uint64_t left = total - (uint64_t)range->base, last, step;
    if (__builtin_mul_overflow((uint64_t)(c->global[0] - 1),
                               (uint64_t)range->t_stride, &last) ||
        __builtin_mul_overflow(range->steps - 1, (uint64_t)range->j_stride,
                               &step) ||
        __builtin_add_overflow(last, step, &last) || last >= left)
        last = left - 1;
    return (size_t)last + 1;
}

/* Appends "a via p" (with ", " between) to buf where it is not there. */
static void add_ref(char *buf, size_t size, const dl_annot_indirect *o)
{
    char one[128];
    snprintf(one, sizeof one, "%s via %s", o->array_name, o->via_name);
    size_t used = strlen(buf);
    if (!strstr(buf, one) && used + strlen(one) + 3 < size)
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "", one);
}

/* The references of k other than r (their array and index buffer
 * differing from r's): into same_p those the permutation's set moves
 * with r, into others the rest (rt_jobswap_plan.h). */
static void other_refs(rt_kernel *k, const dl_annot_indirect *r,
                       rt_jobswap_plan *p)
{
    uint32_t refs[RT_PERM_ARRAYS];
    rt_lock();
    int first = rt_permute_ref(k);
    unsigned na = first >= 0 && &k->annot->indirect[first] == r
                      ? rt_permute_refs(k, refs)
                      : 0;
    rt_unlock();
    for (uint32_t o = 0; o < k->annot->nindirect; o++) {
        const dl_annot_indirect *x = &k->annot->indirect[o];
        if (x->array == r->array && x->via == r->via)
            continue;
        int in_set = 0;
        for (unsigned i = 0; i < na && !in_set; i++)
            in_set = k->annot->indirect[refs[i]].array == x->array;
        if (in_set)
            add_ref(p->same_p, sizeof p->same_p, x);
        else
            add_ref(p->others, sizeof p->others, x);
    }
}

/* The planning of reference r at launch c, without P's entries yet.
 * NULL, or *why. */
static rt_jobswap_plan *new_plan(const launch_call *c, rt_kernel *k,
                                 const dl_annot_indirect *r,
                                 const dl_annot_indirect_range *range,
                                 const char **why)
{
    rt_jobswap_plan *p = calloc(1, sizeof *p);
    cl_mem pm = rt_launch_arg_mem(k, r->via);
    size_t isz = dl_int_type_size(r->via_type), bytes = 0;
    if (!p || !pm || !isz ||
        dl_cl.clGetMemObjectInfo(pm, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
            CL_SUCCESS ||
        (uint64_t)range->base >= bytes / isz) {
        free(p);
        *why = p ? "the index buffer holds no entry the launch reads"
                 : "out of host memory";
        return NULL;
    }
    p->entries = entries_read(c, range, bytes / isz);
    p->global = c->global[0];
    p->t_stride = (uint64_t)range->t_stride;
    p->j_stride = (uint64_t)range->j_stride;
    p->steps = range->steps;
    p->type = r->via_type;
    p->ref = (dl_coalesce_ref){r->elem_size, r->field_offset, r->field_size,
                               range->offset};
    p->mode = dl_rt.controls.irregular;
    snprintf(p->label, sizeof p->label, "kernel '%s' arg %s via %s", k->name,
             r->array_name, r->via_name);
    other_refs(k, r, p);
    rt_select_facts_init(&p->facts);
    p->facts.gather_form = k->reorder;
    p->facts.jobswap_form = rt_irregular_jobswap_form(k->annot);
    p->facts.a_written = a_written(k->annot, r);
    p->facts.others_disturbed = others_indexed(k->annot);
    p->facts.bytes_duplication = bytes / isz * r->elem_size;
    p->facts.bytes_job_swap = c->global[0] * sizeof(uint32_t);
    remap_facts(k, r, p);
    padding_facts(k, r, range, bytes, p);
    sharing_facts(c, k, r, range, p);
    dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof p->device,
                                &p->device, NULL);
    dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_CONTEXT, sizeof p->context,
                                &p->context, NULL);
    p->facts.budget =
        p->device
            ? dl_gather_budget_bytes(p->device, dl_rt.controls.gather_budget)
            : 0;
    p->host = malloc(p->entries * isz);
    p->kernel = strdup(k->name);
    p->options = strdup(k->prog->options ? k->prog->options : "");
    p->source = malloc(k->prog->source_len + 1);
    if (!p->context || !p->host || !p->kernel || !p->options || !p->source ||
        dl_cl.clRetainContext(p->context) != CL_SUCCESS) {
        p->context = NULL;
        rt_jobswap_plan_free(p);
        *why = "out of host memory";
        return NULL;
    }
    memcpy(p->source, k->prog->source, k->prog->source_len);
    p->source[k->prog->source_len] = 0;
    p->source_len = k->prog->source_len;
    return p;
}

/* The read of P's entries after `launched`, handed to the planning.
 * NULL, or why not (p is then freed). */
static const char *read_index(const launch_call *c, rt_kernel *k,
                              rt_jobswap_plan *p, const dl_annot_indirect *r,
                              size_t base, cl_event launched)
{
    size_t isz = dl_int_type_size(p->type);
    rt_lock();
    rt_buffer *b = rt_buffer_find(rt_launch_arg_mem(k, r->via));
    int moved = b && b->transformed;
    if (!moved) {
        p->st = k->irregular;
        p->st->refs++;
        p->st->reading = 1;
        padding_watch(p);
        remap_watch(p);
    }
    rt_unlock();
    if (moved) {
        rt_jobswap_plan_free(p);
        return "the index buffer is in a converted layout";
    }
    if (dl_cl.clEnqueueReadBuffer(
            c->queue, rt_launch_arg_mem(k, r->via), CL_FALSE, base * isz,
            p->entries * isz, p->host, 1, &launched, &p->read) != CL_SUCCESS) {
        rt_jobswap_plan_free(p);
        return "the index buffer cannot be read";
    }
    dl_cl.clFlush(c->queue); /* the read runs even if nothing waits */
    RT_ADD(dl_rt.stats.irregular_plans, 1);
    if (rt_jobswap_plan_start(p)) {
        /* The read goes on into p->host, and nothing may wait for it:
         * p stays allocated (a rare failure of clSetEventCallback). */
        rt_lock();
        p->st->reading = 0;
        rt_unlock();
        return "no completion callback on the index buffer's read";
    }
    return NULL;
}

/* The reference the planning counts: the one the permutation may take,
 * else the first. */
static const dl_annot_indirect *planned_ref(rt_kernel *k)
{
    rt_lock();
    int ref = rt_permute_ref(k);
    rt_unlock();
    return &k->annot->indirect[ref < 0 ? 0 : ref];
}

/* The planning's estimated cost for launch c (0: it cannot plan from
 * it, which the first launch says at once). */
static double plan_cost_ns(const launch_call *c, rt_kernel *k)
{
    const dl_annot_indirect *r = planned_ref(k);
    dl_annot_indirect_range range;
    cl_mem pm = rt_launch_arg_mem(k, r->via);
    size_t isz = dl_int_type_size(r->via_type), bytes = 0;
    if (rt_irregular_unplannable(c) || plan_range(c, k, r, &range) || !pm ||
        !isz ||
        dl_cl.clGetMemObjectInfo(pm, CL_MEM_SIZE, sizeof bytes, &bytes, NULL) !=
            CL_SUCCESS ||
        (uint64_t)range.base >= bytes / isz)
        return 0;
    return (double)entries_read(c, &range, bytes / isz) * PLAN_NS_PER_ENTRY +
           2.0 * (double)k->prog->build_ns;
}

int rt_irregular_plan_pays(const rt_kernel *k, rt_irregular *st, double cost)
{
    if (dl_rt.controls.policy != DL_POLICY_AUTO ||
        dl_rt.controls.irregular != DL_IRREGULAR_AUTO || !dl_rt.tuner)
        return 1;
    rt_lock();
    uint64_t launches = ++st->launches, first = st->first_ns;
    int logged = st->deferred;
    st->deferred = 1;
    rt_unlock();
    double spent = dl_tuner_plain_spent(dl_rt.tuner, k);
    if (spent <= 0)
        spent = (double)(now_ns() - first);
    int pays = !cost || (launches >= PLAN_MIN_LAUNCHES &&
                         spent >= PLAN_PAYS_AFTER * cost);
    if (pays && cost)
        DL_LOG_DEBUG("irregular: kernel '%s': plans at launch %llu: %.1f ms "
                     "spent in it, the planning %.1f ms",
                     k->name, (unsigned long long)launches, spent / 1e6,
                     cost / 1e6);
    else if (!pays && !logged)
        DL_LOG_DEBUG("irregular: kernel '%s': plans once its launches took "
                     "%.0f times the planning's %.1f ms (%.1f ms so far)",
                     k->name, PLAN_PAYS_AFTER, cost / 1e6, spent / 1e6);
    return pays;
}

/* Under DL_POLICY=auto with the selector: whether this launch of k, the
 * st->launches-th, starts the planning: only once the kernel's launches
 * took (at their plain speed, as the tuner measured them, else the host
 * time since the first) PLAN_PAYS_AFTER times what the planning costs
 * (rt_irregular_plan_pays): a short program plans nothing, and its exit
 * waits for no planning.  Under DL_POLICY=always, a forced method or
 * without a tuner: at once. */
static int planning_pays(const launch_call *c, rt_kernel *k, rt_irregular *st)
{
    if (dl_rt.controls.policy != DL_POLICY_AUTO ||
        dl_rt.controls.irregular != DL_IRREGULAR_AUTO || !dl_rt.tuner)
        return 1;
    return rt_irregular_plan_pays(k, st, plan_cost_ns(c, k));
}

/* The first launch: as it would run, then P's read after it. */
static rt_irregular_launched first_launch(const launch_call *c, rt_kernel *k,
                                          cl_uint nwait, const cl_event *wait,
                                          cl_event *event, cl_int *err)
{
    const dl_annot_indirect *r = planned_ref(k);
    dl_annot_indirect_range range;
    const char *why = rt_irregular_unplannable(c);
    why = why ? why : plan_range(c, k, r, &range);
    rt_jobswap_plan *p = why ? NULL : new_plan(c, k, r, &range, &why);
    if (!p)
        return settle(k, RT_PATH_ASIS, why);
    cl_event own = NULL, *ev = event ? event : &own;
    rt_irregular_launched done = RT_IRREGULAR_DONE;
    if (!(dl_rt.controls.irregular == DL_IRREGULAR_AUTO && k->reorder &&
          rt_reorder_launch(c, k, nwait, wait, ev, err)))
        done = run(c, k, c->kernel, NULL, nwait, wait, ev, err);
    if (done == RT_IRREGULAR_DONE && *err == CL_SUCCESS && *ev)
        why = read_index(c, k, p, r, (size_t)range.base, *ev);
    else
        rt_jobswap_plan_free(p);
    if (own)
        dl_cl.clReleaseEvent(own);
    if (why)
        settle(k, RT_PATH_ASIS, why);
    return done;
}

/* ------------------------------------------------------------ launch */

/* Launch c's range as the planning takes it; 0 where it cannot plan
 * from it. */
static int launch_range(const launch_call *c, rt_kernel *k,
                        rt_irregular_range *out)
{
    dl_annot_indirect_range r;
    if (rt_irregular_unplannable(c) || plan_range(c, k, planned_ref(k), &r))
        return 0;
    *out =
        (rt_irregular_range){c->global[0], (size_t)r.base, (uint64_t)r.t_stride,
                             (uint64_t)r.j_stride, r.steps};
    return 1;
}

/* Whether launch c has the range k's job map and pad were planned for.
 * Where it has not, the plan is stale for it: the launch goes without
 * them, said at info level the first time for k (at debug after). */
static int planned_range(const launch_call *c, rt_kernel *k,
                         const rt_irregular_range *planned,
                         rt_irregular_path path)
{
    rt_irregular_range now = {0};
    int known = launch_range(c, k, &now);
    if (known && now.global == planned->global && now.base == planned->base &&
        now.t_stride == planned->t_stride &&
        now.j_stride == planned->j_stride && now.steps == planned->steps)
        return 1;
    rt_lock();
    int said = !k->irregular || k->irregular->range_said;
    if (k->irregular)
        k->irregular->range_said = 1;
    rt_unlock();
    int copied = path == RT_PATH_PADDING || path == RT_PATH_SHARING;
    const char *plan = path == RT_PATH_PADDING   ? "padding"
                       : path == RT_PATH_SHARING ? "sharing"
                                                 : "job map";
    const char *goes = copied ? "runs as written at this launch"
                              : "keeps its path without the job map at this "
                                "launch";
    if (!known)
        dl_log(said ? DL_LOG_LEVEL_DEBUG : DL_LOG_LEVEL_INFO,
               "irregular: kernel '%s': this launch's range cannot be "
               "planned from, its %s was planned for %zu work-items: %s",
               k->name, plan, planned->global, goes);
    else
        dl_log(said ? DL_LOG_LEVEL_DEBUG : DL_LOG_LEVEL_INFO,
               "irregular: kernel '%s': this launch reads its index "
               "buffer over another range (%zu work-items, entries from "
               "%zu by %llu a work-item and %llu a step, %llu steps) "
               "than its %s was planned for (%zu work-items, from %zu by "
               "%llu and %llu, %llu steps): %s",
               k->name, now.global, now.base, (unsigned long long)now.t_stride,
               (unsigned long long)now.j_stride, (unsigned long long)now.steps,
               plan, planned->global, planned->base,
               (unsigned long long)planned->t_stride,
               (unsigned long long)planned->j_stride,
               (unsigned long long)planned->steps, goes);
    return 0;
}

/* k's first job-swapped launch, logged once. */
static void announce_swapped(rt_kernel *k, size_t global)
{
    rt_lock();
    int first = k->irregular && !k->irregular->announced;
    if (k->irregular)
        k->irregular->announced = 1;
    rt_unlock();
    if (first)
        DL_LOG_INFO("irregular: kernel '%s' runs job-swapped from this launch "
                    "on (a job map of %zu work-items)",
                    k->name, global);
}

/* P was written since its entries were read: the plan goes, and the
 * next launch plans again (as written meanwhile). */
static void replan(rt_kernel *k, rt_pad *pad)
{
    rt_lock();
    rt_irregular *st = k->irregular;
    int dropped = st && st->decided && st->pad == pad;
    size_t group = pad->group;
    if (dropped) {
        st->decided = 0;
        st->path = RT_PATH_ASIS;
        st->pad = NULL;
        rt_padding_unref(pad);
    }
    rt_unlock();
    if (dropped)
        DL_LOG_INFO("irregular: kernel '%s': its index buffer was written: "
                    "runs as written, its %s planned again",
                    k->name, group ? "sharing" : "padding");
}

/* Under DL_IRREGULAR=padding: whether padding cannot serve the planned
 * reference (*sel then says why). */
static int padding_declined(rt_kernel *k, dl_selection *sel)
{
    const dl_annot_indirect *r = planned_ref(k);
    rt_select_facts f;
    rt_select_facts_init(&f);
    rt_lock();
    f.no_padding = rt_padding_unfit(k, r, a_written(k->annot, r));
    rt_unlock();
    f.padding_form = !f.no_padding;
    return rt_select_path(DL_IRREGULAR_PADDING, &f, sel) != RT_PATH_PADDING;
}

/* Under DL_IRREGULAR=sharing: whether sharing cannot serve the planned
 * reference at launch c (*sel then says why). */
static int sharing_declined(const launch_call *c, rt_kernel *k,
                            dl_selection *sel)
{
    const dl_annot_indirect *r = planned_ref(k);
    rt_select_facts f;
    rt_select_facts_init(&f);
    size_t group;
    const char *no_group = rt_sharing_group(c, &group); /* unlocked */
    rt_lock();
    f.no_sharing = rt_sharing_unfit(k, r, a_written(k->annot, r));
    rt_unlock();
    f.no_sharing = f.no_sharing ? f.no_sharing : no_group;
    f.sharing_form = !f.no_sharing;
    return rt_select_path(DL_IRREGULAR_SHARING, &f, sel) != RT_PATH_SHARING;
}

/* A launch on the pad: done, or as written (planned again first when P
 * was written). */
static rt_irregular_launched padded(const launch_call *c, rt_kernel *k,
                                    rt_pad *pad, cl_uint nwait,
                                    const cl_event *wait, cl_event *event,
                                    cl_int *err)
{
    rt_pad_launched done =
        rt_padding_launch(c, k, pad, nwait, wait, event, err);
    if (done == RT_PAD_DONE)
        return RT_IRREGULAR_DONE;
    if (done == RT_PAD_PLAIN)
        return RT_IRREGULAR_PLAIN;
    replan(k, pad);
    return first_launch(c, k, nwait, wait, event, err);
}

rt_irregular_launched rt_irregular_launch(const launch_call *c, rt_kernel *k,
                                          cl_uint nwait, const cl_event *wait,
                                          cl_event *event, cl_int *err)
{
    dl_irregular_mode mode = dl_rt.controls.irregular;
    /* A kernel converting its arguments' layouts keeps the layout path. */
    if (!k->annot || !(k->annot->nindirect || k->annot->njobs) || !k->prog ||
        !k->prog->source || k->transformed ||
        dl_rt.controls.policy == DL_POLICY_NEVER)
        return RT_IRREGULAR_ASIS;
    /* A jobs key: planned by trip count (rt_tripswap.h); declined, the
     * caller's path as before. */
    if (rt_tripswap_applies(k)) {
        rt_lock();
        rt_irregular *own = rt_irregular_state(k);
        rt_unlock();
        return own ? rt_tripswap_launch(c, k, own, nwait, wait, event, err)
                   : RT_IRREGULAR_ASIS;
    }
    if (!k->annot->nindirect) /* a jobs key alone */
        return RT_IRREGULAR_ASIS;
    rt_lock();
    rt_irregular *st = rt_irregular_state(k);
    int decided = st && st->decided, reading = st && st->reading;
    rt_irregular_path path = st ? st->path : RT_PATH_ASIS;
    cl_kernel variant = st ? st->variant : NULL;
    cl_mem job = st ? st->job : NULL;
    rt_irregular_range planned = st ? st->range : (rt_irregular_range){0};
    rt_pad *pad = decided ? st->pad : NULL;
    if (pad) /* held across the unlocked launch */
        pad->refs++;
    if (variant) { /* held across the unlocked enqueue */
        dl_cl.clRetainKernel(variant);
        dl_cl.clRetainMemObject(job);
    }
    rt_unlock();
    int fits =
        decided && (variant || pad) && planned_range(c, k, &planned, path);
    if (variant && fits)
        announce_swapped(k, c->global[0]);
    dl_selection sel;
    rt_irregular_launched done = RT_IRREGULAR_ASIS;
    if (!st)
        done = RT_IRREGULAR_ASIS;
    else if (decided && path == RT_PATH_JOB_SWAP && variant && fits)
        done = run(c, k, variant, job, nwait, wait, event, err);
    else if (decided && (path == RT_PATH_PADDING || path == RT_PATH_SHARING) &&
             pad && fits)
        done = padded(c, k, pad, nwait, wait, event, err);
    else if (decided) /* remap: its pair could not be used at this launch */
        done = as_written(path) ? RT_IRREGULAR_PLAIN : RT_IRREGULAR_ASIS;
    else if (reading) /* forced job swap, padding, sharing: as written */
        done = mode == DL_IRREGULAR_JOBSWAP || mode == DL_IRREGULAR_PADDING ||
                       mode == DL_IRREGULAR_SHARING
                   ? run(c, k, c->kernel, NULL, nwait, wait, event, err)
                   : RT_IRREGULAR_ASIS;
    else if (mode == DL_IRREGULAR_PADDING && padding_declined(k, &sel))
        done = settle(k, RT_PATH_PLAIN, sel.reason);
    else if (mode == DL_IRREGULAR_SHARING && sharing_declined(c, k, &sel))
        done = settle(k, RT_PATH_PLAIN, sel.reason);
    else if (mode != DL_IRREGULAR_AUTO && mode != DL_IRREGULAR_JOBSWAP &&
             mode != DL_IRREGULAR_PADDING && mode != DL_IRREGULAR_SHARING) {
        rt_select_facts f;
        rt_select_facts_init(&f);
        f.gather_form = k->reorder;
        rt_irregular_path forced = rt_select_path(mode, &f, &sel);
        done = settle(k, forced, sel.reason);
    } else if (mode == DL_IRREGULAR_JOBSWAP &&
               !rt_irregular_jobswap_form(k->annot)) {
        rt_select_facts f;
        rt_select_facts_init(&f);
        done = settle(k, rt_select_path(mode, &f, &sel), sel.reason);
    } else if (!planning_pays(c, k, st))
        done = RT_IRREGULAR_ASIS; /* not yet: its path as before */
    else
        done = first_launch(c, k, nwait, wait, event, err);
    if (variant) {
        dl_cl.clReleaseKernel(variant);
        dl_cl.clReleaseMemObject(job);
    }
    if (pad) {
        rt_lock();
        rt_padding_unref(pad);
        rt_unlock();
    }
    return done;
}
