/* irr_loop.c - the graph-kernel loops of `dl-bench irregular`: N iterations
 * of x' = add + mul * (A x) in CSR, the vector written every iteration
 * (irregular.cl's spmv_csr_iter), run three ways:
 * - none: as written;
 * - duplication: x' gathered again through col before every iteration
 *   (x is written, so a copy goes stale at once);
 * - remap: pi planned on the host (remap.h) two ways, METIS's partition of
 *   the matrix's graph and the degree order, and the one with fewer
 *   transactions at W = 32, S = 128 kept; the matrix renumbered
 *   symmetrically (row r -> pi(r), column c -> pi(c), each row's entries
 *   in their order) and uploaded with x permuted; the loop runs in the
 *   permuted order, and the result is un-permuted on the host at the end.
 * Each output element sums the same entries in the same order every way,
 * so the final vectors are byte-identical (checked). */
#include "irr_loop.h"

#include "bench.h"
#include "gather.h"
#include "irr_count.h"
#include "irr_method.h"
#include "remap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One way of running the loop on the device. */
typedef struct loop_run {
    irr_device *d;
    const irr_loop *l;
    size_t rows, nnz, global;
    cl_mem rowptr, col, val, x0, v[2], xp;
    cl_kernel k[2]; /* v[0] -> v[1] and v[1] -> v[0] */
    int dup;
} loop_run;

static cl_mem upload(irr_device *d, const void *host, size_t bytes)
{
    cl_int err;
    cl_mem m = clCreateBuffer(
        d->cl->context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
        bytes ? bytes : 4, (void *)host, &err);
    return bench_cl_ok(err, "clCreateBuffer") ? m : NULL;
}

static cl_kernel loop_kernel(loop_run *r, int from)
{
    cl_int err;
    cl_kernel k = clCreateKernel(
        r->d->program, r->dup ? "spmv_csr_iter_redirect" : "spmv_csr_iter",
        &err);
    if (!bench_cl_ok(err, "clCreateKernel"))
        return NULL;
    cl_uint i = 0, rows = (cl_uint)r->rows;
    err |= clSetKernelArg(k, i++, sizeof(cl_mem), &r->rowptr);
    if (!r->dup)
        err |= clSetKernelArg(k, i++, sizeof(cl_mem), &r->col);
    err |= clSetKernelArg(k, i++, sizeof(cl_mem), &r->val);
    err |=
        clSetKernelArg(k, i++, sizeof(cl_mem), r->dup ? &r->xp : &r->v[from]);
    err |= clSetKernelArg(k, i++, sizeof(cl_mem), &r->v[1 - from]);
    err |= clSetKernelArg(k, i++, sizeof rows, &rows);
    err |= clSetKernelArg(k, i++, sizeof(float), &r->l->mul);
    err |= clSetKernelArg(k, i++, sizeof(float), &r->l->add);
    if (bench_cl_ok(err, "clSetKernelArg"))
        return k;
    clReleaseKernel(k);
    return NULL;
}

static int run_open(loop_run *r, const irr_csr *m, const float *x)
{
    r->rows = m->rows;
    r->nnz = m->nnz;
    r->global = (m->rows + r->d->group - 1) / r->d->group * r->d->group;
    r->rowptr = upload(r->d, m->rowptr, (m->rows + 1) * 4);
    r->col = upload(r->d, m->col, m->nnz * 4);
    r->val = upload(r->d, m->val, m->nnz * 4);
    r->x0 = upload(r->d, x, m->rows * 4);
    r->v[0] = upload(r->d, NULL, m->rows * 4);
    r->v[1] = upload(r->d, NULL, m->rows * 4);
    r->xp = upload(r->d, NULL, m->nnz * 4);
    return r->rowptr && r->col && r->val && r->x0 && r->v[0] && r->v[1] &&
           r->xp && (r->k[0] = loop_kernel(r, 0)) &&
           (r->k[1] = loop_kernel(r, 1));
}

static void run_close(loop_run *r)
{
    cl_mem *mems[] = {&r->rowptr, &r->col,  &r->val, &r->x0,
                      &r->v[0],   &r->v[1], &r->xp};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; i++)
        if (*mems[i])
            clReleaseMemObject(*mems[i]);
    for (int i = 0; i < 2; i++)
        if (r->k[i])
            clReleaseKernel(r->k[i]);
}

/* x0 -> v[0], then the N iterations (each gather first for dup). */
static int enqueue_loop(void *ctx, cl_command_queue q, cl_uint nwait,
                        const cl_event *wait, cl_event *last)
{
    loop_run *r = ctx;
    dl_coalesce_ref ref = {sizeof(float), 0, 0, 0};
    dl_coalesce_range range = {r->nnz, 1, 0, 1, 0};
    int ok = bench_cl_ok(clEnqueueCopyBuffer(q, r->x0, r->v[0], 0, 0,
                                             r->rows * 4, nwait, wait, NULL),
                         "clEnqueueCopyBuffer");
    for (size_t i = 0; ok && i < r->l->iterations; i++) {
        int from = (int)(i & 1), final = i + 1 == r->l->iterations;
        if (r->dup &&
            dl_enqueue_gather(r->d->engine, q, r->v[from], r->col, &ref, &range,
                              4, r->xp, 0, NULL, NULL) != DL_SUCCESS)
            ok = 0;
        ok = ok && bench_cl_ok(clEnqueueNDRangeKernel(
                                   q, r->k[from], 1, NULL, &r->global,
                                   &r->d->group, 0, NULL, final ? last : NULL),
                               "clEnqueueNDRangeKernel");
    }
    return ok;
}

