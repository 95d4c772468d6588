/* plan.c - the planner: from layout A to layout B of the ASTA(T) family,
 * which steps, which algorithm for each, and their enqueueing. */
#include "clapi.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DL_PLAN_MAX_STEPS 3

struct dl_plan {
    dl_engine *engine;
    dl_record *record; /* retained */
    size_t count, from_tile, to_tile;
    dl_algo algo;
    int nsteps;
    int dry; /* dl_plan_count_builds: steps chosen, nothing built */
    dl_step steps[DL_PLAN_MAX_STEPS];
    size_t extra_bytes;
    size_t bytes;
    char description[256];
    pthread_mutex_t lock; /* kernel arguments are set per enqueue */
};

static const char *const algo_names[] = {"auto", "bs", "pttwac", "pipt", "oop"};

const char *dl_algo_name(dl_algo algo)
{
    return (unsigned)algo < sizeof algo_names / sizeof *algo_names
               ? algo_names[algo]
               : "unknown";
}

dl_status dl_algo_parse(const char *name, dl_algo *algo)
{
    DL_RETURN_ERROR_ON(!name || !algo, DL_INVALID_ARGUMENT,
                       "algorithm name is NULL");
    for (unsigned i = 0; i < sizeof algo_names / sizeof *algo_names; i++)
        if (strcmp(name, algo_names[i]) == 0) {
            *algo = (dl_algo)i;
            return DL_SUCCESS;
        }
    return dl_fail(DL_INVALID_ARGUMENT,
                   "unknown algorithm '%s' (auto, bs, pttwac, pipt, oop)",
                   name);
}

/* Candidates per step kind, in order of preference for DL_ALGO_AUTO. */
static const dl_algo_ops *const tile_algos[] = {
    &dl_algo_bs, &dl_algo_pttwac_instance, &dl_algo_oop_tiles, NULL};
static const dl_algo_ops *const chunk_algos[] = {
    &dl_algo_pttwac_tiles, &dl_algo_pipt, &dl_algo_oop_chunks, NULL};

static const dl_algo_ops *choose(const dl_engine *e, const dl_step_desc *d,
                                 dl_step_kind kind, dl_algo algo)
{
    const dl_algo_ops *const *list =
        kind == DL_STEP_TILES ? tile_algos : chunk_algos;
    for (int i = 0; list[i]; i++)
        if ((algo == DL_ALGO_AUTO || list[i]->algo == algo) &&
            list[i]->fits(e, d))
            return list[i];
    return NULL;
}

/* The AoS -> ASTA(T) tile the planner passes through on the way to or from
 * DA: wide enough that a chunk spans a couple of cache lines, small enough
 * for one work-group. */
static size_t staging_tile(const dl_plan *p)
{
    const dl_record *rec = p->record;
    size_t count = p->count;
    /* Automatic plans on CPUs: much longer chunks (see algo_staged.c). */
    size_t staged =
        p->algo == DL_ALGO_AUTO ? dl_staged_aos_tile(p->engine, rec, count) : 0;
    if (staged)
        return staged;
    size_t t = 128 / rec->word;
    if (t < 16)
        t = 16;
    while (t > 2 && t * rec->rec_words > 4096)
        t /= 2;
    return t < count ? t : count;
}

/* The step the planner filled in at p->steps[p->nsteps], with its
 * algorithm chosen: prepared (not in a dry run) and counted. */
static dl_status keep_step(dl_plan *p, dl_step *s)
{
    if (!p->dry)
        DL_RETURN_IF_FAIL(s->ops->prepare(p->engine, s));
    p->nsteps++;
    if (s->extra_bytes > p->extra_bytes)
        p->extra_bytes = s->extra_bytes;
    return DL_SUCCESS;
}

