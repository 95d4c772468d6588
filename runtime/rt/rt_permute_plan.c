/* rt_permute_plan.c - where the permutation layout's pi comes from
 * (rt_permute.h): a copy of P read after a launch, on the launch's queue
 * and after its event, without any wait; its completion callback (which
 * never takes the runtime's lock) starts a thread that plans pi in the
 * order of the fewest predicted transactions among P's first touches and
 * METIS's partition (runtime/irregular/permute_choose.h; METIS loaded at
 * run time, rt_permute_metis.c), its cycles in segments both ways, checks
 * under DL_IRREGULAR=auto that it still pays for its memory (the selector
 * chose it on a sample of P), and builds the kernels, all without the
 * lock; the pair is then READY for the next launch.  Planning stops at
 * the exit between its steps (rt_irregular_stopping). */
#include "clock.h"
#include "coalesce.h"
#include "gather.h"
#include "rt_jobswap_plan.h"
#include "rt_permute.h"
#include "rt_reorder.h"
#include "rt_select.h"

#include <stdio.h>
#include <stdlib.h>

static void free_pair(rt_perm *pm)
{
    for (unsigned i = 0; i < pm->na; i++) {
        dl_perm_device_release(&pm->dev_forward[i]);
        dl_perm_device_release(&pm->dev_back[i]);
    }
    if (pm->map)
        dl_cl.clReleaseMemObject(pm->map);
    if (pm->unmap)
        dl_cl.clReleaseMemObject(pm->unmap);
    if (pm->queue)
        dl_cl.clReleaseCommandQueue(pm->queue);
    dl_perm_plan_free(&pm->forward);
    dl_perm_plan_free(&pm->back);
    free(pm->pi);
    free(pm->inv);
    free(pm->host);
    free(pm);
}

void rt_permute_unref(rt_perm *pm)
{
    if (--pm->refs == 0)
        free_pair(pm);
}

/* The reference as the chooser takes it; 0 without the device's W and S. */
static int source_of(const rt_perm *pm, dl_perm_source *src)
{
    *src = (dl_perm_source){.elem_bytes = pm->elem,
                            .n = pm->n,
                            .range = pm->range,
                            .index = pm->host,
                            .count = pm->count,
                            .index_bytes = pm->index_bytes};
    return dl_coalesce_geometry_for_device(pm->device, pm->elem,
                                           &src->geometry) == DL_SUCCESS;
}

/* The chosen order, logged at info level. */
static void log_choice(const rt_perm *pm, const dl_perm_choice *c)
{
    char metis[256];
    if (c->tx[DL_PERM_METIS] >= 0 && c->metis_reused)
        snprintf(metis, sizeof metis,
                 "%.1f (the order the selector planned, reused)",
                 c->tx[DL_PERM_METIS]);
    else if (c->tx[DL_PERM_METIS] >= 0)
        snprintf(metis, sizeof metis, "%.1f (sample %.2f, %.1f ms)",
                 c->tx[DL_PERM_METIS], c->sample,
                 c->plan_s[DL_PERM_METIS] * 1e3);
    else
        snprintf(metis, sizeof metis, "not planned: %s", c->why_not_metis);
    DL_LOG_INFO("permutation of %zu elements: transactions per warp-access "
                "%.1f as written, first touch %.1f (%.1f ms), METIS %s: "
                "%s's order used",
                pm->n, c->as_written, c->tx[DL_PERM_FIRST_TOUCH],
                c->plan_s[DL_PERM_FIRST_TOUCH] * 1e3, metis,
                dl_perm_order_name(c->order));
}

/* pi in the order of fewest transactions (permute_choose.h), pi^-1 and
 * both plans from P's copy; the transactions as written and permuted. */
static dl_status plan(rt_perm *pm)
{
    dl_perm_source src;
    DL_RETURN_ERROR_ON(!source_of(pm, &src), DL_UNSUPPORTED,
                       "permute: the device's W and S are unknown");
    pm->pi = malloc(pm->n * sizeof *pm->pi);
    pm->inv = malloc(pm->n * sizeof *pm->inv);
    DL_RETURN_ERROR_ON(!pm->pi || !pm->inv, DL_OUT_OF_MEMORY,
                       "permute: pi of %zu elements", pm->n);
    dl_perm_choice c;
    rt_metis_key key = {pm->p, pm->a[0], pm->p_version, pm->n, pm->elem};
    DL_RETURN_IF_FAIL(
        rt_permute_choose(pm->versioned ? &key : NULL, &src, pm->pi, &c));
    log_choice(pm, &c);
    pm->before = c.as_written > 0 ? c.as_written : 0.0;
    pm->after = c.tx[c.order] > 0 ? c.tx[c.order] : 0.0;
    dl_perm_invert(pm->pi, pm->n, pm->inv);
    DL_RETURN_IF_FAIL(dl_perm_plan_build(pm->pi, pm->n, 0, &pm->forward));
    return dl_perm_plan_reverse(&pm->forward, 0, &pm->back);
}

/* The device memory the layout holds: pi and pi^-1, both plans' tables
 * and saved elements. */
