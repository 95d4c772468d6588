/* irr_methods.c - plans the methods of irr_method.h on the host and builds
 * their variants.  Every plan works on the layouts of the GPU class (W =
 * 32, S = 128): the analyser counts them at both geometries. */
#include "irr_method.h"

#include "irr_count.h"

#include "job_swap.h"
#include "padding.h"
#include "remap.h"
#include "sharing.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARP    32
#define SEGMENT 128

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned elems_per_segment(const irr_ref *r)
{
    size_t e = SEGMENT / r->ref.elem_bytes;
    return e ? (unsigned)e : 1;
}

void *irr_alloc_n(size_t n, size_t size)
{
    return malloc((n ? n : 1) * size);
}

/* The variant's workload: the base's buffers borrowed, no variant args. */
void irr_variant_derive(const irr_workload *w, const char *kernel,
                        irr_variant *v)
{
    v->w = *w;
    v->w.nshared = w->nbufs;
    v->w.nredirect = 0;
    v->w.nupload = 0;
    v->w.plain_untimed = 1;
    v->w.redirect = kernel;
    v->cref = w->refs[0];
}

int irr_variant_upload(irr_variant *v, void *host, size_t bytes)
{
    int slot = irr_add_buf(&v->w, host, bytes);
    v->w.upload[v->w.nupload++] = slot;
    return slot;
}

/* The P entry work-item t reads at step j, or n when outside P. */
static size_t entry(const dl_coalesce_range *r, size_t t, size_t j, size_t n)
{
    size_t e = r->base + t * r->t_stride + j * r->j_stride;
    return e < n ? e : n;
}

/* ------------------------------------------------------------ job swap */

/* Each job's key: the element it reads first (CSR: its row's first). */
static int64_t *job_keys(const irr_workload *w, const int32_t *p, size_t n)
{
    const irr_ref *r = &w->refs[0];
    int64_t *key = irr_alloc_n(w->threads, sizeof *key);
    for (size_t t = 0; key && t < w->threads; t++) {
        size_t e = r->rowptr ? (size_t)r->rowptr[t] : entry(&r->range, t, 0, n);
        int empty = r->rowptr ? r->rowptr[t + 1] == r->rowptr[t] : e >= n;
        key[t] = empty ? (int64_t)t : (int64_t)p[e] + r->ref.offset;
    }
    return key;
}

/* The index the swapped kernel reads through, as the analyser sees it. */
static int swapped_index(const irr_workload *w, const int32_t *p, size_t n,
                         const int32_t *job, irr_variant *v)
{
    const irr_ref *r = &w->refs[0];
    v->cidx = irr_alloc_n(n, sizeof *v->cidx);
    if (!v->cidx)
        return 0;
    memcpy(v->cidx, p, n * sizeof *p);
    v->ccount = n;
    if (!r->rowptr) {
        for (size_t t = 0; t < w->threads; t++)
            for (size_t j = 0; j < r->range.steps; j++) {
                size_t to = entry(&r->range, t, j, n);
                size_t from = entry(&r->range, (size_t)job[t], j, n);
                if (to < n && from < n)
                    v->cidx[to] = p[from];
            }
        return 1;
    }
    /* CSR: lane t reads row job[t]: a CSR whose row t is that row. */
    v->crowptr = irr_alloc_n(w->threads + 1, sizeof *v->crowptr);
    if (!v->crowptr)
        return 0;
    v->crowptr[0] = 0;
    for (size_t t = 0; t < w->threads; t++) {
        int32_t a = r->rowptr[job[t]], b = r->rowptr[job[t] + 1];
        memcpy(v->cidx + v->crowptr[t], p + a, (size_t)(b - a) * sizeof *p);
        v->crowptr[t + 1] = v->crowptr[t] + (b - a);
    }
    v->cref.rowptr = v->crowptr;
    return 1;
}

