/* rt_renumber_plan.c - where a graph loop's renumbering comes from
 * (rt_renumber.h): copies of the row pointer, the columns and the entry
 * arrays read after a launch, on its queue and after its event, without
 * any wait; a marker's completion callback (which never takes the
 * runtime's lock) starts a thread that checks the matrix, orders the
 * vertices (runtime/irregular: Reverse Cuthill-McKee and the degree
 * order, whichever the coalescing analyser predicts fewer transactions
 * of the vertex reads for, at the device's W and S), renumbers the copies,
 * plans pi's cycles both ways, weighs it (unless forced) and builds the
 * permutation's kernels, all without the lock; the renumbering is then
 * READY for the next launch. */
#include "clock.h"
#include "coalesce.h"
#include "csr_renumber.h"
#include "gather.h"
#include "rcm.h"
#include "remap.h"
#include "rt_jobswap_plan.h"
#include "rt_renumber.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Under auto, the order must predict at least this much fewer
 * transactions than the graph as numbered to be tried. */
#define MIN_SAVING 0.10
/* RCM that divides the transactions by this much is kept without trying
 * the degree order, which costs several times as long (a sort comparing
 * rows; the 3D stencil of 10^6 rows: RCM 13.7 -> 1.9, degree 13.8). */
#define RCM_ENOUGH 2.0

static void free_renum(rt_renum *r)
{
    free(r->host_rowptr);
    free(r->host_col);
    free(r->new_rowptr);
    free(r->new_col);
    for (uint32_t i = 0; i < RT_RENUM_MAX; i++) {
        free(r->host_edge[i]);
        free(r->new_edge[i]);
        if (r->dev_edge[i])
            dl_cl.clReleaseMemObject(r->dev_edge[i]);
    }
    for (uint32_t i = 0; i < r->nreads; i++)
        if (r->reads[i])
            dl_cl.clReleaseEvent(r->reads[i]);
    if (r->dev_rowptr)
        dl_cl.clReleaseMemObject(r->dev_rowptr);
    if (r->dev_col)
        dl_cl.clReleaseMemObject(r->dev_col);
    dl_perm_device_release(&r->dev_forward);
    dl_perm_device_release(&r->dev_back);
    dl_perm_plan_free(&r->forward);
    dl_perm_plan_free(&r->back);
    if (r->queue)
        dl_cl.clReleaseCommandQueue(r->queue);
    free(r);
}

void rt_renumber_unref(rt_renum *r)
{
    if (--r->refs == 0)
        free_renum(r);
}

/* ------------------------------------------------------------ planning */

/* Transactions per warp-access of the vertex reads x[col[k]] of the rows
 * (rowptr, col), at geometry g. */
static double per_access(const rt_renum *r, const dl_coalesce_geometry *g,
                         const int32_t *rowptr, const int32_t *col)
{
    dl_coalesce_ref ref = {.elem_bytes = r->elem};
    dl_coalesce_rows rows = {r->n, rowptr, rowptr + 1, 4};
    dl_coalesce_counts c;
    if (dl_coalesce_count_rows(g, &ref, &rows, col, r->nnz, 4, &c) !=
            DL_SUCCESS ||
        !c.accesses)
        return 0.0;
    return (double)c.before / (double)c.accesses;
}

/* One candidate order: its permutation, inverse and renumbered rows. */
typedef struct candidate {
    const char *name;
    size_t *perm, *inv;
    int32_t *rowptr, *col;
    double per_access;
} candidate;

static void candidate_free(candidate *c)
{
    free(c->perm);
    free(c->inv);
    free(c->rowptr);
    free(c->col);
    *c = (candidate){0};
}

