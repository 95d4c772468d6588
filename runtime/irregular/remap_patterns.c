/* remap_patterns.c - profiling a reference's warp-accesses for remapping:
 * two walks of the range (warps.h), one marking the elements read, one
 * collecting the sampled accesses' patterns, repeats merged through a
 * hash table of pattern contents. */
#include "remap_patterns.h"
#include "error.h"
#include "hash.h"
#include "warps.h"

#include <stdlib.h>
#include <string.h>

/* A growing array with room for item n (items of `size` bytes). */
static int grow(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t want = *cap ? *cap : 64;
    while (want <= n)
        want *= 2;
    void *p = realloc(*items, want * size);
    if (!p)
        return -1;
    *items = p;
    *cap = want;
    return 0;
}

/* The element lane entry e reads, or -1 outside A. */
static long long element_at(const void *index, unsigned index_bytes,
                            long long offset, size_t a_count, size_t e)
{
    long long x;
    if (__builtin_add_overflow(dl_index_at(index, index_bytes, e), offset,
                               &x) ||
        x < 0 || (unsigned long long)x >= a_count)
        return -1;
    return x;
}

typedef struct profile_walk {
    const void *index;
    unsigned index_bytes;
    long long offset;
    size_t a_count;
    const dl_remap_params *params;
    dl_remap_patterns *out;
    uint32_t *lane; /* scratch: one access's vertices */
    size_t pin_cap, pattern_cap;
    uint32_t *slots;  /* hash table of pattern numbers + 1, 0 empty */
    uint64_t *hashes; /* per pattern */
    size_t slot_mask;
} profile_walk;

static dl_status mark_access(void *ctx, const size_t *lanes, size_t n)
{
    profile_walk *w = ctx;
    for (size_t i = 0; i < n; i++) {
        long long x = element_at(w->index, w->index_bytes, w->offset,
                                 w->a_count, lanes[i]);
        if (x >= 0)
            w->out->vertex_of[x] = 0;
    }
    return DL_SUCCESS;
}

/* Numbers the marked elements in increasing order. */
static dl_status number_vertices(dl_remap_patterns *p, size_t a_count)
{
    size_t v = 0;
    for (size_t x = 0; x < a_count; x++)
        if (p->vertex_of[x] != DL_REMAP_NONE) {
            DL_RETURN_ERROR_ON(v >= INT32_MAX, DL_UNSUPPORTED,
                               "remap: more than %d elements read", INT32_MAX);
            p->vertex_of[x] = (uint32_t)v++;
        }
    p->elements = v;
    return DL_SUCCESS;
}

