/* test_job_swap.c - the job maps of runtime/irregular/job_swap.c: the
 * examples of 002 worked out by hand (whole warps per segment, the greedy
 * packing of the residual sets, a split set), R a permutation on every
 * input, fewer transactions on random and shuffled-stencil reads (the
 * analyser on elem[R[t]]), and the sort by trip count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "irregular_inputs.h"
#include "coalesce.h"
#include "job_swap.h"

static size_t *by_segment(const int64_t *elem, size_t n, unsigned w, unsigned e)
{
    size_t *job = malloc((n ? n : 1) * sizeof *job);
    assert_non_null(job);
    assert_int_equal(dl_job_swap_by_segment(elem, n, w, e, job), DL_SUCCESS);
    assert_true(is_permutation(job, n));
    return job;
}

static void expect_map(const size_t *job, const size_t *want, size_t n)
{
    for (size_t t = 0; t < n; t++)
        assert_int_equal(job[t], want[t]);
}

static uint64_t swapped_transactions(const int64_t *elem, const size_t *job,
                                     size_t n, unsigned w, unsigned e)
{
    int64_t *after = reads_after(elem, job, n);
    assert_non_null(after);
    uint64_t tx = transactions(after, n, w, e, NULL);
    free(after);
    return tx;
}

/* 002 section 3.2.4: A[Q[tid]] with Q = {0,1,2,5,2,5,6,7}, 4 elements per
 * segment, warps of 4.  Jobs 0 1 2 4 read segment 0, jobs 3 5 6 7
 * segment 1: one whole warp each, 4 -> 2 transactions. */
static void test_whole_warps(void **state)
{
    (void)state;
    const int64_t q[] = {0, 1, 2, 5, 2, 5, 6, 7};
    size_t *job = by_segment(q, 8, 4, 4);
    const size_t want[] = {0, 1, 2, 4, 3, 5, 6, 7};
    expect_map(job, want, 8);
    assert_int_equal(transactions(q, 8, 4, 4, NULL), 4);
    assert_int_equal(swapped_transactions(q, job, 8, 4, 4), 2);
    free(job);
}

/* Residual sets of 3, 2, 2 and 1 jobs (segments 0..3): the largest (0)
 * fills up with the smallest (3), then 1 with 2.  7 -> 4 transactions. */
static void test_residual_packing(void **state)
{
    (void)state;
    const int64_t elem[] = {0, 4, 8, 12, 1, 5, 9, 2};
    size_t *job = by_segment(elem, 8, 4, 4);
    const size_t want[] = {0, 4, 7, 3, 1, 5, 2, 6};
    expect_map(job, want, 8);
    assert_int_equal(transactions(elem, 8, 4, 4, NULL), 7);
    assert_int_equal(swapped_transactions(elem, job, 8, 4, 4), 4);
    free(job);
}

/* Sets of 3, 3 and 2 jobs: the 2 is split between the two warps. */
static void test_split(void **state)
{
    (void)state;
    const int64_t elem[] = {0, 1, 2, 4, 5, 6, 8, 9};
    size_t *job = by_segment(elem, 8, 4, 4);
    const size_t want[] = {0, 1, 2, 6, 3, 4, 5, 7};
    expect_map(job, want, 8);
    assert_int_equal(swapped_transactions(elem, job, 8, 4, 4), 4);
    free(job);
}

static void report(const char *name, const int64_t *elem, size_t n)
{
    size_t *job = by_segment(elem, n, 32, 32);
    uint64_t before = transactions(elem, n, 32, 32, NULL);
    uint64_t after = swapped_transactions(elem, job, n, 32, 32);
    printf("%s: W=32 E=32: %llu -> %llu transactions\n", name,
           (unsigned long long)before, (unsigned long long)after);
    assert_true(after < before);
    free(job);
}

static void test_random_and_stencil(void **state)
{
    (void)state;
    int64_t *r = random_reads(8 * 4096, 4096, 1);
    assert_non_null(r);
    report("random (8 reads per element)", r, 8 * 4096);
    free(r);
    size_t n;
    int64_t *s = stencil_reads(16, 2, &n);
    assert_non_null(s);
    report("shuffled 16^3 7-point stencil", s, n);
    free(s);
}

static void test_edges(void **state)
{
    (void)state;
    size_t *job = by_segment(NULL, 0, 4, 4);
    free(job);
    const int64_t one = -1; /* segment -1 */
    job = by_segment(&one, 1, 4, 4);
    assert_int_equal(job[0], 0);
    free(job);
    const int64_t same[] = {5, 5, 5, 5, 5, 5, 5};
    job = by_segment(same, 7, 4, 4); /* all the same: nothing moves */
    const size_t identity[] = {0, 1, 2, 3, 4, 5, 6};
    expect_map(job, identity, 7);
    free(job);
    /* Negative and extreme elements, a partial last warp, W = 1. */
    const int64_t odd[] = {INT64_MIN, -5, INT64_MAX, -4, 3, INT64_MIN, 0};
    for (unsigned w = 1; w <= 8; w++) {
        job = by_segment(odd, 7, w, 4);
        free(job);
    }
    size_t out[1];
    assert_int_equal(dl_job_swap_by_segment(odd, 1, 0, 4, out),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_job_swap_by_segment(odd, 1, 4, 0, out),
                     DL_INVALID_ARGUMENT);
}

