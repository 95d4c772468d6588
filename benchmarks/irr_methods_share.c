/* irr_methods_share.c - the two methods that copy A's elements: sharing
 * (sharing.h) for the column-major ELL SpMV, whose work-groups copy their
 * distinct x into __local memory, and padding: padding.h for the records'
 * reference through p, one entry per work-item, and the runtime's form
 * (padding_slots.h: the program's kernel on A'' and Q', work-items in
 * launch order) for the ELL SpMV.  Elsewhere they do not apply as
 * planned: padding.h moves each entry of a job on its own (a row of
 * several entries would be split), and sharing's kernel variant exists
 * for ELL only. */
#include "irr_method.h"

#include "padding.h"
#include "padding_slots.h"
#include "sharing.h"

#include <stdlib.h>
#include <string.h>

#define WARP    32
#define SEGMENT 128

/* A's elements at `source` (zero bytes in an empty slot). */
static void *copy_slots(const irr_buf *a, size_t eb, const int64_t *source,
                        size_t slots)
{
    unsigned char *out = irr_alloc_n(slots * eb, 1);
    for (size_t k = 0; out && k < slots; k++) {
        if (source[k] == DL_SLOT_EMPTY)
            memset(out + k * eb, 0, eb);
        else
            memcpy(out + k * eb,
                   (const unsigned char *)a->host + (size_t)source[k] * eb, eb);
    }
    return out;
}

/* Group-major flattening of an affine range: group g's (t, j) entries
 * together, step by step, so that a sharing group of G * steps jobs is
 * one work-group's working set.  flat[f] is entry e's job number f. */
static size_t flat_of(size_t t, size_t j, size_t G, size_t T, size_t steps)
{
    size_t g = t / G, g0 = g * G, gl = T - g0 < G ? T - g0 : G;
    return g0 * steps + j * gl + (t - g0);
}

static int share_plan(const irr_workload *w, size_t G, dl_sharing_plan *pl,
                      int32_t *lidx)
{
    const irr_ref *r = &w->refs[0];
    const int32_t *p = w->bufs[r->p].host;
    size_t T = w->threads, steps = r->range.steps, n = T * steps;
    int64_t *flat = irr_alloc_n(n, sizeof *flat);
    if (!flat)
        return 0;
    for (size_t t = 0; t < T; t++)
        for (size_t j = 0; j < steps; j++)
            flat[flat_of(t, j, G, T, steps)] = p[j * T + t];
    dl_status st = dl_sharing_plan_build(flat, n, G * steps,
                                         SEGMENT / sizeof(float), 0, pl);
    free(flat);
    for (size_t t = 0; st == DL_SUCCESS && t < T; t++)
        for (size_t j = 0; j < steps; j++)
            lidx[j * T + t] = (int32_t)pl->local[flat_of(t, j, G, T, steps)];
    return st == DL_SUCCESS;
}

static int32_t *int32_of(const size_t *v, size_t n)
{
    int32_t *out = irr_alloc_n(n, sizeof *out);
    for (size_t i = 0; out && i < n; i++)
        out[i] = (int32_t)v[i];
    return out;
}

/* Arguments of spmv_ell_share; the plain spmv_ell's are col, val, x, y,
 * rows, width. */
static void share_args(irr_variant *v, const irr_workload *w, const int s[4],
                       size_t local_bytes)
{
    const irr_arg *pa = w->plain_args;
    irr_redirect_arg(&v->w, s[0], 0);
    irr_redirect_arg(&v->w, pa[1].buf, 0);
    for (int i = 1; i < 4; i++)
        irr_redirect_arg(&v->w, s[i], 0);
    for (int i = 3; i < 6; i++)
        irr_redirect_arg(&v->w, pa[i].buf, pa[i].value);
    irr_redirect_arg(&v->w, IRR_LOCAL_ARG, (unsigned)local_bytes);
}

int irr_plan_sharing(const irr_workload *w, const irr_method_env *env,
                     irr_variant *v)
{
    if (strcmp(w->plain, "spmv_ell")) {
        v->why = "sharing's variant is written for the ELL SpMV only";
        return 1;
    }
    const irr_ref *r = &w->refs[0];
    size_t n = w->bufs[r->p].bytes / 4, G = env->group;
    dl_sharing_plan pl;
    int32_t *lidx = irr_alloc_n(n, sizeof *lidx);
    if (!lidx || !share_plan(w, G, &pl, lidx)) {
        free(lidx);
        return 0;
    }
    size_t local = pl.max_block * sizeof(float);
    irr_variant_derive(w, "spmv_ell_share", v);
    int s[4] = {irr_variant_upload(v, lidx, n * 4), -1, -1, -1};
    void *xs = copy_slots(&w->bufs[r->a], sizeof(float), pl.source, pl.slots);
    v->bpos = int32_of(pl.block_pos, pl.groups);
    v->bsize = int32_of(pl.block_size, pl.groups);
    int32_t *bpos = int32_of(pl.block_pos, pl.groups);
    int32_t *bsize = int32_of(pl.block_size, pl.groups);
    int ok = xs && v->bpos && v->bsize && bpos && bsize;
    v->groups = pl.groups;
    v->group = G;
    v->data_bytes = pl.slots * sizeof(float);
    v->index_bytes = n * 4 + 2 * pl.groups * 4;
    dl_sharing_plan_free(&pl);
    s[1] = irr_variant_upload(v, xs, v->data_bytes);
    s[2] = irr_variant_upload(v, bpos, v->groups * 4);
    s[3] = irr_variant_upload(v, bsize, v->groups * 4);
    if (ok && local > env->local_bytes)
        v->why = "the largest block exceeds the device's __local memory";
    share_args(v, w, s, local ? local : 4);
    return ok;
}