static dl_status add_step(dl_plan *p, dl_step_kind kind, size_t tile,
                          int inverse)
{
    dl_step *s = &p->steps[p->nsteps];
    memset(s, 0, sizeof *s);
    s->desc = (dl_step_desc){p->record, p->count, tile, inverse, 0};
    s->ops = choose(p->engine, &s->desc, kind, p->algo);
    if (!s->ops && p->algo != DL_ALGO_AUTO)
        s->ops = choose(p->engine, &s->desc, kind, DL_ALGO_AUTO);
    DL_RETURN_ERROR_ON(!s->ops, DL_UNSUPPORTED,
                       "no marshaling algorithm fits a %s step with T=%zu "
                       "and %u-word records on this device",
                       kind == DL_STEP_TILES ? "AoS<->ASTA" : "DA<->ASTA", tile,
                       p->record->rec_words);
    return keep_step(p, s);
}

/* A step of the CPU routes (algo_staged*.c) with the given algorithm;
 * `block` is the regroup's T1 (0 for the others). */
static dl_status add_staged(dl_plan *p, const dl_algo_ops *ops, size_t tile,
                            size_t block, int inverse)
{
    dl_step *s = &p->steps[p->nsteps];
    memset(s, 0, sizeof *s);
    s->desc = (dl_step_desc){p->record, p->count, tile, inverse, block};
    s->ops = ops;
    DL_RETURN_ERROR_ON(!s->ops->fits(p->engine, &s->desc), DL_UNSUPPORTED,
                       "%s step with T=%zu does not fit this device", ops->name,
                       tile);
    return keep_step(p, s);
}

/* A DA <-> ASTA(tile) chunk step: automatic plans on CPUs take
 * staged-cycles when the chunks are long enough. */
static dl_status add_chunks(dl_plan *p, size_t tile, int inverse)
{
    if (p->algo == DL_ALGO_AUTO &&
        dl_cycles_suits(p->engine, p->record, p->count, tile))
        return add_staged(p, &dl_algo_staged_cycles, tile, 0, inverse);
    return add_step(p, DL_STEP_CHUNKS, tile, inverse);
}

/* DA <-> ASTA(tile).  Short chunks on CPUs take the staged route: the
 * chunk step moves blocks of T1 records, then a regroup splits each into
 * ASTA(tile) (or the reverse). */
static dl_status plan_da_asta(dl_plan *p, size_t tile, int inverse)
{
    size_t t1 = p->algo == DL_ALGO_AUTO
                    ? dl_staged_block(p->engine, p->record, p->count, tile)
                    : 0;
    if (!t1)
        return add_chunks(p, tile, inverse);
    if (!inverse && t1 < p->count)
        DL_RETURN_IF_FAIL(add_chunks(p, t1, 0));
    DL_RETURN_IF_FAIL(
        add_staged(p, &dl_algo_staged_regroup, tile, t1, inverse));
    if (inverse && t1 < p->count)
        return add_chunks(p, t1, 1);
    return DL_SUCCESS;
}

/* AoS <-> DA goes through ASTA(t*) unless one tile holds everything. */
static dl_status plan_aos_da(dl_plan *p, int to_da)
{
    dl_step_desc whole = {p->record, p->count, p->count, !to_da, 0};
    int whole_ok = p->algo == DL_ALGO_AUTO || p->algo == DL_ALGO_BS;
    if (whole_ok && choose(p->engine, &whole, DL_STEP_TILES, DL_ALGO_BS))
        return add_step(p, DL_STEP_TILES, p->count, !to_da);
    size_t t = staging_tile(p);
    if (t >= p->count)
        return add_step(p, DL_STEP_TILES, p->count, !to_da);
    if (to_da) {
        DL_RETURN_IF_FAIL(add_step(p, DL_STEP_TILES, t, 0));
        return add_chunks(p, t, 1);
    }
    DL_RETURN_IF_FAIL(add_chunks(p, t, 0));
    return add_step(p, DL_STEP_TILES, t, 1);
}

