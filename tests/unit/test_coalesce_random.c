/* test_coalesce_random.c - the coalescing analyser (runtime/irregular/)
 * against a naive count written from the definition, on random geometry,
 * elements, fields, offsets, ranges and index arrays of 4 and 8 bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coalesce.h"
#include "dl_test.h"

/* The definition, spelled out slowly: 128-bit addresses, a linear list
 * of the distinct segments of each warp-access. */
typedef struct naive_seen {
    __int128 seg[4096];
    size_t n;
} naive_seen;

static __int128 floor_div128(__int128 x, __int128 y)
{
    __int128 q = x / y;
    return (x % y != 0 && x < 0) ? q - 1 : q;
}

static void naive_add(naive_seen *seen, __int128 first, __int128 bytes,
                      unsigned s)
{
    for (__int128 x = floor_div128(first, s);
         x <= floor_div128(first + bytes - 1, s); x++) {
        size_t i = 0;
        while (i < seen->n && seen->seg[i] != x)
            i++;
        if (i == seen->n)
            seen->seg[seen->n++] = x;
    }
}

static dl_coalesce_counts naive_count(dl_coalesce_geometry g,
                                      dl_coalesce_ref ref, dl_coalesce_range r,
                                      const int64_t *p, size_t n)
{
    static naive_seen before, after;
    dl_coalesce_counts out = {0, 0, 0};
    __int128 fb = ref.field_bytes ? ref.field_bytes : ref.elem_bytes;
    for (size_t t0 = 0; t0 < r.threads; t0 += g.simd_width)
        for (size_t j = 0; j < r.steps; j++) {
            before.n = after.n = 0;
            for (size_t t = t0; t < t0 + g.simd_width && t < r.threads; t++) {
                __int128 e = (__int128)r.base + (__int128)t * r.t_stride +
                             (__int128)j * r.j_stride;
                if (e >= (__int128)n)
                    continue;
                __int128 elem = (__int128)p[(size_t)e] + ref.offset;
                naive_add(&before, elem * ref.elem_bytes + ref.field_offset, fb,
                          g.segment_bytes);
                naive_add(&after, e * ref.elem_bytes + ref.field_offset, fb,
                          g.segment_bytes);
            }
            out.accesses += after.n > 0;
            out.before += before.n;
            out.after += after.n;
        }
    return out;
}

/* A row-bounded loop, from its definition: at step j, lane t reads
 * P[begin[t] + j] while j < end[t] - begin[t] and the entry is in P. */
static dl_coalesce_counts naive_rows(dl_coalesce_geometry g,
                                     dl_coalesce_ref ref, size_t threads,
                                     const int64_t *begin, const int64_t *end,
                                     const int64_t *p, size_t n)
{
    static naive_seen before, after;
    dl_coalesce_counts out = {0, 0, 0};
    __int128 fb = ref.field_bytes ? ref.field_bytes : ref.elem_bytes;
    int64_t longest = 0;
    for (size_t t = 0; t < threads; t++)
        longest = end[t] - begin[t] > longest ? end[t] - begin[t] : longest;
    for (size_t t0 = 0; t0 < threads; t0 += g.simd_width)
        for (int64_t j = 0; j < longest; j++) {
            before.n = after.n = 0;
            for (size_t t = t0; t < t0 + g.simd_width && t < threads; t++) {
                __int128 e = (__int128)begin[t] + j;
                if (j >= end[t] - begin[t] || begin[t] < 0 || e >= (__int128)n)
                    continue;
                __int128 elem = (__int128)p[(size_t)e] + ref.offset;
                naive_add(&before, elem * ref.elem_bytes + ref.field_offset, fb,
                          g.segment_bytes);
                naive_add(&after, e * ref.elem_bytes + ref.field_offset, fb,
                          g.segment_bytes);
            }
            out.accesses += after.n > 0;
            out.before += before.n;
            out.after += after.n;
        }
    return out;
}

static dl_coalesce_ref random_ref(void)
{
    dl_coalesce_ref ref;
    ref.elem_bytes = dl_test_range(1, 40);
    ref.field_offset = dl_test_range(0, ref.elem_bytes - 1);
    ref.field_bytes = dl_test_range(0, ref.elem_bytes - ref.field_offset);
    if (ref.field_bytes == 0)
        ref.field_offset = 0;
    ref.offset = (long long)dl_test_range(0, 20) - 10;
    return ref;
}

static dl_coalesce_range random_range(void)
{
    dl_coalesce_range r;
    r.threads = dl_test_range(0, 300);
    r.steps = dl_test_range(0, 3);
    r.base = dl_test_range(0, 10);
    r.t_stride = dl_test_range(0, 3);
    r.j_stride = dl_test_range(0, 5);
    return r;
}

