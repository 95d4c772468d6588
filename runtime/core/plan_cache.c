/* plan_cache.c - the plans an engine keeps, so that a repeated conversion
 * plans nothing, and the entry points that use them: dl_enqueue_convert
 * and dl_engine_release (plans first, then the engine's programs).  It
 * sits above plan.c and engine.c, which know nothing of it. */
#include "internal.h"

#include <stdlib.h>

#define DL_PLAN_CACHE_MAX 64

/* A cached plan and what it converts. */
struct dl_plan_entry {
    const dl_record *record;
    size_t count, from_tile, to_tile;
    dl_algo algo;
    dl_plan *plan;
    dl_plan_entry *next;
};

static int entry_matches(const dl_plan_entry *c, const dl_layout *from,
                         const dl_layout *to, dl_algo algo)
{
    return c->record == from->record && c->count == from->count &&
           c->from_tile == dl_layout_tile(from) &&
           c->to_tile == dl_layout_tile(to) && c->algo == algo;
}

static void plan_cache_clear(dl_engine *e)
{
    for (dl_plan_entry *c = e->plans, *next; c; c = next) {
        next = c->next;
        dl_plan_release(c->plan);
        free(c);
    }
    e->plans = NULL;
}

/* How many marshal programs a first conversion from -> to would build:
 * none when the engine holds its plan, else about one per step (the
 * planner's choice, made without building anything; a step may also
 * build a tail program).  The tuner weighs this before a probe. */
unsigned dl_plan_builds_needed(dl_engine *e, const dl_layout *from_in,
                               const dl_layout *to_in, dl_algo algo,
                               int reverse_counted)
{
    dl_layout f, t;
    if (!e || !from_in || !to_in || !from_in->record ||
        dl_layouts_spanned(from_in, to_in, &f, &t) != DL_SUCCESS)
        return 0;
    const dl_layout *from = &f, *to = &t;
    pthread_mutex_lock(&e->lock);
    for (dl_plan_entry *c = e->plans; c; c = c->next) {
        if (entry_matches(c, from, to, algo)) {
            pthread_mutex_unlock(&e->lock);
            return 0;
        }
    }
    pthread_mutex_unlock(&e->lock);
    return dl_plan_count_builds(e, from, to, algo, reverse_counted);
}

/* Finds or makes the plan for a conversion.  Cached plans live as long as
 * the engine; once the cache is full a plan is made for this call only
 * (*transient set), so no plan is ever freed while another thread uses it. */
static dl_status cached_plan(dl_engine *e, const dl_layout *from,
                             const dl_layout *to, dl_algo algo, dl_plan **out,
                             int *transient)
{
    int n = 0;
    *transient = 0;
    pthread_mutex_lock(&e->lock);
    for (dl_plan_entry *c = e->plans; c; c = c->next, n++) {
        if (entry_matches(c, from, to, algo)) {
            *out = c->plan;
            pthread_mutex_unlock(&e->lock);
            return DL_SUCCESS;
        }
    }
    pthread_mutex_unlock(&e->lock);

    dl_plan *p;
    DL_RETURN_IF_FAIL(dl_plan_create(e, from, to, algo, &p));
    dl_plan_entry *c = n < DL_PLAN_CACHE_MAX ? malloc(sizeof *c) : NULL;
    *out = p;
    if (!c) {
        *transient = 1;
        return DL_SUCCESS;
    }
    pthread_mutex_lock(&e->lock);
    *c = (dl_plan_entry){from->record,
                         from->count,
                         dl_layout_tile(from),
                         dl_layout_tile(to),
                         algo,
                         p,
                         e->plans};
    e->plans = c;
    pthread_mutex_unlock(&e->lock);
    return DL_SUCCESS;
}

dl_status dl_plan_warm(dl_engine *engine, const dl_layout *from,
                       const dl_layout *to, dl_algo algo)
{
    DL_RETURN_ERROR_ON(!engine, DL_INVALID_ARGUMENT, "engine is NULL");
    dl_layout f, t; /* cached as the layouts of M' records (offset DA) */
    DL_RETURN_IF_FAIL(dl_layouts_spanned(from, to, &f, &t));
    dl_plan *p;
    int transient;
    DL_RETURN_IF_FAIL(cached_plan(engine, &f, &t, algo, &p, &transient));
    if (transient)
        dl_plan_release(p);
    return DL_SUCCESS;
}

dl_status dl_enqueue_convert(dl_engine *engine, cl_command_queue queue,
                             cl_mem buffer, const dl_layout *from,
                             const dl_layout *to, dl_algo algo,
                             cl_uint num_events, const cl_event *wait_list,
                             cl_event *event)
{
    DL_RETURN_ERROR_ON(!engine, DL_INVALID_ARGUMENT, "engine is NULL");
    dl_layout f, t;
    DL_RETURN_IF_FAIL(dl_layouts_spanned(from, to, &f, &t));
    dl_plan *p;
    int transient;
    DL_RETURN_IF_FAIL(cached_plan(engine, &f, &t, algo, &p, &transient));
    dl_status st =
        dl_plan_enqueue(p, queue, buffer, num_events, wait_list, event);
    if (transient)
        dl_plan_release(p);
    return st;
}

void dl_engine_release(dl_engine *e)
{
    if (!e)
        return;
    plan_cache_clear(e);
    dl_engine_free(e);
}