static int plan_job_swap(const irr_workload *w, irr_variant *v)
{
    const irr_ref *r = &w->refs[0];
    const int32_t *p = w->bufs[r->p].host;
    size_t n = w->bufs[r->p].bytes / sizeof *p, T = w->threads;
    int64_t *key = job_keys(w, p, n);
    size_t *R = irr_alloc_n(T, sizeof *R);
    int32_t *job = irr_alloc_n(T, sizeof *job);
    int ok = key && R && job &&
             dl_job_swap_by_segment(key, T, WARP, elems_per_segment(r), R) ==
                 DL_SUCCESS;
    for (size_t t = 0; ok && t < T; t++)
        job[t] = (int32_t)R[t];
    free(key);
    free(R);
    if (!ok || !swapped_index(w, p, n, job, v)) {
        free(job);
        return 0;
    }
    int slot = irr_variant_upload(v, job, T * sizeof *job);
    irr_redirect_arg(&v->w, slot, 0);
    for (int i = 0; i < w->nplain; i++)
        irr_redirect_arg(&v->w, w->plain_args[i].buf, w->plain_args[i].value);
    v->index_bytes = T * sizeof *job;
    return 1;
}

/* --------------------------------------------------------------- remap */

/* The lanes of a CSR reference in ELL order (entry j*rows + t; -1, outside
 * A, where row t is shorter): the affine range remap.h profiles. */
int32_t *irr_csr_lanes(const irr_ref *r, const int32_t *p, size_t rows,
                       dl_coalesce_range *range, size_t *count)
{
    size_t width = 0;
    for (size_t t = 0; t < rows; t++)
        if ((size_t)(r->rowptr[t + 1] - r->rowptr[t]) > width)
            width = (size_t)(r->rowptr[t + 1] - r->rowptr[t]);
    int32_t *lanes = irr_alloc_n(rows * width, sizeof *lanes);
    for (size_t t = 0; lanes && t < rows; t++)
        for (size_t j = 0; j < width; j++) {
            size_t k = (size_t)r->rowptr[t] + j;
            lanes[j * rows + t] = k < (size_t)r->rowptr[t + 1] ? p[k] : -1;
        }
    *range = (dl_coalesce_range){rows, width, 0, 1, rows};
    *count = rows * width;
    return lanes;
}

static int plan_perm(const irr_workload *w, const irr_method_env *env,
                     size_t a_count, size_t *perm)
{
    const irr_ref *r = &w->refs[0];
    const int32_t *p = w->bufs[r->p].host;
    size_t n = w->bufs[r->p].bytes / sizeof *p;
    dl_coalesce_geometry g = dl_coalesce_geometry_gpu();
    dl_coalesce_range range = r->range;
    int32_t *lanes =
        r->rowptr ? irr_csr_lanes(r, p, w->threads, &range, &n) : NULL;
    if (r->rowptr && !lanes)
        return 0;
    dl_remap_params prm = {DL_REMAP_CLIQUE, n > (1u << 22) ? 0.1 : 1.0, 0,
                           env->seed, dl_metis_linked()};
    dl_status st = dl_remap_plan(&g, &r->ref, &range, lanes ? lanes : p, n, 4,
                                 a_count, &prm, perm, NULL);
    free(lanes);
    return st == DL_SUCCESS;
}

/* Every index into A redirected to the permuted A, as an upload. */
static int redirect_index(irr_variant *v, int slot, const size_t *perm,
                          size_t a_count, int *moved)
{
    const irr_buf *b = &v->w.bufs[slot];
    int32_t *q = irr_alloc_n(b->bytes / 4, sizeof *q);
    if (!q || dl_remap_redirect(&v->cref.ref, perm, a_count, b->host,
                                b->bytes / 4, 4, q) != DL_SUCCESS) {
        free(q);
        return 0;
    }
    *moved = irr_variant_upload(v, q, b->bytes);
    v->index_bytes += b->bytes;
    return 1;
}

