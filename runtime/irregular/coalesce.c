/* coalesce.c - counts the memory transactions of A[P[e] + c]: per warp
 * (W consecutive work-items) and step, the distinct S-byte segments its
 * active lanes touch, in A as it is (before) and in the duplication layout
 * A'[e] = A[P[e] + c] (after).  Exact: every lane's bytes are mapped to
 * segments and a segment set counts the distinct ones. */
#include "coalesce.h"
#include "error.h"
#include "segset.h"
#include "warps.h"

#include <stdlib.h>
#include <string.h>

/* The validated parameters of one count. */
typedef struct count_job {
    int64_t segment;     /* S */
    int64_t elem;        /* element bytes */
    int64_t field_off;   /* first byte read in the element */
    int64_t field_bytes; /* bytes read (>= 1) */
    long long offset;    /* c */
    const void *index;
    unsigned index_bytes;
} count_job;

/* Floor division: negative addresses fall in negative segments. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* Adds the segments of the field of element `element` to the set. */
static int add_element(const count_job *job, dl_segset *set, int64_t element)
{
    int64_t first;
    if (__builtin_mul_overflow(element, job->elem, &first) ||
        __builtin_add_overflow(first, job->field_off, &first) ||
        first > INT64_MAX - job->field_bytes)
        return -1;
    int64_t lo = floor_div(first, job->segment);
    int64_t hi = floor_div(first + job->field_bytes - 1, job->segment);
    for (int64_t s = lo; s <= hi; s++)
        dl_segset_add(set, s);
    return 0;
}

static dl_status address_overflow(long long element)
{
    return dl_fail(DL_INVALID_ARGUMENT,
                   "coalescing: the address of element %lld does not fit "
                   "64 bits",
                   element);
}

/* What the walk of one count carries from access to access. */
typedef struct count_walk {
    const count_job *job;
    dl_segset set;
    dl_coalesce_counts *out;
} count_walk;

/* Counts one warp-access of the lanes whose entries are in `lanes`
 * (a dl_warp_visit). */
static dl_status count_access(void *ctx, const size_t *lanes, size_t n)
{
    count_walk *walk = ctx;
    const count_job *job = walk->job;
    dl_segset *set = &walk->set;
    dl_coalesce_counts *out = walk->out;
    long long element = 0;
    dl_segset_clear(set);
    for (size_t i = 0; i < n; i++) {
        long long p = dl_index_at(job->index, job->index_bytes, lanes[i]);
        if (__builtin_add_overflow(p, job->offset, &element) ||
            add_element(job, set, element) != 0)
            return address_overflow(p);
    }
    out->before += set->count;
    dl_segset_clear(set);
    for (size_t i = 0; i < n; i++)
        if (lanes[i] > INT64_MAX || add_element(job, set, (int64_t)lanes[i]))
            return address_overflow((long long)lanes[i]);
    out->after += set->count;
    out->accesses++;
    return DL_SUCCESS;
}

static dl_status check_params(const dl_coalesce_geometry *g,
                              const dl_coalesce_ref *ref, const void *index,
                              size_t index_count, unsigned index_bytes)
{
    DL_RETURN_ERROR_ON(g->simd_width == 0 || g->segment_bytes == 0,
                       DL_INVALID_ARGUMENT,
                       "coalescing: W and S must be at least 1 (W=%u S=%u)",
                       g->simd_width, g->segment_bytes);
    DL_RETURN_ERROR_ON(ref->elem_bytes == 0 || ref->elem_bytes > INT64_MAX,
                       DL_INVALID_ARGUMENT, "coalescing: element size %zu",
                       ref->elem_bytes);
    size_t fb = ref->field_bytes ? ref->field_bytes : ref->elem_bytes;
    DL_RETURN_ERROR_ON(ref->field_offset > ref->elem_bytes ||
                           fb > ref->elem_bytes - ref->field_offset,
                       DL_INVALID_ARGUMENT,
                       "coalescing: field of %zu bytes at %zu outside the "
                       "%zu-byte element",
                       fb, ref->field_offset, ref->elem_bytes);
    DL_RETURN_ERROR_ON(
        index_bytes != 4 && index_bytes != 8, DL_INVALID_ARGUMENT,
        "coalescing: index entries of %u bytes (4 or 8)", index_bytes);
    DL_RETURN_ERROR_ON(!index && index_count, DL_INVALID_ARGUMENT,
                       "coalescing: no index array");
    return DL_SUCCESS;
}