/* The candidate by `order`, renumbered and counted. */
static dl_status try_order(const rt_renum *r, const dl_coalesce_geometry *g,
                           dl_status (*order)(const int32_t *, const int32_t *,
                                              size_t, size_t *),
                           candidate *c)
{
    c->perm = malloc(r->n * sizeof *c->perm);
    c->inv = malloc(r->n * sizeof *c->inv);
    c->rowptr = malloc((r->n + 1) * sizeof *c->rowptr);
    c->col = malloc((r->nnz ? r->nnz : 1) * sizeof *c->col);
    DL_RETURN_ERROR_ON(!c->perm || !c->inv || !c->rowptr || !c->col,
                       DL_OUT_OF_MEMORY, "renumber: %zu vertices", r->n);
    DL_RETURN_IF_FAIL(order(r->host_rowptr, r->host_col, r->n, c->perm));
    DL_RETURN_IF_FAIL(dl_csr_invert(c->perm, r->n, c->inv));
    dl_csr_renumber(r->host_rowptr, r->host_col, r->n, c->perm, c->inv,
                    c->rowptr, c->col);
    c->per_access = per_access(r, g, c->rowptr, c->col);
    return DL_SUCCESS;
}

/* The matrix read is a square CSR matrix whose entry arrays cover it. */
static dl_status check(rt_renum *r)
{
    DL_RETURN_IF_FAIL(dl_csr_check(r->host_rowptr, r->host_col, r->n,
                                   r->col_bytes / sizeof(int32_t)));
    r->nnz = (size_t)r->host_rowptr[r->n];
    for (uint32_t i = 0; i < r->nedge; i++)
        DL_RETURN_ERROR_ON(r->edge_bytes[i] < r->nnz * r->edge_elem[i],
                           DL_INVALID_ARGUMENT,
                           "renumber: an entry array is shorter than the "
                           "%zu entries",
                           r->nnz);
    return DL_SUCCESS;
}

/* pi's plans both ways and the entry arrays in the chosen order. */
static dl_status build(rt_renum *r, candidate *best)
{
    uint32_t *pi = malloc(r->n * sizeof *pi);
    DL_RETURN_ERROR_ON(!pi, DL_OUT_OF_MEMORY, "renumber: pi");
    for (size_t v = 0; v < r->n; v++)
        pi[v] = (uint32_t)best->perm[v];
    dl_status st = dl_perm_plan_build(pi, r->n, 0, &r->forward);
    free(pi);
    DL_RETURN_IF_FAIL(st);
    DL_RETURN_IF_FAIL(dl_perm_plan_reverse(&r->forward, 0, &r->back));
    for (uint32_t i = 0; i < r->nedge; i++) {
        r->new_edge[i] = malloc(r->nnz ? r->nnz * r->edge_elem[i] : 1);
        DL_RETURN_ERROR_ON(!r->new_edge[i], DL_OUT_OF_MEMORY,
                           "renumber: an entry array");
        dl_csr_renumber_entries(r->host_rowptr, r->n, best->inv,
                                r->host_edge[i], r->edge_elem[i],
                                r->new_edge[i]);
    }
    r->new_rowptr = best->rowptr;
    r->new_col = best->col;
    best->rowptr = NULL;
    best->col = NULL;
    return DL_SUCCESS;
}

/* The device memory it holds: the copies, both plans' tables and saved
 * elements. */
static size_t extra_bytes(const rt_renum *r)
{
    size_t bytes = (r->n + 1 + r->nnz) * sizeof(int32_t);
    for (uint32_t i = 0; i < r->nedge; i++)
        bytes += r->nnz * r->edge_elem[i];
    const dl_perm_plan *p[2] = {&r->forward, &r->back};
    for (int i = 0; i < 2; i++)
        bytes += (p[i]->moved + 3 * p[i]->segments) * sizeof(uint32_t) +
                 p[i]->segments * r->elem;
    return bytes;
}

/* The better order by the analyser, built (st: whether that went well);
 * the two orders' counts to rcm_degree. */