static dl_status plan_steps(dl_plan *p)
{
    size_t m = p->count, a = p->from_tile, b = p->to_tile;
    if (m <= 1 || a == b)
        return DL_SUCCESS;
    int a_aos = a == 1, b_aos = b == 1, a_da = a >= m, b_da = b >= m;
    if (a_aos && b_da)
        return plan_aos_da(p, 1);
    if (a_da && b_aos)
        return plan_aos_da(p, 0);
    if (a_aos)
        return add_step(p, DL_STEP_TILES, b, 0);
    if (b_aos)
        return add_step(p, DL_STEP_TILES, a, 1);
    if (a_da)
        return plan_da_asta(p, b, 0);
    if (b_da)
        return plan_da_asta(p, a, 1);
    DL_RETURN_IF_FAIL(add_step(p, DL_STEP_TILES, a, 1));
    return add_step(p, DL_STEP_TILES, b, 0);
}

static void describe(dl_plan *p)
{
    char *d = p->description;
    size_t room = sizeof p->description;
    int n = snprintf(d, room, p->nsteps ? "" : "none");
    for (int i = 0; i < p->nsteps && n >= 0 && (size_t)n < room; i++) {
        const dl_step *s = &p->steps[i];
        n += snprintf(d + n, room - (size_t)n, "%s%s(T=%zu%s)", i ? " -> " : "",
                      s->ops->name, s->desc.tile,
                      s->desc.inverse ? ",inverse" : "");
    }
}

void dl_plan_release(dl_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nsteps; i++) {
        dl_step *s = &p->steps[i];
        if (s->ops->release)
            s->ops->release(s);
        for (int k = 0; k < DL_STEP_MAX_KERNELS; k++)
            if (s->kernels[k])
                dl_cl.clReleaseKernel(s->kernels[k]);
    }
    dl_record_release(p->record);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

dl_status dl_plan_create(dl_engine *engine, const dl_layout *from_in,
                         const dl_layout *to_in, dl_algo algo, dl_plan **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "plan output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!engine, DL_INVALID_ARGUMENT, "engine is NULL");
    DL_RETURN_ERROR_ON((unsigned)algo > DL_ALGO_OOP, DL_INVALID_ARGUMENT,
                       "unknown algorithm %d", (int)algo);
    dl_layout f, t; /* an offset DA converts as the DA of M' records */
    DL_RETURN_IF_FAIL(dl_layouts_spanned(from_in, to_in, &f, &t));
    const dl_layout *from = &f, *to = &t;

    dl_plan *p = calloc(1, sizeof *p);
    DL_RETURN_ERROR_ON(!p, DL_OUT_OF_MEMORY, "out of host memory");
    p->engine = engine;
    p->record = (dl_record *)from->record;
    dl_record_retain(p->record);
    p->count = from->count;
    p->from_tile = dl_layout_tile(from);
    p->to_tile = dl_layout_tile(to);
    p->algo = algo;
    p->bytes = dl_layout_bytes(from);
    pthread_mutex_init(&p->lock, NULL);
    dl_status st = plan_steps(p);
    if (st == DL_SUCCESS && algo != DL_ALGO_AUTO && p->nsteps) {
        int used = 0;
        for (int i = 0; i < p->nsteps; i++)
            used |= p->steps[i].ops->algo == algo;
        if (!used)
            st = dl_fail(DL_UNSUPPORTED,
                         "algorithm %s cannot perform any step of this "
                         "conversion",
                         dl_algo_name(algo));
    }
    if (st != DL_SUCCESS) {
        dl_plan_release(p);
        return st;
    }
    describe(p);
    *out = p;
    return DL_SUCCESS;
}

size_t dl_plan_extra_bytes(const dl_plan *p)
{
    return p ? p->extra_bytes : 0;
}

const char *dl_plan_describe(const dl_plan *p)
{
    return p ? p->description : "";
}