static size_t extra_bytes(const rt_perm *pm)
{
    const dl_perm_plan *p[2] = {&pm->forward, &pm->back};
    size_t bytes = 2 * pm->n * sizeof(uint32_t);
    for (int i = 0; i < 2; i++)
        bytes += (p[i]->moved + 3 * p[i]->segments) * sizeof(uint32_t) +
                 p[i]->segments * rt_permute_set_elem(pm);
    return bytes;
}

/* Under auto, whether it pays for its memory (logged at info level
 * either way). */
static int decide(rt_perm *pm)
{
    size_t extra = extra_bytes(pm);
    size_t budget =
        dl_gather_budget_bytes(pm->device, dl_rt.controls.gather_budget);
    int yes = dl_rt.controls.irregular == DL_IRREGULAR_REMAP ||
              rt_select_remap_wanted(pm->before, pm->after, extra, budget);
    pm->moved = pm->forward.moved;
    DL_LOG_INFO("permutation of %zu elements: %.1f -> %.1f transactions per "
                "warp-access, %zu bytes more, planned in %.1f ms: %s",
                pm->n, pm->before, pm->after, extra, (double)pm->plan_ns / 1e6,
                yes ? "applied" : "declined");
    return yes;
}

/* The thread of one plan: everything without the lock but its end. */
static void *plan_thread(void *arg)
{
    rt_perm *pm = arg;
    uint64_t t0 = dl_now_ns();
    int ok = pm->read_status == CL_COMPLETE && plan(pm) == DL_SUCCESS;
    if (!ok)
        DL_LOG_INFO("permutation not planned: %s",
                    pm->read_status == CL_COMPLETE ? dl_last_error()
                                                   : "the read of P failed");
    pm->plan_ns = dl_now_ns() - t0;
    ok = ok && decide(pm);
    free(pm->host); /* P's copy: planned */
    pm->host = NULL;
    dl_engine *engine = NULL;
    void *hold = NULL;
    rt_lock();
    if (ok && rt_context_engine_hold(pm->queue, &engine, &hold) != DL_SUCCESS)
        engine = NULL;
    rt_unlock();
    /* The kernels built here, not at the launch under the lock; timed,
     * for the tuner's up-front cost. */
    uint64_t b0 = dl_now_ns();
    ok = ok && engine;
    for (unsigned i = 0; ok && i < pm->na; i++)
        ok = dl_perm_warm(engine, pm->elems[i], pm->index_bytes) == DL_SUCCESS;
    pm->build_ns = dl_now_ns() - b0;
    rt_lock();
    if (hold)
        rt_context_engine_unhold(hold);
    if (pm->state == RT_PERM_READING)
        pm->state = ok ? RT_PERM_READY : RT_PERM_DECLINED;
    dl_cl.clReleaseCommandQueue(pm->queue);
    pm->queue = NULL;
    rt_permute_unref(pm);
    rt_unlock();
    rt_stats_thread_done();
    rt_irregular_flight(-1);
    return NULL;
}

/* The read's completion: a callback takes no lock, so a thread plans. */
static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    rt_perm *pm = user;
    pm->read_status = status;
    if (!rt_irregular_flight(1))
        return; /* exiting: the pair stays as it is, unplanned */
    if (rt_irregular_spawn(plan_thread, pm) != 0) {
        DL_LOG_ERROR("no thread to plan a permutation: it stays unplanned");
        rt_irregular_flight(-1);
    }
}

void rt_permute_start_plan(rt_perm *pm, cl_command_queue queue, cl_event after)
{
    if (pm->state != RT_PERM_READING || pm->queue)
        return;
    rt_irregular_flight(0); /* the exit's wait registered by the program */
    size_t bytes = pm->count * pm->index_bytes;
    pm->host = malloc(bytes ? bytes : 1);
    if (!pm->host) {
        pm->state = RT_PERM_DECLINED;
        return;
    }
    cl_event read = NULL;
    cl_int err = dl_cl.clEnqueueReadBuffer(queue, pm->p, CL_FALSE, 0, bytes,
                                           pm->host, 1, &after, &read);
    if (err == CL_SUCCESS) {
        rt_buffer *p = rt_buffer_find(pm->p);
        if (p) /* P is not redirected before the read is over */
            rt_buffer_used(p, queue, read);
        /* Its version keys METIS's order (rt_permute_choose.c). */
        pm->versioned = p && !rt_reorder_watch(p);
        pm->p_version = pm->versioned ? rt_reorder_version(p) : 0;
        dl_cl.clRetainCommandQueue(queue);
        pm->queue = queue;
        pm->refs++;
        err = dl_cl.clSetEventCallback(read, CL_COMPLETE, on_read, pm);
        if (err != CL_SUCCESS) {
            pm->host = NULL; /* the read may still write it: kept */
            pm->refs--;
            dl_cl.clReleaseCommandQueue(queue);
            pm->queue = NULL;
        }
        dl_cl.clReleaseEvent(read);
    }
    if (err != CL_SUCCESS) {
        DL_LOG_INFO("the index buffer could not be read (OpenCL error %d): "
                    "not permuted",
                    (int)err);
        pm->state = RT_PERM_DECLINED;
    }
}
