/* test_padding.c - the padding plan (runtime/irregular/padding.c): Figure
 * 4 (c) of 000 worked out by hand, and on every input the plan's promises
 * checked from the definitions: R a permutation, A''[Q[t]] = A[P[R[t]]],
 * every warp-access one segment (the analyser on Q), and at most half the
 * duplication algorithm's memory where elements are read several times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "freq_order.h"
#include "irregular_inputs.h"
#include "padding.h"

static dl_padding_plan plan_of(const int64_t *elem, size_t n, unsigned w,
                               unsigned e)
{
    dl_padding_plan p;
    assert_int_equal(dl_padding_plan_build(elem, n, w, e, &p), DL_SUCCESS);
    return p;
}

/* The fewest segments a warp reading u distinct elements can touch. */
static uint64_t fewest_segments(const dl_padding_plan *p, unsigned w,
                                unsigned e, const int64_t *elem)
{
    uint64_t total = 0;
    for (size_t t0 = 0; t0 < p->jobs; t0 += w) {
        size_t u = 0, end = t0 + w < p->jobs ? t0 + w : p->jobs;
        for (size_t t = t0; t < end; t++) {
            size_t s = t0;
            while (s < t && elem[p->job[s]] != elem[p->job[t]])
                s++;
            u += s == t;
        }
        total += (u + e - 1) / e;
    }
    return total;
}

/* Every promise of padding.h, on any input. */
static void check_plan(const int64_t *elem, size_t n, unsigned w, unsigned e,
                       const dl_padding_plan *p)
{
    assert_int_equal(p->jobs, n);
    assert_true(is_permutation(p->job, n));
    int64_t *q = malloc((n ? n : 1) * sizeof *q);
    assert_non_null(q);
    for (size_t t = 0; t < n; t++) {
        assert_true(p->slot[t] < p->slots);
        assert_true(p->source[p->slot[t]] == elem[p->job[t]]);
        q[t] = (int64_t)p->slot[t];
    }
    size_t empty = 0;
    for (size_t k = 0; k < p->slots; k++)
        empty += p->source[k] == DL_SLOT_EMPTY;
    assert_int_equal(empty, p->empty);
    uint64_t accesses = 0;
    uint64_t tx = transactions(q, n, w, e, &accesses);
    assert_int_equal(tx, fewest_segments(p, w, e, elem));
    if (w <= e) /* a warp reads at most W <= E elements: one segment */
        assert_int_equal(tx, accesses);
    free(q);
}

/* Figure 4 (c): sorted by frequency a6 b4 c4 d4 e3 f1 g1 h1, the warps
 * read aaaa aabb bbcc ccdd ddee efgh and pack into a b c d | d e _ _ |
 * e f g h: 12 slots, 2 empty, d and e placed twice; duplication takes 24. */
static void test_figure4(void **state)
{
    (void)state;
    dl_freq_order o;
    assert_int_equal(dl_freq_order_build(figure4_elem, FIGURE4_JOBS, &o),
                     DL_SUCCESS);
    const int64_t values[] = {FIG_A, FIG_B, FIG_C, FIG_D,
                              FIG_E, FIG_F, FIG_G, FIG_H};
    const size_t counts[] = {6, 4, 4, 4, 3, 1, 1, 1};
    assert_int_equal(o.distinct, 8);
    for (size_t r = 0; r < 8; r++) {
        assert_true(o.value[r] == values[r]);
        assert_int_equal(o.count[r], counts[r]);
    }
    dl_freq_order_free(&o);

    dl_padding_plan p = plan_of(figure4_elem, FIGURE4_JOBS, 4, 4);
    const size_t job[] = {0,  1,  10, 11, 22, 23, 2, 3, 12, 13, 4,  5,
                          14, 15, 6,  7,  16, 17, 8, 9, 18, 19, 20, 21};
    const size_t slot[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2,  2,
                           2, 2, 3, 3, 4, 4, 5, 5, 8, 9, 10, 11};
    const int64_t x = DL_SLOT_EMPTY;
    const int64_t source[] = {FIG_A, FIG_B, FIG_C, FIG_D, FIG_D, FIG_E,
                              x,     x,     FIG_E, FIG_F, FIG_G, FIG_H};
    for (size_t t = 0; t < FIGURE4_JOBS; t++) {
        assert_int_equal(p.job[t], job[t]);
        assert_int_equal(p.slot[t], slot[t]);
    }
    assert_int_equal(p.slots, 12);
    for (size_t k = 0; k < 12; k++)
        assert_true(p.source[k] == source[k]);
    assert_int_equal(p.empty, 2);
    assert_int_equal(p.duplicates, 2);
    check_plan(figure4_elem, FIGURE4_JOBS, 4, 4, &p);
    /* 11 transactions as written, 6 after: one per warp. */
    assert_int_equal(transactions(figure4_elem, FIGURE4_JOBS, 4, 4, NULL), 11);
    assert_true(2 * p.slots <= FIGURE4_JOBS);
    printf("figure 4: padding %zu slots (%zu empty, %zu duplicates), "
           "duplication %d\n",
           p.slots, p.empty, p.duplicates, FIGURE4_JOBS);
    dl_padding_plan_free(&p);
}