/* The runtime's padding (rt_padding.c) of the ELL SpMV: the plain kernel
 * with x := A'' and col := Q', A''[Q'[e]] = x[col[e]]. */
static int plan_padded_ell(const irr_workload *w, irr_variant *v)
{
    const irr_ref *r = &w->refs[0];
    size_t pn = w->bufs[r->p].bytes / 4, eb = r->ref.elem_bytes;
    const int32_t *p = w->bufs[r->p].host;
    int64_t *idx = irr_alloc_n(pn, sizeof *idx);
    for (size_t i = 0; idx && i < pn; i++)
        idx[i] = p[i];
    dl_padding_slots pl;
    unsigned E = SEGMENT / eb ? (unsigned)(SEGMENT / eb) : 1;
    if (!idx || dl_padding_slots_build(idx, pn, 0, &r->range, NULL, WARP, E,
                                       &pl) != DL_SUCCESS) {
        free(idx);
        return 0;
    }
    free(idx);
    irr_variant_derive(w, w->plain, v);
    int32_t *q = irr_alloc_n(pn, sizeof *q);
    v->cidx = irr_alloc_n(pn, sizeof *v->cidx);
    void *app = copy_slots(&w->bufs[r->a], eb, pl.source, pl.slots);
    for (size_t i = 0; q && v->cidx && i < pn; i++)
        q[i] = v->cidx[i] = (int32_t)pl.slot[i];
    v->ccount = pn;
    v->data_bytes = pl.slots * eb;
    v->index_bytes = pn * 4; /* Q' (E stays on the host here) */
    dl_padding_slots_free(&pl);
    if (!q || !v->cidx || !app) {
        free(q);
        free(app);
        return 0;
    }
    int moved[IRR_MAX_BUFS];
    for (int i = 0; i < w->nbufs; i++)
        moved[i] = i;
    moved[r->a] = irr_variant_upload(v, app, v->data_bytes);
    moved[r->p] = irr_variant_upload(v, q, pn * 4);
    for (int i = 0; i < w->nplain; i++) {
        int b = w->plain_args[i].buf;
        irr_redirect_arg(&v->w, b >= 0 ? moved[b] : b, w->plain_args[i].value);
    }
    return 1;
}

int irr_plan_padding(const irr_workload *w, irr_variant *v)
{
    if (!strcmp(w->plain, "spmv_ell") && w->nrefs == 1)
        return plan_padded_ell(w, v);
    if (strcmp(w->plain, "records_pair")) {
        v->why = "padding moves each entry as a job: it applies to one "
                 "entry per work-item (the records)";
        return 1;
    }
    const irr_ref *r = &w->refs[0];
    const int32_t *p = w->bufs[r->p].host;
    size_t T = w->threads, eb = r->ref.elem_bytes;
    int64_t *elem = irr_alloc_n(T, sizeof *elem);
    for (size_t t = 0; elem && t < T; t++)
        elem[t] = p[t];
    dl_padding_plan pl;
    unsigned E = SEGMENT / eb ? (unsigned)(SEGMENT / eb) : 1;
    if (!elem || dl_padding_plan_build(elem, T, WARP, E, &pl) != DL_SUCCESS) {
        free(elem);
        return 0;
    }
    free(elem);
    irr_variant_derive(w, "records_pair_pad", v);
    int32_t *job = int32_of(pl.job, T), *slot = int32_of(pl.slot, T);
    void *app = copy_slots(&w->bufs[r->a], eb, pl.source, pl.slots);
    v->data_bytes = pl.slots * eb;
    v->index_bytes = 2 * T * 4;
    v->cidx = int32_of(pl.slot, T);
    v->ccount = T;
    dl_padding_plan_free(&pl);
    int ok = job && slot && app && v->cidx;
    const int s[3] = {irr_variant_upload(v, job, T * 4),
                      irr_variant_upload(v, slot, T * 4),
                      irr_variant_upload(v, app, v->data_bytes)};
    /* records_pair's args: rec, p, q, out, n. */
    const irr_arg *pa = w->plain_args;
    for (int i = 0; i < 3; i++)
        irr_redirect_arg(&v->w, s[i], 0);
    irr_redirect_arg(&v->w, pa[0].buf, 0);
    for (int i = 2; i < 5; i++)
        irr_redirect_arg(&v->w, pa[i].buf, pa[i].value);
    return ok;
}