/* Median seconds of the loop; its final vector into out. */
static int measure(loop_run *r, float *out, double *seconds)
{
    size_t reps = r->d->reps;
    double *t = calloc(reps, sizeof *t);
    int ok = t != NULL;
    for (size_t i = 0; ok && i < reps; i++)
        ok = bench_cl_time(r->d->cl, BENCH_TIMER_EVENT, enqueue_loop, r, &t[i]);
    if (ok)
        *seconds = bench_median(t, reps);
    free(t);
    cl_mem last = r->v[r->l->iterations & 1];
    return ok &&
           bench_cl_ok(clEnqueueReadBuffer(r->d->cl->queue, last, CL_TRUE, 0,
                                           r->rows * 4, out, 0, NULL, NULL),
                       "clEnqueueReadBuffer");
}

static int run_loop(irr_device *d, const irr_loop *l, const irr_csr *m,
                    const float *x, int dup, float *out, double *seconds)
{
    loop_run r = {.d = d, .l = l, .dup = dup};
    int ok = run_open(&r, m, x) && measure(&r, out, seconds);
    run_close(&r);
    return ok;
}

/* ------------------------------------------------------------- rows */

static int count_rows(irr_device *d, irr_refrows *x, irr_mrow *row,
                      const irr_csr *m, const int32_t *index)
{
    irr_ref ref = *x->r;
    ref.rowptr = m->rowptr;
    if (!irr_report_geometries(d, x->r, row))
        return 0;
    for (int k = 0; k < 2; k++) {
        dl_coalesce_counts c;
        if (!irr_count_index(&row->g[k], &ref, index, m->nnz, m->rows, &c))
            return 0;
        row->c[k] = (dl_coalesce_counts){c.accesses, c.before, c.before};
    }
    return 1;
}

/* Each row's columns, row after row, padded with -1 (outside A) to the
 * longest row: read by "warps" of one row each, the profile's patterns
 * are the rows' neighbourhoods, and METIS partitions the matrix's own
 * graph.  The symmetric renumbering moves rows with their columns, so
 * neighbours must share segments and warps alike (a plan for the lanes of
 * col in the given row order would be undone by moving the rows). */
static int32_t *rows_padded(const irr_csr *m, size_t *width)
{
    *width = 1;
    for (size_t r = 0; r < m->rows; r++)
        if ((size_t)(m->rowptr[r + 1] - m->rowptr[r]) > *width)
            *width = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
    int32_t *p = irr_alloc_n(m->rows * *width, sizeof *p);
    for (size_t r = 0; p && r < m->rows; r++)
        for (size_t j = 0; j < *width; j++) {
            size_t k = (size_t)m->rowptr[r] + j;
            p[r * *width + j] = k < (size_t)m->rowptr[r + 1] ? m->col[k] : -1;
        }
    return p;
}

/* pi from the matrix's graph: METIS's partition (remap.h) of each row's
 * neighbourhood. */
static int metis_plan(const irr_loop *l, const irr_csr *m, size_t *perm)
{
    size_t width;
    int32_t *rows = rows_padded(m, &width);
    dl_coalesce_geometry g = {(unsigned)width, 128};
    dl_coalesce_ref ref = {sizeof(float), 0, 0, 0};
    dl_coalesce_range range = {m->rows * width, 1, 0, 1, 0};
    dl_remap_params prm = {DL_REMAP_CLIQUE, 1.0, 0, l->seed, dl_metis_linked()};
    int ok = rows && dl_remap_plan(&g, &ref, &range, rows, m->rows * width, 4,
                                   m->rows, &prm, perm, NULL) == DL_SUCCESS;
    free(rows);
    return ok;
}

/* The transactions of x via col over m's rows at W = 32, S = 128, the
 * GPU-class geometry the two plans are compared at. */
static int gpu_transactions(const irr_csr *m, uint64_t *tx)
{
    dl_coalesce_geometry g = {32, 128};
    irr_ref ref = {.ref = {sizeof(float), 0, 0, 0}, .rowptr = m->rowptr};
    dl_coalesce_counts c;
    int ok = irr_count_index(&g, &ref, m->col, m->nnz, m->rows, &c);
    *tx = ok ? c.before : UINT64_MAX;
    return ok;
}

/* m renumbered by perm into *mp (pi: perm as int32), with its
 * transactions. */
static int renumber(const irr_csr *m, const size_t *perm, int32_t *pi,
                    irr_csr *mp, uint64_t *tx)
{
    if (!irr_csr_alloc(mp, m->rows, m->nnz))
        return 0;
    for (size_t i = 0; i < m->rows; i++)
        pi[i] = (int32_t)perm[i];
    irr_csr_permute(m, pi, mp);
    return gpu_transactions(mp, tx);
}