/* Random shapes, W and E not multiples of each other, partial last
 * warps: R is a permutation (by_segment checks it). */
static void test_shapes(void **state)
{
    (void)state;
    for (unsigned w = 1; w <= 33; w += 4)
        for (unsigned e = 1; e <= 40; e += 13)
            for (size_t n = 0; n < 200; n += 17) {
                int64_t *elem = random_reads(n, 1 + n, w * 1000 + e + n);
                size_t *job = by_segment(elem, n, w, e);
                free(job);
                free(elem);
            }
}

/* Sum over warps of the longest trip count: the warps' running time. */
static uint64_t warp_time(const uint64_t *len, const size_t *job, size_t n,
                          size_t w)
{
    uint64_t total = 0;
    for (size_t t0 = 0; t0 < n; t0 += w) {
        uint64_t max = 0;
        for (size_t t = t0; t < n && t < t0 + w; t++)
            max = len[job ? job[t] : t] > max ? len[job ? job[t] : t] : max;
        total += max;
    }
    return total;
}

/* Longest first, ties by job: warps of 2 run 9 9 | 5 3 | 1, 23 -> 15. */
static void test_by_length(void **state)
{
    (void)state;
    const uint64_t len[] = {3, 9, 1, 9, 5};
    size_t job[5];
    assert_int_equal(dl_job_swap_by_length(len, 5, job), DL_SUCCESS);
    const size_t want[] = {1, 3, 4, 0, 2};
    expect_map(job, want, 5);
    assert_int_equal(warp_time(len, NULL, 5, 2), 23);
    assert_int_equal(warp_time(len, job, 5, 2), 15);

    const uint64_t big[] = {UINT64_MAX, 0, UINT64_MAX - 1, 0};
    assert_int_equal(dl_job_swap_by_length(big, 4, job), DL_SUCCESS);
    const size_t want_big[] = {0, 2, 1, 3};
    expect_map(job, want_big, 4);
    assert_int_equal(dl_job_swap_by_length(NULL, 0, NULL), DL_SUCCESS);
    assert_int_equal(dl_job_swap_by_length(len, 1, job), DL_SUCCESS);
    assert_int_equal(job[0], 0);
}

/* The warp steps: the test's own sum above, and the analyser's
 * warp-accesses of the row loop (rows of 1..40 entries: none empty),
 * before and after sorting, at W = 32 and 8. */
static void test_steps(void **state)
{
    (void)state;
    enum { ROWS = 1000 };
    static uint64_t len[ROWS];
    static int32_t begin[ROWS + 1];
    static size_t job[ROWS];
    uint32_t x = 7;
    for (size_t r = 0; r < ROWS; r++) {
        x = x * 1103515245u + 12345u;
        len[r] = 1 + (x >> 16) % 40;
        begin[r + 1] = begin[r] + (int32_t)len[r];
    }
    int32_t *col = calloc((size_t)begin[ROWS], sizeof *col);
    assert_non_null(col);
    assert_int_equal(dl_job_swap_by_length(len, ROWS, job), DL_SUCCESS);
    const unsigned widths[] = {32, 8};
    for (int w = 0; w < 2; w++) {
        dl_coalesce_geometry g = {widths[w], 128};
        dl_coalesce_ref ref = {4, 0, 4, 0};
        dl_coalesce_rows rows = {ROWS, begin, begin + 1, 4};
        dl_coalesce_counts c = {0, 0, 0};
        assert_int_equal(dl_coalesce_count_rows(&g, &ref, &rows, col,
                                                (size_t)begin[ROWS], 4, &c),
                         DL_SUCCESS);
        uint64_t before = dl_job_swap_steps(len, NULL, ROWS, widths[w]);
        uint64_t after = dl_job_swap_steps(len, job, ROWS, widths[w]);
        assert_int_equal(before, c.accesses);
        assert_int_equal(before, warp_time(len, NULL, ROWS, widths[w]));
        assert_int_equal(after, warp_time(len, job, ROWS, widths[w]));
        assert_true(after < before);
    }
    assert_int_equal(dl_job_swap_steps(len, NULL, ROWS, 0), 0);
    free(col);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_warps),
        cmocka_unit_test(test_residual_packing),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_random_and_stencil),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_by_length),
        cmocka_unit_test(test_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
