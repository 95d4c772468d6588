/* permute_choose.c - the permutation layout's order (permute_choose.h):
 * each candidate planned, counted on P' = pi o P, the fewest kept. */
#include "permute_choose.h"
#include "clock.h"
#include "error.h"
#include "permute.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* METIS's plans one at a time: METIS is not documented thread-safe, and
 * planning threads of several pairs may run at once. */
static pthread_mutex_t metis_lock = PTHREAD_MUTEX_INITIALIZER;

const char *dl_perm_order_name(dl_perm_order order)
{
    return order == DL_PERM_METIS ? "METIS" : "first touch";
}

static double seconds_since(uint64_t t0)
{
    return (double)(dl_now_ns() - t0) * 1e-9;
}

/* P' = pi o P (entries outside A kept), for the count; NULL when out of
 * memory. */
static void *redirected(const dl_perm_source *s, const uint32_t *pi)
{
    void *out = malloc(s->count * s->index_bytes + 1);
    for (size_t i = 0; out && i < s->count; i++) {
        if (s->index_bytes == 4) {
            int32_t v = ((const int32_t *)s->index)[i];
            ((int32_t *)out)[i] =
                v >= 0 && (size_t)v < s->n ? (int32_t)pi[v] : v;
        } else {
            int64_t v = ((const int64_t *)s->index)[i];
            ((int64_t *)out)[i] =
                v >= 0 && (uint64_t)v < s->n ? (int64_t)pi[v] : v;
        }
    }
    return out;
}

/* Transactions per warp-access of the work-items reading A through
 * `index` (pi NULL: P as written; else P'); negative when they cannot
 * be counted. */
static double per_access(const dl_perm_source *s, const uint32_t *pi)
{
    dl_coalesce_ref ref = {.elem_bytes = s->elem_bytes};
    void *moved = pi ? redirected(s, pi) : NULL;
    dl_coalesce_counts c;
    int ok =
        (!pi || moved) &&
        dl_coalesce_count(&s->geometry, &ref, &s->range, pi ? moved : s->index,
                          s->count, s->index_bytes, &c) == DL_SUCCESS &&
        c.accesses;
    free(moved);
    return ok ? (double)c.before / (double)c.accesses : -1.0;
}

/* The share of warp-accesses METIS's profile samples. */
static double metis_sample(const dl_perm_source *s)
{
    unsigned w = s->geometry.simd_width ? s->geometry.simd_width : 1;
    double accesses =
        (double)((s->range.threads + w - 1) / w) * (double)s->range.steps;
    return accesses > DL_PERM_METIS_MAX_ACCESSES
               ? DL_PERM_METIS_MAX_ACCESSES / accesses
               : 1.0;
}

/* METIS's order into pi; 0, or -1 with why_not_metis. */
static int plan_metis(const dl_perm_source *s, const dl_metis_api *metis,
                      uint32_t *pi, dl_perm_choice *out)
{
    dl_coalesce_ref ref = {.elem_bytes = s->elem_bytes};
    dl_remap_params prm = {DL_REMAP_CLIQUE, out->sample, 0, 1, metis};
    size_t *perm = malloc(s->n * sizeof *perm);
    dl_status st =
        perm ? DL_SUCCESS : dl_fail(DL_OUT_OF_MEMORY, "no memory for its plan");
    if (st == DL_SUCCESS) {
        pthread_mutex_lock(&metis_lock);
        st = dl_remap_plan(&s->geometry, &ref, &s->range, s->index, s->count,
                           s->index_bytes, s->n, &prm, perm, NULL);
        pthread_mutex_unlock(&metis_lock);
    }
    for (size_t x = 0; st == DL_SUCCESS && x < s->n; x++)
        pi[x] = (uint32_t)perm[x];
    free(perm);
    if (st != DL_SUCCESS)
        snprintf(out->why_not_metis, sizeof out->why_not_metis, "%s",
                 dl_last_error());
    return st == DL_SUCCESS ? 0 : -1;
}

