/* rt_indirect_rows.c - DL_COALESCING and the tuner's prediction for a
 * reference in a row-bounded loop (CSR): work-item t reads P[k] + c for k
 * from B[lo(t)] to E[hi(t)] - 1.  Which entries of P that is only the
 * bounds array's contents say, so the job reads the bounds the launch
 * uses and all of P, or a sample's first RT_SAMPLE_ENTRIES entries of it
 * (P's read waits on the bounds' read), and the count walks each warp's
 * rows step by step (dl_coalesce_count_rows). */
#include "rt_indirect.h"
#include "rt_indirect_count.h"

#include <stdlib.h>

/* How many of the first `threads` work-items have both bounds inside the
 * array's `entries`: the others (a range rounded up past the last row,
 * which the kernel must guard) are left out, as inactive lanes.  Then
 * the entries [*first, *first + *count) they read; or why not. */
static const char *bounds_window(const dl_annot_rows_range *r, size_t *threads,
                                 size_t entries, size_t *first, size_t *count)
{
    int64_t lo = INT64_MAX, hi = -1;
    for (int i = 0; i < 2; i++) {
        if (r->base[i] < 0 || r->stride[i] < 0)
            return "a row's bound decreases or starts before its array";
        if ((uint64_t)r->base[i] >= entries)
            return "the rows' bounds lie beyond the end of their array";
        if (r->stride[i] > 0) {
            uint64_t fit =
                (entries - 1 - (uint64_t)r->base[i]) / (uint64_t)r->stride[i] +
                1;
            *threads = fit < *threads ? (size_t)fit : *threads;
        }
    }
    for (int i = 0; i < 2; i++) {
        int64_t last = r->base[i] + ((int64_t)*threads - 1) * r->stride[i];
        lo = r->base[i] < lo ? r->base[i] : lo;
        hi = last > hi ? last : hi;
    }
    *first = (size_t)lo;
    *count = (size_t)(hi - lo + 1);
    return NULL;
}

rt_job *rt_rows_job(const launch_call *c, const rt_kernel *k,
                    const dl_annot_indirect *r, size_t p_bytes, size_t sample,
                    cl_mem *bounds, const char **why)
{
    dl_annot_rows_range range;
    size_t b_bytes = 0, first = 0, count = 0;
    if (r->rows[0].array != r->rows[1].array) {
        *why = "the rows' bounds are in two arrays";
        return NULL;
    }
    if (rt_indirect_rows_eval(c, k, r, &range) != DL_SUCCESS) {
        *why = dl_last_error();
        return NULL;
    }
    size_t threads = sample && sample < c->global[0] ? sample : c->global[0];
    size_t bsz = dl_int_type_size(r->rows[0].type);
    size_t isz = dl_int_type_size(r->via_type);
    *why = rt_indirect_buffer(k, r->rows[0].array, bounds, &b_bytes);
    if (!*why && (!threads || p_bytes < isz))
        *why = "the launch reads no entry of the index buffer";
    if (!*why)
        *why = bounds_window(&range, &threads, b_bytes / bsz, &first, &count);
    if (*why)
        return NULL;
    /* A sample reads P from its start, at most RT_SAMPLE_ENTRIES: the
     * sampled rows' entries beyond are inactive lanes (the graph loops'
     * pagerank: P 32 MB, its first 16,384 rows' entries within 1 MB). */
    size_t entries = p_bytes / isz;
    if (sample && entries > RT_SAMPLE_ENTRIES)
        entries = RT_SAMPLE_ENTRIES;
    rt_job *j = calloc(1, sizeof *j);
    if (j) {
        j->host = malloc(entries * isz);
        j->bounds = malloc(count * bsz);
    }
    if (!j || !j->host || !j->bounds) {
        if (j)
            free(j->host), free(j->bounds);
        free(j);
        *why = "out of host memory";
        return NULL;
    }
    j->ref = (dl_coalesce_ref){r->elem_size, r->field_offset, r->field_size,
                               range.offset};
    j->type = r->via_type;
    j->first = 0;
    j->count = entries;
    j->rows = 1;
    j->btype = r->rows[0].type;
    j->bfirst = first;
    j->bcount = count;
    j->threads = threads;
    for (int i = 0; i < 2; i++) {
        j->rbase[i] = range.base[i] - (int64_t)first;
        j->rstride[i] = range.stride[i];
    }
    return j;
}

/* Bound i of work-item t, from the bounds read. */
static int64_t bound(const rt_job *j, int i, size_t t)
{
    size_t bsz = dl_int_type_size(j->btype);
    size_t e = (size_t)(j->rbase[i] + (int64_t)t * j->rstride[i]);
    int64_t v;
    if (dl_int_decode((const char *)j->bounds + e * bsz, bsz, j->btype, &v) !=
        DL_SUCCESS)
        v = -1; /* a ulong beyond INT64_MAX: no row */
    return v;
}

dl_status rt_rows_count(const rt_job *j, const void *entries, unsigned bytes,
                        dl_coalesce_counts *c)
{
    int64_t *begin = malloc(2 * (j->threads ? j->threads : 1) * sizeof *begin);
    DL_RETURN_ERROR_ON(!begin, DL_OUT_OF_MEMORY, "out of host memory");
    int64_t *end = begin + j->threads;
    for (size_t t = 0; t < j->threads; t++) {
        begin[t] = bound(j, 0, t);
        end[t] = bound(j, 1, t);
    }
    dl_coalesce_rows rows = {j->threads, begin, end, 8};
    dl_status st = dl_coalesce_count_rows(&j->geometry, &j->ref, &rows, entries,
                                          j->count, bytes, c);
    free(begin);
    return st;
}