/* One random case, with 4- or 8-byte entries holding the same values. */
static void random_case(void)
{
    static int64_t p64[400];
    static int32_t p32[400];
    size_t n = dl_test_range(0, 400);
    size_t span = dl_test_range(1, 2000);
    for (size_t i = 0; i < n; i++)
        p32[i] = (int32_t)(p64[i] = (int64_t)dl_test_range(0, span) - 5);
    dl_coalesce_geometry g = {(unsigned)dl_test_range(1, 40),
                              (unsigned)dl_test_range(1, 256)};
    dl_coalesce_ref ref = random_ref();
    dl_coalesce_range r = random_range();
    dl_coalesce_counts want = naive_count(g, ref, r, p64, n), got;
    unsigned bytes = dl_test_range(0, 1) ? 8 : 4;
    dl_status st = dl_coalesce_count(
        &g, &ref, &r, bytes == 8 ? (void *)p64 : (void *)p32, n, bytes, &got);
    if (st != DL_SUCCESS || memcmp(&got, &want, sizeof got) != 0)
        fail_msg(
            "W=%u S=%u elem %zu field %zu+%zu c %lld range %zu %zu "
            "%zu %zu %zu, %zu entries: got %llu %llu %llu, want %llu "
            "%llu %llu",
            g.simd_width, g.segment_bytes, ref.elem_bytes, ref.field_offset,
            ref.field_bytes, ref.offset, r.threads, r.steps, r.base, r.t_stride,
            r.j_stride, n, (unsigned long long)got.accesses,
            (unsigned long long)got.before, (unsigned long long)got.after,
            (unsigned long long)want.accesses, (unsigned long long)want.before,
            (unsigned long long)want.after);
}

/* A random CSR-like loop: rows of 0 to 12 entries from a row pointer
 * (begin = rowptr, end = rowptr + 1), sometimes with a row reversed or
 * starting before P, over 4- or 8-byte bounds. */
static void random_rows_case(void)
{
    static int64_t p64[400], b64[302];
    static int32_t p32[400], b32[302];
    size_t n = dl_test_range(0, 400), threads = dl_test_range(0, 300);
    size_t span = dl_test_range(1, 2000);
    for (size_t i = 0; i < n; i++)
        p32[i] = (int32_t)(p64[i] = (int64_t)dl_test_range(0, span) - 5);
    b64[0] = (int64_t)dl_test_range(0, 20) - 2;
    for (size_t t = 0; t < threads; t++)
        b64[t + 1] = b64[t] + (int64_t)dl_test_range(0, 12) -
                     (dl_test_range(0, 30) == 0 ? 15 : 0);
    for (size_t t = 0; t <= threads; t++)
        b32[t] = (int32_t)b64[t];
    dl_coalesce_geometry g = {(unsigned)dl_test_range(1, 40),
                              (unsigned)dl_test_range(1, 256)};
    dl_coalesce_ref ref = random_ref();
    dl_coalesce_counts want = naive_rows(g, ref, threads, b64, b64 + 1, p64, n),
                       got;
    unsigned bytes = dl_test_range(0, 1) ? 8 : 4;
    unsigned bb = dl_test_range(0, 1) ? 8 : 4;
    dl_coalesce_rows rows = {threads, bb == 8 ? (void *)b64 : (void *)b32,
                             bb == 8 ? (void *)(b64 + 1) : (void *)(b32 + 1),
                             bb};
    dl_status st = dl_coalesce_count_rows(
        &g, &ref, &rows, bytes == 8 ? (void *)p64 : (void *)p32, n, bytes,
        &got);
    if (st != DL_SUCCESS || memcmp(&got, &want, sizeof got) != 0)
        fail_msg(
            "rows: W=%u S=%u elem %zu, %zu rows, %zu entries: got %llu "
            "%llu %llu, want %llu %llu %llu",
            g.simd_width, g.segment_bytes, ref.elem_bytes, threads, n,
            (unsigned long long)got.accesses, (unsigned long long)got.before,
            (unsigned long long)got.after, (unsigned long long)want.accesses,
            (unsigned long long)want.before, (unsigned long long)want.after);
}

static void test_rows_against_naive(void **state)
{
    (void)state;
    for (int i = 0; i < 2000; i++)
        random_rows_case();
}

static void test_random_against_naive(void **state)
{
    (void)state;
    for (int i = 0; i < 3000; i++)
        random_case();
}

int main(void)
{
    dl_test_seed("coalesce_random");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_naive),
        cmocka_unit_test(test_rows_against_naive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
