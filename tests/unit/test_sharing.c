/* test_sharing.c - the sharing plan (runtime/irregular/sharing.c): Figure
 * 4 (d) of 000 worked out by hand, with and without clustering, and on
 * every input the plan's promises checked from the definitions: R a
 * permutation, one copy per element per work-group, each group's block
 * starting a segment, and every redirected access reading its element. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "irregular_inputs.h"
#include "sharing.h"

static dl_sharing_plan plan_of(const int64_t *elem, size_t n, size_t group,
                               unsigned e, int cluster)
{
    dl_sharing_plan p;
    assert_int_equal(dl_sharing_plan_build(elem, n, group, e, cluster, &p),
                     DL_SUCCESS);
    return p;
}

/* Distinct elements group g's work-items read, counted naively. */
static size_t distinct_in_group(const int64_t *elem, const dl_sharing_plan *p,
                                size_t t0, size_t end)
{
    size_t u = 0;
    for (size_t t = t0; t < end; t++) {
        size_t s = t0;
        while (s < t && elem[p->job[s]] != elem[p->job[t]])
            s++;
        u += s == t;
    }
    return u;
}

static void check_plan(const int64_t *elem, size_t n, size_t group, unsigned e,
                       int cluster, const dl_sharing_plan *p)
{
    assert_int_equal(p->jobs, n);
    assert_int_equal(p->groups, (n + group - 1) / group);
    assert_true(is_permutation(p->job, n));
    size_t used = 0, max = 0;
    for (size_t g = 0; g < p->groups; g++) {
        size_t t0 = g * group, end = t0 + group < n ? t0 + group : n;
        size_t pos = p->block_pos[g], size = p->block_size[g];
        assert_int_equal(pos % e, 0);
        assert_int_equal(
            pos,
            g ? (p->block_pos[g - 1] + p->block_size[g - 1] + e - 1) / e * e
              : 0);
        /* One copy per element: the block is strictly ascending and
         * exactly as large as the group's distinct elements. */
        assert_int_equal(size, distinct_in_group(elem, p, t0, end));
        for (size_t k = 1; k < size; k++)
            assert_true(p->source[pos + k - 1] < p->source[pos + k]);
        for (size_t t = t0; t < end; t++) {
            if (!cluster)
                assert_int_equal(p->job[t], t);
            assert_true(p->local[t] < size);
            assert_true(p->source[pos + p->local[t]] == elem[p->job[t]]);
        }
        for (size_t k = pos + size; k < (pos + size + e - 1) / e * e; k++)
            assert_true(p->source[k] == DL_SLOT_EMPTY);
        used += size;
        max = size > max ? size : max;
    }
    assert_int_equal(p->max_block, max);
    size_t last = p->groups ? p->groups - 1 : 0;
    assert_int_equal(
        p->slots,
        p->groups ? (p->block_pos[last] + p->block_size[last] + e - 1) / e * e
                  : 0);
    assert_true(used <= p->slots);
}

/* Figure 4 (d): blocks of 16 work-items (4 warps of 4), 4 elements per
 * segment.  As written, group 0 reads a b c d e and group 1 a d e f g h:
 * 5 + 6 elements in 8 + 8 slots.  Clustered (most read first), group 0
 * reads a b c d and group 1 d e f g h: 4 + 5 in 4 + 8 slots.  Duplication
 * takes 24. */