static dl_status choose(rt_renum *r, const dl_coalesce_geometry *g,
                        double rcm_degree[2], int *worth)
{
    candidate c[2] = {{.name = "RCM"}, {.name = "degree"}};
    dl_status st = try_order(r, g, dl_rcm_order, &c[0]);
    int degree = st == DL_SUCCESS && c[0].per_access * RCM_ENOUGH > r->before &&
                 !rt_irregular_stopping();
    if (degree)
        st = try_order(r, g, dl_remap_degree_order, &c[1]);
    candidate *best =
        degree && c[1].per_access < c[0].per_access ? &c[1] : &c[0];
    r->order = best->name;
    r->after = best->per_access;
    rcm_degree[0] = c[0].per_access;
    rcm_degree[1] = c[1].per_access;
    *worth = r->forced || r->after < r->before * (1.0 - MIN_SAVING);
    if (st == DL_SUCCESS && *worth && !rt_irregular_stopping())
        st = build(r, best);
    else if (st == DL_SUCCESS && *worth)
        st = dl_fail(DL_UNSUPPORTED, "the process exits");
    candidate_free(&c[0]);
    candidate_free(&c[1]);
    return st;
}

/* Planned and weighed; 0 where it is not worth it (logged). */
static int plan(rt_renum *r)
{
    uint64_t t0 = dl_now_ns();
    dl_coalesce_geometry g;
    double counts[2] = {0, 0};
    int worth = 0;
    dl_status st = check(r);
    if (st == DL_SUCCESS)
        st = dl_coalesce_geometry_for_device(r->device, r->elem, &g);
    if (st == DL_SUCCESS) {
        r->before = per_access(r, &g, r->host_rowptr, r->host_col);
        st = choose(r, &g, counts, &worth);
    }
    r->plan_ns = dl_now_ns() - t0;
    if (st != DL_SUCCESS) {
        DL_LOG_INFO("renumbering not planned: %s", dl_last_error());
        return 0;
    }
    r->extra = worth ? extra_bytes(r) : 0;
    size_t budget =
        dl_gather_budget_bytes(r->device, dl_rt.controls.gather_budget);
    int fits = r->extra <= budget;
    char degree[32] = "not tried";
    if (counts[1] > 0.0)
        snprintf(degree, sizeof degree, "%.2f", counts[1]);
    DL_LOG_INFO("renumbering of %zu vertices (%s order; RCM %.2f, degree "
                "%s): %.2f -> %.2f transactions per warp-access of the "
                "vertex reads at W=%u S=%u, %zu bytes more, planned in %.1f "
                "ms: %s",
                r->n, r->order, counts[0], degree, r->before, r->after,
                g.simd_width, g.segment_bytes, r->extra,
                (double)r->plan_ns / 1e6,
                !worth  ? "declined (too small a saving)"
                : !fits ? "declined (over DL_GATHER_BUDGET)"
                        : "ready");
    return worth && fits;
}

/* Whether every read completed. */
static int reads_done(const rt_renum *r)
{
    for (uint32_t i = 0; i < r->nreads; i++) {
        cl_int status = CL_QUEUED;
        if (dl_cl.clGetEventInfo(r->reads[i], CL_EVENT_COMMAND_EXECUTION_STATUS,
                                 sizeof status, &status, NULL) != CL_SUCCESS ||
            status != CL_COMPLETE)
            return 0;
    }
    return 1;
}

static void free_host(rt_renum *r)
{
    free(r->host_rowptr);
    free(r->host_col);
    r->host_rowptr = r->host_col = NULL;
    for (uint32_t i = 0; i < r->nedge; i++) {
        free(r->host_edge[i]);
        r->host_edge[i] = NULL;
    }
}

/* The thread of one plan: everything without the lock but its end, at a
 * lower priority than the program's threads (and POCL's), whose cores it
 * shares: a plan that is late costs launches as written, one that takes
 * the kernels' cores costs every launch meanwhile. */
static void *plan_thread(void *arg)
{
    rt_renum *r = arg;
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    int ok = reads_done(r) && !rt_irregular_stopping();
    if (!ok)
        DL_LOG_INFO("renumbering not planned: the read of the graph failed");
    ok = ok && plan(r);
    free_host(r);
    dl_engine *engine = NULL;
    void *hold = NULL;
    rt_lock();
    if (ok && rt_context_engine_hold(r->queue, &engine, &hold) != DL_SUCCESS)
        engine = NULL;
    rt_unlock();
    /* The permutation's kernels built here, not under the lock. */
    uint64_t b0 = dl_now_ns();
    ok = ok && engine && !rt_irregular_stopping() &&
         dl_perm_warm(engine, r->elem, 4) == DL_SUCCESS;
    r->build_ns = dl_now_ns() - b0;
    rt_lock();
    if (hold)
        rt_context_engine_unhold(hold);
    if (r->state == RT_RENUM_READING)
        r->state = ok ? RT_RENUM_READY : RT_RENUM_DECLINED;
    dl_cl.clReleaseCommandQueue(r->queue);
    r->queue = NULL;
    rt_renumber_unref(r);
    rt_unlock();
    rt_irregular_flight(-1);
    return NULL;
}