/* A well-mixed 64-bit value of h (the sample's draw). */
static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static int sampled(const profile_walk *w, uint64_t ordinal)
{
    double f = w->params->sample;
    if (f <= 0 || f >= 1)
        return 1;
    uint64_t key[2] = {w->params->seed, ordinal};
    double u = (double)(mix(dl_hash(DL_HASH_SEED, key, sizeof key)) >> 11) /
               9007199254740992.0;
    return u < f;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The access's distinct vertices into w->lane, sorted; their number. */
static size_t access_pattern(profile_walk *w, const size_t *lanes, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        long long x = element_at(w->index, w->index_bytes, w->offset,
                                 w->a_count, lanes[i]);
        if (x >= 0)
            w->lane[m++] = w->out->vertex_of[x];
    }
    qsort(w->lane, m, sizeof *w->lane, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (k == 0 || w->lane[i] != w->lane[k - 1])
            w->lane[k++] = w->lane[i];
    return k;
}

/* Doubles the hash table and reinserts every pattern. */
static int rehash(profile_walk *w)
{
    size_t size = w->slot_mask ? 2 * (w->slot_mask + 1) : 1024;
    uint32_t *slots = calloc(size, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t p = 0; p < w->out->count; p++) {
        size_t s = w->hashes[p] & (size - 1);
        while (slots[s])
            s = (s + 1) & (size - 1);
        slots[s] = (uint32_t)p + 1;
    }
    free(w->slots);
    w->slots = slots;
    w->slot_mask = size - 1;
    return 0;
}

static int same_pattern(const dl_remap_patterns *p, size_t q,
                        const uint32_t *pins, size_t m)
{
    return p->start[q + 1] - p->start[q] == m &&
           memcmp(&p->pins[p->start[q]], pins, m * sizeof *pins) == 0;
}

/* Room for pattern n: its weight, hash and end offset. */
static int room_for_pattern(profile_walk *w, size_t n)
{
    dl_remap_patterns *p = w->out;
    if (n < w->pattern_cap)
        return 0;
    size_t want = w->pattern_cap ? 2 * w->pattern_cap : 64;
    size_t *start = realloc(p->start, (want + 1) * sizeof *start);
    if (start)
        p->start = start;
    uint32_t *weight = realloc(p->weight, want * sizeof *weight);
    if (weight)
        p->weight = weight;
    uint64_t *hashes = realloc(w->hashes, want * sizeof *hashes);
    if (hashes)
        w->hashes = hashes;
    if (!start || !weight || !hashes)
        return -1;
    w->pattern_cap = want;
    return 0;
}

/* Appends pattern w->lane[0 .. m) as a new one with weight 1, in hash
 * table slot `slot`. */
static dl_status append_pattern(profile_walk *w, size_t m, uint64_t h,
                                size_t slot)
{
    dl_remap_patterns *p = w->out;
    size_t n = p->count, end = p->start[n];
    DL_RETURN_ERROR_ON(n >= INT32_MAX - p->elements || end > INT32_MAX - m,
                       DL_UNSUPPORTED,
                       "remap: more than %d patterns or "
                       "pins",
                       INT32_MAX);
    if (grow((void **)&p->pins, &w->pin_cap, end + m - 1, sizeof *p->pins) ||
        room_for_pattern(w, n))
        return dl_fail(DL_OUT_OF_MEMORY,
                       "remap: no memory for %zu "
                       "patterns",
                       n + 1);
    memcpy(&p->pins[end], w->lane, m * sizeof *w->lane);
    p->start[n + 1] = end + m;
    p->weight[n] = 1;
    w->hashes[n] = h;
    w->slots[slot] = (uint32_t)n + 1;
    p->count++;
    return DL_SUCCESS;
}

/* Counts pattern w->lane[0 .. m): a repeat adds to its weight. */
static dl_status add_pattern(profile_walk *w, size_t m)
{
    if (2 * (w->out->count + 1) > w->slot_mask && rehash(w) != 0)
        return dl_fail(DL_OUT_OF_MEMORY, "remap: no memory for the "
                                         "pattern table");
    uint64_t h = mix(dl_hash(DL_HASH_SEED, w->lane, m * sizeof *w->lane));
    size_t s = h & w->slot_mask;
    for (; w->slots[s]; s = (s + 1) & w->slot_mask) {
        size_t q = w->slots[s] - 1;
        if (w->hashes[q] == h && same_pattern(w->out, q, w->lane, m)) {
            /* Below 2^31: METIS's idx_t may have 32 bits. */
            if (w->out->weight[q] < INT32_MAX)
                w->out->weight[q]++;
            return DL_SUCCESS;
        }
    }
    return append_pattern(w, m, h, s);
}

static dl_status collect_access(void *ctx, const size_t *lanes, size_t n)
{
    profile_walk *w = ctx;
    uint64_t ordinal = w->out->accesses++;
    if (!sampled(w, ordinal))
        return DL_SUCCESS;
    size_t m = access_pattern(w, lanes, n);
    unsigned least = w->params->min_pattern > 2 ? w->params->min_pattern : 2;
    if (m < least)
        return DL_SUCCESS;
    w->out->sampled++;
    return add_pattern(w, m);
}

static dl_status profile_walks(profile_walk *w, const dl_coalesce_range *r,
                               size_t index_count, unsigned simd_width)
{
    DL_RETURN_IF_FAIL(dl_warp_walk(r, index_count, simd_width, mark_access, w));
    DL_RETURN_IF_FAIL(number_vertices(w->out, w->a_count));
    return dl_warp_walk(r, index_count, simd_width, collect_access, w);
}

dl_status dl_remap_profile(const dl_coalesce_geometry *geometry,
                           const dl_coalesce_ref *ref,
                           const dl_coalesce_range *range, const void *index,
                           size_t index_count, unsigned index_bytes,
                           size_t a_count, const dl_remap_params *params,
                           dl_remap_patterns *out)
{
    memset(out, 0, sizeof *out);
    profile_walk w = {
        .index = index,
        .index_bytes = index_bytes,
        .offset = ref->offset,
        .a_count = a_count,
        .params = params,
        .out = out,
        .lane = malloc(geometry->simd_width * sizeof *w.lane),
    };
    out->vertex_of = malloc(a_count ? a_count * sizeof *out->vertex_of : 1);
    out->start = calloc(1, sizeof *out->start);
    dl_status st = DL_OUT_OF_MEMORY;
    if (!w.lane || !out->vertex_of || !out->start)
        dl_fail(st, "remap: no memory for the profile of %zu elements",
                a_count);
    else {
        memset(out->vertex_of, 0xff, a_count * sizeof *out->vertex_of);
        st = profile_walks(&w, range, index_count, geometry->simd_width);
    }
    free(w.lane);
    free(w.slots);
    free(w.hashes);
    if (st != DL_SUCCESS)
        dl_remap_patterns_free(out);
    return st;
}

void dl_remap_patterns_free(dl_remap_patterns *p)
{
    free(p->vertex_of);
    free(p->start);
    free(p->pins);
    free(p->weight);
    memset(p, 0, sizeof *p);
}

dl_status dl_remap_incidence_of(const dl_remap_patterns *p,
                                dl_remap_incidence *out)
{
    size_t pins = p->start[p->count];
    out->start = calloc(p->elements + 1, sizeof *out->start);
    out->pattern = malloc(pins ? pins * sizeof *out->pattern : 1);
    if (!out->start || !out->pattern) {
        dl_remap_incidence_free(out);
        return dl_fail(DL_OUT_OF_MEMORY, "remap: no memory for %zu pins", pins);
    }
    for (size_t i = 0; i < pins; i++)
        out->start[p->pins[i] + 1]++;
    for (size_t v = 0; v < p->elements; v++)
        out->start[v + 1] += out->start[v];
    /* Each vertex's run filled from its end, patterns taken last to
     * first: the runs come out in increasing pattern order, and start[v]
     * walks down to the run's first slot, where it belongs. */
    for (size_t v = 0; v < p->elements; v++)
        out->start[v] = out->start[v + 1];
    for (size_t q = p->count; q-- > 0;)
        for (size_t i = p->start[q]; i < p->start[q + 1]; i++)
            out->pattern[--out->start[p->pins[i]]] = (uint32_t)q;
    return DL_SUCCESS;
}

void dl_remap_incidence_free(dl_remap_incidence *inc)
{
    free(inc->start);
    free(inc->pattern);
    memset(inc, 0, sizeof *inc);
}