/* Why METIS's order is not planned at all, or NULL. */
static const char *metis_skipped(const dl_perm_source *s,
                                 const dl_metis_api *metis, int (*stop)(void))
{
    if (!metis)
        return "METIS is unavailable";
    if (s->n > DL_PERM_METIS_MAX_ELEMENTS)
        return "more elements than METIS is given (65536)";
    if (stop && stop())
        return "the process exits";
    return NULL;
}

/* METIS's order into mine: reuse's known one, or planned (and kept in
 * reuse's planned); 0, or -1 with why_not_metis. */
static int metis_order(const dl_perm_source *s, const dl_metis_api *metis,
                       dl_perm_metis_reuse *reuse, uint32_t *mine,
                       dl_perm_choice *out)
{
    out->sample = metis_sample(s);
    if (reuse && reuse->known) {
        memcpy(mine, reuse->known, s->n * sizeof *mine);
        out->metis_reused = 1;
        return 0;
    }
    uint64_t t0 = dl_now_ns();
    if (plan_metis(s, metis, mine, out))
        return -1;
    out->plan_s[DL_PERM_METIS] = seconds_since(t0);
    if (reuse && reuse->planned) {
        memcpy(reuse->planned, mine, s->n * sizeof *mine);
        reuse->stored = 1;
    }
    return 0;
}

/* METIS's order, planned or given, counted and kept in pi if it counts
 * fewer. */
static dl_status try_metis(const dl_perm_source *s, const dl_metis_api *metis,
                           int (*stop)(void), dl_perm_metis_reuse *reuse,
                           uint32_t *pi, dl_perm_choice *out)
{
    const char *skip =
        reuse && reuse->known ? NULL : metis_skipped(s, metis, stop);
    if (skip) {
        snprintf(out->why_not_metis, sizeof out->why_not_metis, "%s", skip);
        return DL_SUCCESS;
    }
    uint32_t *mine = malloc(s->n * sizeof *mine);
    DL_RETURN_ERROR_ON(!mine, DL_OUT_OF_MEMORY,
                       "permute: METIS's pi of %zu elements", s->n);
    if (metis_order(s, metis, reuse, mine, out) == 0)
        out->tx[DL_PERM_METIS] = per_access(s, mine);
    double ft = out->tx[DL_PERM_FIRST_TOUCH], m = out->tx[DL_PERM_METIS];
    if (m >= 0 && (ft < 0 || m < ft)) {
        memcpy(pi, mine, s->n * sizeof *pi);
        out->order = DL_PERM_METIS;
    }
    free(mine);
    return DL_SUCCESS;
}

dl_status dl_perm_choose_reusing(const dl_perm_source *src,
                                 const dl_metis_api *metis, int (*stop)(void),
                                 dl_perm_metis_reuse *reuse, uint32_t *pi,
                                 dl_perm_choice *out)
{
    memset(out, 0, sizeof *out);
    out->order = DL_PERM_FIRST_TOUCH;
    out->tx[DL_PERM_METIS] = -1.0;
    if (reuse)
        reuse->stored = 0;
    uint64_t t0 = dl_now_ns();
    DL_RETURN_IF_FAIL(dl_perm_first_touch(src->index, src->count,
                                          src->index_bytes, src->n, pi));
    out->plan_s[DL_PERM_FIRST_TOUCH] = seconds_since(t0);
    out->as_written = per_access(src, NULL);
    out->tx[DL_PERM_FIRST_TOUCH] = per_access(src, pi);
    return try_metis(src, metis, stop, reuse, pi, out);
}

dl_status dl_perm_choose(const dl_perm_source *src, const dl_metis_api *metis,
                         int (*stop)(void), uint32_t *pi, dl_perm_choice *out)
{
    return dl_perm_choose_reusing(src, metis, stop, NULL, pi, out);
}