static count_job make_job(const dl_coalesce_geometry *g,
                          const dl_coalesce_ref *ref, const void *index,
                          unsigned index_bytes)
{
    count_job job = {
        .segment = g->segment_bytes,
        .elem = (int64_t)ref->elem_bytes,
        .field_off = (int64_t)ref->field_offset,
        .field_bytes =
            (int64_t)(ref->field_bytes ? ref->field_bytes : ref->elem_bytes),
        .offset = ref->offset,
        .index = index,
        .index_bytes = index_bytes,
    };
    return job;
}

/* Distinct segments one warp-access can touch: W lanes, each spanning
 * at most (field - 1) / S + 2 segments. */
static int set_capacity(const count_job *job, unsigned w, size_t *cap)
{
    size_t per_lane = (size_t)((job->field_bytes - 1) / job->segment) + 2;
    return __builtin_mul_overflow(per_lane, (size_t)w, cap) ? -1 : 0;
}

/* Counts the warp-accesses of a range (exactly one of range and rows). */
static dl_status count_walked(const dl_coalesce_geometry *geometry,
                              const dl_coalesce_ref *ref,
                              const dl_coalesce_range *range,
                              const dl_coalesce_rows *rows, const void *index,
                              size_t index_count, unsigned index_bytes,
                              dl_coalesce_counts *out)
{
    DL_RETURN_ERROR_ON(!geometry || !ref || !(range || rows) || !out,
                       DL_INVALID_ARGUMENT, "coalescing: NULL argument");
    DL_RETURN_IF_FAIL(
        check_params(geometry, ref, index, index_count, index_bytes));
    memset(out, 0, sizeof *out);
    count_job job = make_job(geometry, ref, index, index_bytes);
    count_walk walk = {.job = &job, .out = out};
    size_t cap;
    if (set_capacity(&job, geometry->simd_width, &cap) ||
        dl_segset_init(&walk.set, cap) != 0)
        return dl_fail(DL_OUT_OF_MEMORY,
                       "coalescing: no memory for a "
                       "warp of %u lanes",
                       geometry->simd_width);
    dl_status st =
        range ? dl_warp_walk(range, index_count, geometry->simd_width,
                             count_access, &walk)
              : dl_warp_walk_rows(rows, index_count, geometry->simd_width,
                                  count_access, &walk);
    dl_segset_free(&walk.set);
    return st;
}

dl_status dl_coalesce_count(const dl_coalesce_geometry *geometry,
                            const dl_coalesce_ref *ref,
                            const dl_coalesce_range *range, const void *index,
                            size_t index_count, unsigned index_bytes,
                            dl_coalesce_counts *out)
{
    DL_RETURN_ERROR_ON(!range, DL_INVALID_ARGUMENT,
                       "coalescing: NULL argument");
    return count_walked(geometry, ref, range, NULL, index, index_count,
                        index_bytes, out);
}

dl_status dl_coalesce_count_rows(const dl_coalesce_geometry *geometry,
                                 const dl_coalesce_ref *ref,
                                 const dl_coalesce_rows *rows,
                                 const void *index, size_t index_count,
                                 unsigned index_bytes, dl_coalesce_counts *out)
{
    DL_RETURN_ERROR_ON(!rows || (rows->threads && (!rows->begin || !rows->end)),
                       DL_INVALID_ARGUMENT,
                       "coalescing: a row-bounded loop without its bounds");
    DL_RETURN_ERROR_ON(
        rows->bound_bytes != 4 && rows->bound_bytes != 8, DL_INVALID_ARGUMENT,
        "coalescing: row bounds of %u bytes (4 or 8)", rows->bound_bytes);
    return count_walked(geometry, ref, NULL, rows, index, index_count,
                        index_bytes, out);
}
