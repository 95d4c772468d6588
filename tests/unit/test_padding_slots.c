/* test_padding_slots.c - padding for the program's own kernel
 * (runtime/irregular/padding_slots.c): on random index buffers read as an
 * ELL loop (column- and row-major) and one entry a work-item, the plan's
 * promises checked from the definitions: A''[Q'[e]] == A[P[e] + c] for
 * every entry, and no non-coalesced access (the analyser on Q' as the
 * redirected pattern: one transaction per warp-access where W <= E). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "freq_order.h"
#include "irregular_inputs.h"
#include "padding_slots.h"

/* A'' built from E as the device gather does: A[E[s]], zero outside A. */
static int32_t *gathered(const dl_padding_slots *p, const int32_t *a, size_t na)
{
    int32_t *out = malloc((p->slots ? p->slots : 1) * sizeof *out);
    assert_non_null(out);
    for (size_t s = 0; s < p->slots; s++)
        out[s] = p->source[s] >= 0 && (uint64_t)p->source[s] < na
                     ? a[p->source[s]]
                     : 0;
    return out;
}

static dl_coalesce_counts counted(const int64_t *idx, size_t entries,
                                  const dl_coalesce_range *range, unsigned w,
                                  unsigned e)
{
    dl_coalesce_geometry g = {w, e * 4};
    dl_coalesce_ref ref = {4, 0, 4, 0};
    dl_coalesce_counts c;
    assert_int_equal(dl_coalesce_count(&g, &ref, range, idx, entries, 8, &c),
                     DL_SUCCESS);
    return c;
}

/* The same, with work-item t running job job[t] (one step, one entry a
 * job): the entries in the order the work-items read them. */
static dl_coalesce_counts counted_jobs(const int64_t *idx, size_t entries,
                                       const dl_coalesce_range *range,
                                       const size_t *job, unsigned w,
                                       unsigned e)
{
    if (!job)
        return counted(idx, entries, range, w, e);
    int64_t *by_item = malloc(range->threads * sizeof *by_item);
    assert_non_null(by_item);
    for (size_t t = 0; t < range->threads; t++)
        by_item[t] = idx[range->base + job[t] * range->t_stride];
    dl_coalesce_range items = {range->threads, 1, 0, 1, 0};
    dl_coalesce_counts c = counted(by_item, range->threads, &items, w, e);
    free(by_item);
    return c;
}

/* Every promise of padding_slots.h for P = idx over `range`, work-item t
 * running job job[t] (NULL: t). */
static void check_jobs(const int64_t *idx, size_t entries, int64_t c,
                       const dl_coalesce_range *range, const size_t *job,
                       unsigned w, unsigned e, size_t na, int injective)
{
    dl_padding_slots p;
    assert_int_equal(
        dl_padding_slots_build(idx, entries, c, range, job, w, e, &p),
        DL_SUCCESS);
    int32_t *a = malloc(na * sizeof *a);
    assert_non_null(a);
    for (size_t i = 0; i < na; i++)
        a[i] = (int32_t)(i * 2654435761u);
    int32_t *a2 = gathered(&p, a, na);
    int64_t *q = malloc((entries ? entries : 1) * sizeof *q);
    assert_non_null(q);
    for (size_t i = 0; i < entries; i++) {
        assert_true(p.slot[i] < p.slots);
        assert_int_equal(p.source[p.slot[i]], idx[i] + c);
        assert_int_equal(a2[p.slot[i]], a[idx[i] + c]);
        q[i] = (int64_t)p.slot[i];
    }
    dl_coalesce_counts before = counted_jobs(idx, entries, range, job, w, e);
    dl_coalesce_counts after = counted_jobs(q, entries, range, job, w, e);
    assert_int_equal(after.accesses, before.accesses);
    if (injective && w <= e) /* zero non-coalesced accesses */
        assert_int_equal(after.before, after.accesses);
    assert_true(after.before <= before.before);
    size_t empty = 0;
    for (size_t s = 0; s < p.slots; s++)
        empty += p.source[s] == DL_SLOT_EMPTY;
    assert_int_equal(empty, p.empty);
    free(q);
    free(a2);
    free(a);
    dl_padding_slots_free(&p);
}

static void check(const int64_t *idx, size_t entries, int64_t c,
                  const dl_coalesce_range *range, unsigned w, unsigned e,
                  size_t na, int injective)
{
    check_jobs(idx, entries, c, range, NULL, w, e, na, injective);
}

/* ELL SpMV: N rows of K entries, column-major (entry j of row r at
 * j * N + r) and row-major (r * K + j), random columns. */
static void test_ell_random(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        size_t n = 200 + seed * 37, k = 1 + seed % 5, na = 50 + seed * 90;
        int64_t *idx = random_reads(n * k, na - 1, seed);
        assert_non_null(idx);
        dl_coalesce_range col = {n, k, 0, 1, n}, row = {n, k, 0, k, 1};
        check(idx, n * k, 1, &col, 32, 32, na, 1);
        check(idx, n * k, 0, &row, 32, 32, na, 1);
        check(idx, n * k, 0, &col, 8, 16, na, 1);
        check(idx, n * k, 0, &row, 32, 8, na, 1); /* W > E: spans */
        free(idx);
    }
}

/* One entry a work-item with a tail of entries no work-item reads, and a
 * range that reads every entry twice (t_stride 0 across steps). */