static void test_figure4(void **state)
{
    (void)state;
    dl_sharing_plan p = plan_of(figure4_elem, FIGURE4_JOBS, 16, 4, 0);
    check_plan(figure4_elem, FIGURE4_JOBS, 16, 4, 0, &p);
    const int64_t x = DL_SLOT_EMPTY;
    const int64_t plain[] = {FIG_A, FIG_C, FIG_E, FIG_B, FIG_D, x,     x, x,
                             FIG_A, FIG_E, FIG_G, FIG_D, FIG_F, FIG_H, x, x};
    assert_int_equal(p.slots, 16);
    for (size_t k = 0; k < 16; k++)
        assert_true(p.source[k] == plain[k]);
    assert_int_equal(p.block_size[0], 5);
    assert_int_equal(p.block_size[1], 6);
    assert_int_equal(p.block_pos[1], 8);
    assert_int_equal(p.local[0], 0);  /* a */
    assert_int_equal(p.local[2], 3);  /* b */
    assert_int_equal(p.local[21], 5); /* h */
    dl_sharing_plan_free(&p);

    p = plan_of(figure4_elem, FIGURE4_JOBS, 16, 4, 1);
    check_plan(figure4_elem, FIGURE4_JOBS, 16, 4, 1, &p);
    const int64_t clustered[] = {FIG_A, FIG_C, FIG_B, FIG_D, FIG_E, FIG_G,
                                 FIG_D, FIG_F, FIG_H, x,     x,     x};
    assert_int_equal(p.slots, 12);
    for (size_t k = 0; k < 12; k++)
        assert_true(p.source[k] == clustered[k]);
    assert_int_equal(p.block_pos[1], 4);
    assert_int_equal(p.max_block, 5);
    printf("figure 4: sharing %zu slots clustered, 16 as written, "
           "duplication %d\n",
           p.slots, FIGURE4_JOBS);
    dl_sharing_plan_free(&p);
}

/* Groups of 256 work-items, 32 elements per segment. */
static void report(const char *name, const int64_t *elem, size_t n)
{
    for (int cluster = 0; cluster < 2; cluster++) {
        dl_sharing_plan p = plan_of(elem, n, 256, 32, cluster);
        check_plan(elem, n, 256, 32, cluster, &p);
        printf("%s, %s: %zu slots = %.1f%% of duplication's %zu, largest "
               "block %zu\n",
               name, cluster ? "clustered" : "as written", p.slots,
               100.0 * (double)p.slots / (double)n, n, p.max_block);
        if (cluster)
            assert_true(2 * p.slots <= n);
        dl_sharing_plan_free(&p);
    }
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
    for (int cluster = 0; cluster < 2; cluster++) {
        dl_sharing_plan p = plan_of(NULL, 0, 4, 4, cluster);
        assert_int_equal(p.groups, 0);
        check_plan(NULL, 0, 4, 4, cluster, &p);
        dl_sharing_plan_free(&p);

        const int64_t one = 7;
        p = plan_of(&one, 1, 4, 4, cluster);
        check_plan(&one, 1, 4, 4, cluster, &p);
        assert_int_equal(p.slots, 4);
        dl_sharing_plan_free(&p);

        int64_t same[9] = {-3, -3, -3, -3, -3, -3, -3, -3, -3};
        p = plan_of(same, 9, 4, 2, cluster); /* 3 groups, one copy each */
        check_plan(same, 9, 4, 2, cluster, &p);
        assert_int_equal(p.slots, 6);
        dl_sharing_plan_free(&p);

        const int64_t rep[] = {3, 9, 3, 100, 9, 9, 3, 7, 100, 7, 3};
        p = plan_of(rep, 11, 4, 3, cluster);
        check_plan(rep, 11, 4, 3, cluster, &p);
        dl_sharing_plan_free(&p);
    }
    dl_sharing_plan p;
    assert_int_equal(dl_sharing_plan_build(figure4_elem, 4, 0, 4, 0, &p),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_sharing_plan_build(figure4_elem, 4, 4, 0, 0, &p),
                     DL_INVALID_ARGUMENT);
}

static void test_shapes(void **state)
{
    (void)state;
    const size_t gs[] = {1, 3, 16, 64};
    const unsigned es[] = {1, 4, 5, 32};
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++)
            for (size_t n = 0; n < 150; n += 13) {
                int64_t *elem = random_reads(n, 1 + n / 4, 7 * i + j + n);
                for (int cluster = 0; cluster < 2; cluster++) {
                    dl_sharing_plan p = plan_of(elem, n, gs[i], es[j], cluster);
                    check_plan(elem, n, gs[i], es[j], cluster, &p);
                    dl_sharing_plan_free(&p);
                }
                free(elem);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure4),
        cmocka_unit_test(test_random_and_stencil),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