static int plan_remap(const irr_workload *w, const irr_method_env *env,
                      irr_variant *v)
{
    const irr_ref *r = &w->refs[0];
    const irr_buf *a = &w->bufs[r->a];
    size_t eb = r->ref.elem_bytes, a_count = a->bytes / eb;
    size_t *perm = irr_alloc_n(a_count, sizeof *perm);
    unsigned char *ap = irr_alloc_n(a->bytes, 1);
    int ok = perm && ap && plan_perm(w, env, a_count, perm);
    for (size_t x = 0; ok && x < a_count; x++)
        memcpy(ap + perm[x] * eb, (const unsigned char *)a->host + x * eb, eb);
    int moved[IRR_MAX_BUFS];
    for (int i = 0; i < w->nbufs; i++)
        moved[i] = i;
    if (ok)
        moved[r->a] = irr_variant_upload(v, ap, a->bytes);
    else
        free(ap);
    for (int i = 0; ok && i < w->nrefs; i++) /* records: p and q */
        ok = redirect_index(v, w->refs[i].p, perm, a_count,
                            &moved[w->refs[i].p]);
    free(perm);
    for (int i = 0; ok && i < w->nplain; i++) {
        int b = w->plain_args[i].buf;
        irr_redirect_arg(&v->w, b >= 0 ? moved[b] : b, w->plain_args[i].value);
    }
    if (ok) { /* the analyser reads P' like P */
        const irr_buf *pp = &v->w.bufs[moved[r->p]];
        v->cidx = irr_alloc_n(pp->bytes / 4, sizeof *v->cidx);
        ok = v->cidx != NULL;
        if (ok)
            memcpy(v->cidx, pp->host, pp->bytes);
        v->ccount = pp->bytes / 4;
    }
    return ok;
}

int irr_variant_build(const irr_workload *w, dl_irregular_method method,
                      const irr_method_env *env, irr_variant *out)
{
    memset(out, 0, sizeof *out);
    out->method = method;
    double t0 = seconds_now();
    int ok = 1;
    switch (method) {
    case DL_METHOD_JOB_SWAP:
        irr_variant_derive(w,
                           !strcmp(w->plain, "spmv_csr")   ? "spmv_csr_swap"
                           : !strcmp(w->plain, "spmv_ell") ? "spmv_ell_swap"
                           : !strcmp(w->plain, "md_force")
                               ? "md_force_swap"
                               : "records_pair_swap",
                           out);
        ok = plan_job_swap(w, out);
        break;
    case DL_METHOD_REMAP:
        out->why = dl_remap_unavailable();
        if (!strcmp(w->plain, "md_force")) /* pos[i] besides pos[nbr[..]] */
            out->why = "the kernel also reads A by the work-item id "
                       "(pos[i]): remapping A would renumber the jobs too";
        irr_variant_derive(w, w->plain, out);
        ok = out->why || plan_remap(w, env, out);
        break;
    case DL_METHOD_SHARING:
        ok = irr_plan_sharing(w, env, out);
        break;
    case DL_METHOD_PADDING:
        ok = irr_plan_padding(w, out);
        break;
    default:
        out->why = "not a method of irr_method.h";
    }
    out->plan_s = seconds_now() - t0;
    return ok;
}

/* Sharing's global reads: each group copies its block, lane l at step s
 * reading slot bpos[g] + s*G + l. */
static int count_blocks(const irr_variant *v, const dl_coalesce_geometry *g,
                        dl_coalesce_counts *out)
{
    *out = (dl_coalesce_counts){0, 0, 0};
    for (size_t k = 0; k < v->groups; k++) {
        size_t size = (size_t)v->bsize[k], lsz = v->group;
        int32_t *slots = irr_alloc_n(size, sizeof *slots);
        if (!slots)
            return 0;
        for (size_t i = 0; i < size; i++)
            slots[i] = v->bpos[k] + (int32_t)i;
        dl_coalesce_range copy = {lsz, (size + lsz - 1) / lsz, 0, 1, lsz};
        dl_coalesce_counts c;
        dl_status st =
            dl_coalesce_count(g, &v->cref.ref, &copy, slots, size, 4, &c);
        free(slots);
        if (st != DL_SUCCESS)
            return 0;
        out->accesses += c.accesses;
        out->before += c.before;
    }
    return 1;
}

int irr_variant_count(const irr_variant *v, const irr_workload *base,
                      const dl_coalesce_geometry *g, dl_coalesce_counts *out)
{
    if (v->bsize)
        return count_blocks(v, g, out);
    return irr_count_index(g, &v->cref, v->cidx, v->ccount, base->threads, out);
}

void irr_variant_free(irr_variant *v)
{
    irr_workload_free(&v->w);
    free(v->cidx);
    free(v->crowptr);
    free(v->bpos);
    free(v->bsize);
    memset(v, 0, sizeof *v);
}