static void test_unread_and_shared(void **state)
{
    (void)state;
    int64_t *idx = random_reads(1000, 300, 7);
    assert_non_null(idx);
    dl_coalesce_range part = {700, 1, 0, 1, 0};
    check(idx, 1000, 0, &part, 32, 32, 300, 1);
    dl_coalesce_range twice = {500, 2, 0, 1, 0};
    check(idx, 1000, 0, &twice, 32, 32, 300, 0);
    dl_coalesce_range based = {400, 1, 100, 1, 0};
    check(idx, 1000, 0, &based, 16, 32, 300, 1);
    /* Elements spread far apart: ranked by sorting, not by a table. */
    for (size_t i = 0; i < 1000; i++)
        idx[i] = idx[i] % 50 * 200000;
    check(idx, 1000, 0, &part, 32, 32, 49 * 200000 + 1, 1);
    free(idx);
}

/* Scattered reads cost many transactions as written, one a warp-access
 * padded; each warp's copies share a segment with the next warp's. */
static void test_scatter_coalesced(void **state)
{
    (void)state;
    enum { N = 1024 };
    int64_t idx[N];
    for (size_t i = 0; i < N; i++)
        idx[i] = (int64_t)(i * 389 % N);
    dl_coalesce_range r = {N, 1, 0, 1, 0};
    check(idx, N, 0, &r, 32, 32, N, 1);
    dl_coalesce_counts c = counted(idx, N, &r, 32, 32);
    assert_true(c.before > c.accesses * 8);
    dl_padding_slots p;
    assert_int_equal(dl_padding_slots_build(idx, N, 0, &r, NULL, 32, 32, &p),
                     DL_SUCCESS);
    assert_int_equal(p.slots, N); /* distinct reads: no slot wasted */
    assert_int_equal(p.empty, 0);
    dl_padding_slots_free(&p);
}

/* The planners' inputs (docs/irregular.md, W = E = 32, 4-byte elements),
 * one entry a work-item in launch order: the work-items keep their jobs,
 * so only the reads a warp-access repeats, and copies a later warp finds
 * in the segment it shares, are saved; printed for the docs. */
static void report(const char *name, const int64_t *idx, size_t n, size_t na,
                   const size_t *job)
{
    dl_coalesce_range r = {n, 1, 0, 1, 0};
    check_jobs(idx, n, 0, &r, job, 32, 32, na, 1);
    dl_padding_slots p;
    assert_int_equal(dl_padding_slots_build(idx, n, 0, &r, job, 32, 32, &p),
                     DL_SUCCESS);
    int64_t *q = malloc(n * sizeof *q);
    assert_non_null(q);
    for (size_t i = 0; i < n; i++)
        q[i] = (int64_t)p.slot[i];
    dl_coalesce_counts before = counted(idx, n, &r, 32, 32);
    dl_coalesce_counts after = counted_jobs(q, n, &r, job, 32, 32);
    printf("%s%s: %zu reads, %llu transactions as written, %llu padded "
           "(%llu duplicated); A'' %zu slots (%zu empty) = %.1f%% of "
           "duplication's %zu\n",
           name, job ? ", frequency order" : ", launch order", n,
           (unsigned long long)before.before, (unsigned long long)after.before,
           (unsigned long long)before.after, p.slots, p.empty,
           100.0 * (double)p.slots / (double)n, n);
    assert_true(after.before <= before.after);
    if (job) /* at most half duplication's memory (docs/irregular.md) */
        assert_true(2 * p.slots <= n);
    free(q);
    dl_padding_slots_free(&p);
}

/* Both orders: launch order, and R from the frequency order. */
static void report_both(const char *name, const int64_t *idx, size_t n,
                        size_t na)
{
    report(name, idx, n, na, NULL);
    dl_freq_order o;
    assert_int_equal(dl_freq_order_build(idx, n, &o), DL_SUCCESS);
    report(name, idx, n, na, o.job);
    dl_freq_order_free(&o);
}

static void test_planners_inputs(void **state)
{
    (void)state;
    int64_t *r = random_reads(8 * 4096, 4096, 1);
    assert_non_null(r);
    report_both("random (8 reads per element)", r, 8 * 4096, 4096);
    free(r);
    size_t n;
    int64_t *s = stencil_reads(16, 2, &n);
    assert_non_null(s);
    report_both("shuffled 16^3 7-point stencil", s, n, 4096);
    free(s);
}

/* W = E = 4: warp 0 reads 0 1 2 (room for one more in its segment);
 * warp 1 reads 3 0 3 0: 3 fills the segment, where 0 already is, so
 * warp 1 stays on one segment (filling it must not make 0 "elsewhere"). */
static void test_fill_shared_segment(void **state)
{
    (void)state;
    const int64_t idx[8] = {0, 1, 2, 2, 3, 0, 3, 0};
    dl_coalesce_range r = {8, 1, 0, 1, 0};
    dl_padding_slots p;
    assert_int_equal(dl_padding_slots_build(idx, 8, 0, &r, NULL, 4, 4, &p),
                     DL_SUCCESS);
    assert_int_equal(p.slots, 4);
    assert_int_equal(p.slot[5], 0);
    assert_int_equal(p.slot[4], 3);
    dl_padding_slots_free(&p);
    check(idx, 8, 0, &r, 4, 4, 4, 1);
}

static void test_invalid(void **state)
{
    (void)state;
    int64_t idx[1] = {0};
    dl_coalesce_range r = {1, 1, 0, 1, 0};
    dl_padding_slots p;
    assert_int_equal(dl_padding_slots_build(idx, 1, 0, &r, NULL, 0, 4, &p),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_padding_slots_build(idx, 1, 0, &r, NULL, 4, 0, &p),
                     DL_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ell_random),
        cmocka_unit_test(test_unread_and_shared),
        cmocka_unit_test(test_scatter_coalesced),
        cmocka_unit_test(test_planners_inputs),
        cmocka_unit_test(test_fill_shared_segment),
        cmocka_unit_test(test_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