/* Everything that can be checked before a command is queued. */
static dl_status validate_target(const dl_plan *p, cl_command_queue q,
                                 cl_mem buffer)
{
    DL_RETURN_ERROR_ON(!q, DL_INVALID_ARGUMENT, "command queue is NULL");
    DL_RETURN_ERROR_ON(!buffer, DL_INVALID_ARGUMENT, "buffer is NULL");
    cl_context qctx = NULL, mctx = NULL;
    cl_device_id qdev = NULL;
    size_t size = 0;
    cl_int err = dl_cl.clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx,
                                             &qctx, NULL);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_INVALID_ARGUMENT,
                       "command queue is not valid (OpenCL error %d)",
                       (int)err);
    err = dl_cl.clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev,
                                      NULL);
    DL_RETURN_ON_CL(err, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)");
    err =
        dl_cl.clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, NULL);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_INVALID_ARGUMENT,
                       "buffer is not a valid memory object (OpenCL error "
                       "%d)",
                       (int)err);
    err = dl_cl.clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof mctx, &mctx,
                                   NULL);
    DL_RETURN_ON_CL(err, "clGetMemObjectInfo(CL_MEM_CONTEXT)");
    DL_RETURN_ERROR_ON(qctx != p->engine->context || mctx != p->engine->context,
                       DL_INVALID_ARGUMENT,
                       "queue or buffer belongs to another context than the "
                       "engine");
    DL_RETURN_ERROR_ON(qdev != p->engine->device, DL_INVALID_ARGUMENT,
                       "queue belongs to another device than the engine");
    DL_RETURN_ERROR_ON(size < p->bytes, DL_BUFFER_TOO_SMALL,
                       "buffer of %zu bytes is smaller than the layout "
                       "(%zu records of %u bytes = %zu bytes)",
                       size, p->count, p->record->size, p->bytes);
    return DL_SUCCESS;
}

dl_status dl_plan_enqueue(dl_plan *p, cl_command_queue queue, cl_mem buffer,
                          cl_uint num_events, const cl_event *wait_list,
                          cl_event *event)
{
    DL_RETURN_ERROR_ON(!p, DL_INVALID_ARGUMENT, "plan is NULL");
    DL_RETURN_ERROR_ON(num_events && !wait_list, DL_INVALID_ARGUMENT,
                       "num_events is %u but the wait list is NULL",
                       num_events);
    DL_RETURN_ERROR_ON(!num_events && wait_list, DL_INVALID_ARGUMENT,
                       "wait list given with num_events 0");
    DL_RETURN_IF_FAIL(validate_target(p, queue, buffer));

    dl_chain chain;
    dl_chain_begin(&chain, p->engine, queue, num_events, wait_list);
    dl_status st = DL_SUCCESS;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->nsteps && st == DL_SUCCESS; i++)
        st = p->steps[i].ops->enqueue(&p->steps[i], &chain, buffer);
    pthread_mutex_unlock(&p->lock);
    if (st != DL_SUCCESS) {
        /* Commands already queued still run; waiting here could hang on a
         * caller's user event that has not fired. */
        if (chain.last)
            dl_cl.clReleaseEvent(chain.last);
        return st;
    }
    __atomic_add_fetch(&p->engine->stats.conversions, 1, __ATOMIC_RELAXED);
    return dl_chain_end(&chain, event);
}

/* Steps of the plan a conversion from -> to would take, planned without
 * building anything (a dry plan): the number of marshal programs a first
 * conversion builds.  With `reverse_counted`, steps whose program also
 * holds the reverse direction are not counted. */
unsigned dl_plan_count_builds(dl_engine *e, const dl_layout *from_in,
                              const dl_layout *to_in, dl_algo algo,
                              int reverse_counted)
{
    dl_layout f, t;
    if (dl_layouts_spanned(from_in, to_in, &f, &t) != DL_SUCCESS)
        return 0;
    const dl_layout *from = &f, *to = &t;
    dl_plan *p = calloc(1, sizeof *p);
    if (!p)
        return 0;
    *p = (dl_plan){.engine = e,
                   .record = (dl_record *)from->record,
                   .count = from->count,
                   .from_tile = dl_layout_tile(from),
                   .to_tile = dl_layout_tile(to),
                   .algo = algo,
                   .dry = 1};
    unsigned n = 0;
    if (plan_steps(p) == DL_SUCCESS)
        for (int i = 0; i < p->nsteps; i++)
            n += !(reverse_counted && p->steps[i].ops->both_directions);
    free(p);
    return n;
}