/* The reads' completion: a callback takes no lock, so a thread plans. */
static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    (void)status; /* each read's own status is looked at */
    rt_renum *r = user;
    if (!rt_irregular_flight(1))
        return; /* exiting: it stays unplanned */
    if (rt_irregular_spawn(plan_thread, r) != 0) {
        DL_LOG_ERROR("no thread to plan a renumbering: it stays unplanned");
        rt_irregular_flight(-1);
    }
}

/* Locked: one buffer's read into *host after `wait` (the launch's, and
 * the buffer's pending conversion), its version recorded; 0 if it could
 * not be enqueued. */
static int read_one(rt_renum *r, cl_mem m, size_t bytes, void **host,
                    cl_command_queue queue, cl_uint nwait, const cl_event *wait)
{
    rt_buffer *b = rt_buffer_find(m);
    *host = malloc(bytes ? bytes : 1);
    if (!b || !*host)
        return 0;
    rt_events order = {0}, joined = {0};
    dl_status st = rt_buffer_restore(b, queue, nwait, wait, &order);
    cl_uint n = 0;
    const cl_event *w = rt_events_join(&joined, nwait, wait, &order, &n);
    r->version[r->nreads] = b->version;
    cl_event *ev = &r->reads[r->nreads];
    cl_int err = st == DL_SUCCESS && !order.failed && !joined.failed
                     ? dl_cl.clEnqueueReadBuffer(queue, m, CL_FALSE, 0, bytes,
                                                 *host, n, w, ev)
                     : CL_OUT_OF_HOST_MEMORY;
    rt_events_free(&order);
    rt_events_free(&joined);
    if (err != CL_SUCCESS)
        return 0;
    r->nreads++;
    rt_buffer_used(b, queue, *ev);
    return 1;
}

void rt_renumber_start_plan(rt_renum *r, cl_command_queue queue, cl_uint nwait,
                            const cl_event *wait)
{
    if (r->state != RT_RENUM_READING || r->nreads)
        return;
    rt_irregular_flight(0); /* the exit's wait registered by the program */
    rt_buffer *col = rt_buffer_get(r->col);
    r->col_bytes = col ? col->size : 0;
    int ok = col &&
             read_one(r, r->rowptr, (r->n + 1) * sizeof(int32_t),
                      (void **)&r->host_rowptr, queue, nwait, wait) &&
             read_one(r, r->col, r->col_bytes, (void **)&r->host_col, queue,
                      nwait, wait);
    for (uint32_t i = 0; ok && i < r->nedge; i++) {
        rt_buffer *e = rt_buffer_get(r->edge[i]);
        r->edge_bytes[i] = e ? e->size : 0;
        ok = e && read_one(r, r->edge[i], r->edge_bytes[i], &r->host_edge[i],
                           queue, nwait, wait);
    }
    cl_event marker = NULL;
    cl_int err = ok ? dl_cl.clEnqueueMarkerWithWaitList(queue, r->nreads,
                                                        r->reads, &marker)
                    : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS) {
        dl_cl.clRetainCommandQueue(queue);
        r->queue = queue;
        r->refs++;
        err = dl_cl.clSetEventCallback(marker, CL_COMPLETE, on_read, r);
        if (err != CL_SUCCESS) {
            r->refs--;
            dl_cl.clReleaseCommandQueue(queue);
            r->queue = NULL;
        }
        dl_cl.clReleaseEvent(marker);
    }
    if (err != CL_SUCCESS) {
        DL_LOG_INFO("the graph could not be read (OpenCL error %d): not "
                    "renumbered",
                    (int)err);
        r->state = RT_RENUM_DECLINED;
    }
}