/* The remapped matrix and vector: of METIS's plan and the degree order
 * (remap.h; the better on power-law graphs, whose hubs no partition into
 * segments places next to all their readers), the one with fewer
 * transactions. */
static int remap_plan(const irr_loop *l, const irr_csr *m, const float *x,
                      int32_t *pi, irr_csr *mp, float *xp)
{
    size_t *perm = irr_alloc_n(m->rows, sizeof *perm);
    int32_t *pi2 = irr_alloc_n(m->rows, sizeof *pi2);
    irr_csr m2 = {0, 0, NULL, NULL, NULL};
    uint64_t tx = 0, tx2 = 0;
    int ok =
        perm && pi2 && metis_plan(l, m, perm) &&
        renumber(m, perm, pi, mp, &tx) &&
        dl_remap_degree_order(m->rowptr, m->col, m->rows, perm) == DL_SUCCESS &&
        renumber(m, perm, pi2, &m2, &tx2);
    if (ok && tx2 < tx) {
        irr_csr t = *mp;
        *mp = m2;
        m2 = t;
        memcpy(pi, pi2, m->rows * sizeof *pi);
    }
    for (size_t i = 0; ok && i < m->rows; i++)
        xp[pi[i]] = x[i];
    free(perm);
    free(pi2);
    irr_csr_free(&m2);
    return ok;
}

static int remap_row(irr_device *d, const irr_loop *l, irr_refrows *x,
                     const irr_csr *m, const float *x0, const float *want)
{
    irr_mrow *row = &x->row[x->n];
    int32_t *pi = irr_alloc_n(m->rows, sizeof *pi);
    float *xp = irr_alloc_n(m->rows, sizeof *xp);
    float *got = irr_alloc_n(m->rows, sizeof *got);
    float *out = irr_alloc_n(m->rows, sizeof *out);
    irr_csr mp = {0, 0, NULL, NULL, NULL};
    double t0 = seconds_now(), loop = 0;
    int ok = pi && xp && got && out && remap_plan(l, m, x0, pi, &mp, xp);
    double plan = seconds_now() - t0;
    ok = ok && run_loop(d, l, &mp, xp, 0, got, &loop);
    t0 = seconds_now();
    for (size_t i = 0; ok && i < m->rows; i++) /* un-permute */
        out[i] = got[pi[i]];
    double unpermute = seconds_now() - t0;
    ok = ok && count_rows(d, x, row, &mp, mp.col);
    if (ok) {
        double n = (double)x->iterations;
        row->m = DL_METHOD_REMAP;
        row->plan = plan;
        row->reorg = plan + unpermute; /* the upload is in the loop's x0 */
        row->kernel = loop / n;
        row->index = m->rows * 4; /* pi, to un-permute: the matrix and x
                                     are renumbered in place */
        row->verified = !memcmp(out, want, m->rows * sizeof *out);
        x->n++;
    }
    free(pi);
    free(xp);
    free(got);
    free(out);
    irr_csr_free(&mp);
    return ok;
}

int irr_loop_report(irr_device *d, const irr_loop *l, const irr_csr *m,
                    const float *x0)
{
    irr_workload w = {.threads = m->rows};
    snprintf(w.name, sizeof w.name, "%s", l->name);
    w.bufs[0] = (irr_buf){NULL, m->rows * sizeof(float)};
    irr_ref ref = {.label = l->label, .ref = {sizeof(float), 0, 0, 0}};
    irr_refrows x = {
        .w = &w, .r = &ref, .iterations = l->iterations, .a_written = 1};
    float *want = irr_alloc_n(m->rows, sizeof *want);
    float *got = irr_alloc_n(m->rows, sizeof *got);
    int32_t *iota = irr_alloc_n(m->nnz, sizeof *iota);
    double plain = 0, dup = 0;
    for (size_t k = 0; iota && k < m->nnz; k++)
        iota[k] = (int32_t)k;
    int ok = want && got && iota && run_loop(d, l, m, x0, 0, want, &plain) &&
             count_rows(d, &x, &x.row[0], m, m->col) &&
             run_loop(d, l, m, x0, 1, got, &dup) &&
             count_rows(d, &x, &x.row[1], m, iota);
    double n = (double)l->iterations;
    x.plain = plain / n;
    x.row[0].m = DL_METHOD_NONE;
    x.row[0].kernel = plain / n;
    x.row[0].verified = 1;
    x.row[1].m = DL_METHOD_DUPLICATION;
    x.row[1].kernel = dup / n; /* a gather and a kernel per iteration */
    x.row[1].data = m->nnz * sizeof(float);
    x.row[1].verified = ok && !memcmp(want, got, m->rows * sizeof *got);
    x.n = 2;
    if (ok && !dl_remap_unavailable())
        ok = remap_row(d, l, &x, m, x0, want);
    int rc = ok ? irr_report_rows(d, &x) : -1;
    if (!ok)
        fprintf(stderr, "dl-bench irregular: %s failed: %s\n", l->name,
                dl_last_error());
    free(want);
    free(got);
    free(iota);
    return rc;
}