/* A'' against duplication's A' (T elements), at GPU-class W = 32 and 32
 * four-byte elements per 128-byte segment. */
static void check_half(const char *name, const int64_t *elem, size_t n)
{
    dl_padding_plan p = plan_of(elem, n, 32, 32);
    check_plan(elem, n, 32, 32, &p);
    printf("%s: %zu reads, %llu -> %zu transactions; padding %zu slots "
           "(%zu empty, %zu duplicates) = %.1f%% of duplication's %zu\n",
           name, n, (unsigned long long)transactions(elem, n, 32, 32, NULL),
           (n + 31) / 32, p.slots, p.empty, p.duplicates,
           100.0 * (double)p.slots / (double)n, n);
    assert_true(2 * p.slots <= n);
    dl_padding_plan_free(&p);
}

static void test_random_and_stencil(void **state)
{
    (void)state;
    int64_t *r = random_reads(8 * 4096, 4096, 1);
    assert_non_null(r);
    check_half("random (8 reads per element)", r, 8 * 4096);
    free(r);
    size_t n;
    int64_t *s = stencil_reads(16, 2, &n);
    assert_non_null(s);
    check_half("shuffled 16^3 7-point stencil", s, n);
    free(s);
}

/* Without reuse (a permutation) padding needs what duplication needs. */
static void test_permutation(void **state)
{
    (void)state;
    int64_t elem[100];
    for (size_t i = 0; i < 100; i++)
        elem[i] = (int64_t)((i * 37) % 100);
    dl_padding_plan p = plan_of(elem, 100, 8, 8);
    check_plan(elem, 100, 8, 8, &p);
    assert_int_equal(p.slots, 100);
    assert_int_equal(p.empty, 0);
    dl_padding_plan_free(&p);
}

static void test_edges(void **state)
{
    (void)state;
    dl_padding_plan p = plan_of(NULL, 0, 4, 4);
    assert_int_equal(p.slots, 0);
    check_plan(NULL, 0, 4, 4, &p);
    dl_padding_plan_free(&p);

    const int64_t one = -5; /* negative: an element before A */
    p = plan_of(&one, 1, 4, 4);
    check_plan(&one, 1, 4, 4, &p);
    assert_int_equal(p.slots, 1);
    dl_padding_plan_free(&p);

    int64_t same[13];
    for (size_t i = 0; i < 13; i++)
        same[i] = 42;
    p = plan_of(same, 13, 4, 4); /* all the same: one copy */
    check_plan(same, 13, 4, 4, &p);
    assert_int_equal(p.slots, 1);
    assert_int_equal(p.duplicates, 0);
    dl_padding_plan_free(&p);

    /* 10 work-items, W = 4: a partial last warp; repeated indices. */
    const int64_t rep[] = {3, 9, 3, 100, 9, 9, 3, 7, 100, 7};
    p = plan_of(rep, 10, 4, 4);
    check_plan(rep, 10, 4, 4, &p);
    dl_padding_plan_free(&p);

    assert_int_equal(dl_padding_plan_build(rep, 10, 0, 4, &p),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_padding_plan_build(rep, 10, 4, 0, &p),
                     DL_INVALID_ARGUMENT);
}

/* W > E: warps reading more than E distinct elements span the fewest
 * segments; random shapes and sizes, W and E not multiples of each
 * other. */
static void test_shapes(void **state)
{
    (void)state;
    const unsigned ws[] = {1, 3, 4, 8, 32};
    const unsigned es[] = {1, 2, 5, 8, 32};
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            for (size_t n = 0; n < 70; n += 7) {
                int64_t *elem = random_reads(n, 1 + n / 3, 10 * i + j + n);
                dl_padding_plan p = plan_of(elem, n, ws[i], es[j]);
                check_plan(elem, n, ws[i], es[j], &p);
                dl_padding_plan_free(&p);
                free(elem);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure4),
        cmocka_unit_test(test_random_and_stencil),
        cmocka_unit_test(test_permutation),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
