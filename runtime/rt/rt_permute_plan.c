/* rt_permute_plan.c - where the permutation layout's pi comes from
 * (rt_permute.h): a copy of P read after a launch, on the launch's queue
 * and after its event, without any wait; its completion callback (which
 * never takes the runtime's lock) starts a thread that plans pi in the
 * first-touch order of P (runtime/irregular/permute_order.c), its cycles
 * in segments both ways, checks under DL_IRREGULAR=auto that it still
 * pays for its memory (the selector chose it on a sample of P), and
 * builds the kernels, all without the lock; the pair is then READY for the next
 * launch.  METIS's partitioned order (remap.h) is not used here: it lives
 * in the dl_remap library, which links the shared libmetis that the
 * statically linked dl-run cannot (runtime/irregular/meson.build). */
#include "clock.h"
#include "coalesce.h"
#include "gather.h"
#include "rt_jobswap_plan.h"
#include "rt_permute.h"
#include "rt_select.h"

#include <pthread.h>
#include <stdlib.h>

static void free_pair(rt_perm *pm)
{
    dl_perm_device_release(&pm->dev_forward);
    dl_perm_device_release(&pm->dev_back);
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

/* pi, pi^-1 and both plans from P's copy. */
static dl_status plan(rt_perm *pm)
{
    pm->pi = malloc(pm->n * sizeof *pm->pi);
    pm->inv = malloc(pm->n * sizeof *pm->inv);
    DL_RETURN_ERROR_ON(!pm->pi || !pm->inv, DL_OUT_OF_MEMORY,
                       "permute: pi of %zu elements", pm->n);
    DL_RETURN_IF_FAIL(dl_perm_first_touch(pm->host, pm->count, pm->index_bytes,
                                          pm->n, pm->pi));
    dl_perm_invert(pm->pi, pm->n, pm->inv);
    DL_RETURN_IF_FAIL(dl_perm_plan_build(pm->pi, pm->n, 0, &pm->forward));
    return dl_perm_plan_reverse(&pm->forward, 0, &pm->back);
}

/* Transactions per warp-access of the work-items reading A through
 * `index` as the reference's range says. */
static double per_access(const rt_perm *pm, const dl_coalesce_geometry *g,
                         const void *index)
{
    dl_coalesce_ref ref = {.elem_bytes = pm->elem};
    dl_coalesce_counts c;
    if (dl_coalesce_count(g, &ref, &pm->range, index, pm->count,
                          pm->index_bytes, &c) != DL_SUCCESS ||
        !c.accesses)
        return 0.0;
    return (double)c.before / (double)c.accesses;
}

/* P' = pi o P, on the host, for the count. */
static void *redirected(const rt_perm *pm)
{
    void *out = malloc(pm->count * pm->index_bytes + 1);
    for (size_t i = 0; out && i < pm->count; i++) {
        if (pm->index_bytes == 4) {
            int32_t v = ((const int32_t *)pm->host)[i];
            ((int32_t *)out)[i] =
                v >= 0 && (size_t)v < pm->n ? (int32_t)pm->pi[v] : v;
        } else {
            int64_t v = ((const int64_t *)pm->host)[i];
            ((int64_t *)out)[i] =
                v >= 0 && (uint64_t)v < pm->n ? (int64_t)pm->pi[v] : v;
        }
    }
    return out;
}

/* The device memory the layout holds: pi and pi^-1, both plans' tables
 * and saved elements. */
static size_t extra_bytes(const rt_perm *pm)
{
    const dl_perm_plan *p[2] = {&pm->forward, &pm->back};
    size_t bytes = 2 * pm->n * sizeof(uint32_t);
    for (int i = 0; i < 2; i++)
        bytes += (p[i]->moved + 3 * p[i]->segments) * sizeof(uint32_t) +
                 p[i]->segments * pm->elem;
    return bytes;
}

/* Under auto, whether it pays for its memory (logged at info level
 * either way); the transactions kept for the tuner. */
static int decide(rt_perm *pm)
{
    dl_coalesce_geometry g;
    if (dl_coalesce_geometry_for_device(pm->device, pm->elem, &g) != DL_SUCCESS)
        return 0;
    void *after_index = redirected(pm);
    if (!after_index)
        return 0;
    double before = per_access(pm, &g, pm->host);
    double after = per_access(pm, &g, after_index);
    free(after_index);
    size_t extra = extra_bytes(pm);
    size_t budget =
        dl_gather_budget_bytes(pm->device, dl_rt.controls.gather_budget);
    int yes = dl_rt.controls.irregular == DL_IRREGULAR_REMAP ||
              rt_select_remap_wanted(before, after, extra, budget);
    pm->before = before;
    pm->after = after;
    pm->moved = pm->forward.moved;
    DL_LOG_INFO("permutation of %zu elements: %.1f -> %.1f transactions per "
                "warp-access, %zu bytes more, planned in %.1f ms: %s",
                pm->n, before, after, extra, (double)pm->plan_ns / 1e6,
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
    ok = ok && engine &&
         dl_perm_warm(engine, pm->elem, pm->index_bytes) == DL_SUCCESS;
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
    pthread_attr_t attr;
    pthread_t thread;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, plan_thread, pm) != 0) {
        DL_LOG_ERROR("no thread to plan a permutation: it stays unplanned");
        rt_irregular_flight(-1);
    }
    pthread_attr_destroy(&attr);
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
