/* test_sharing_slots.c - sharing for the program's own kernel
 * (runtime/irregular/sharing_slots.c): the block-local indices L and the
 * groups' blocks checked from the definitions on random index buffers read
 * as an ELL loop (column- and row-major) and one entry a work-item, in
 * launch order and under a job map: A_s[block_pos[g] + L[e]] == A[P[e] + c]
 * for every entry work-items of group g read, each block ascending (one
 * copy per element), starting a segment, no larger than max_block; an
 * entry read by two groups refused; unread entries at 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "freq_order.h"
#include "irregular_inputs.h"
#include "sharing_slots.h"

static void check(const int64_t *idx, size_t entries, int64_t c,
                  const dl_coalesce_range *r, const size_t *job, size_t group,
                  unsigned e)
{
    dl_sharing_slots s;
    assert_int_equal(
        dl_sharing_slots_build(idx, entries, c, r, job, group, e, &s),
        DL_SUCCESS);
    assert_int_equal(s.groups, (r->threads + group - 1) / group);
    char *seen = calloc(entries ? entries : 1, 1);
    assert_non_null(seen);
    size_t max = 0;
    for (size_t g = 0; g < s.groups; g++) {
        size_t pos = s.block_pos[g], size = s.block_size[g];
        assert_int_equal(pos % e, 0);
        assert_true(pos + size <= s.tables.slots);
        max = size > max ? size : max;
        for (size_t k = 1; k < size; k++)
            assert_true(s.tables.source[pos + k - 1] <
                        s.tables.source[pos + k]);
        for (size_t t = g * group; t < (g + 1) * group && t < r->threads; t++)
            for (size_t j = 0; j < r->steps; j++) {
                size_t en = r->base + (job ? job[t] : t) * r->t_stride +
                            j * r->j_stride;
                if (en >= entries)
                    continue;
                seen[en] = 1;
                assert_true(s.tables.slot[en] < size);
                assert_int_equal(s.tables.source[pos + s.tables.slot[en]],
                                 idx[en] + c);
            }
    }
    assert_int_equal(s.max_block, max);
    for (size_t en = 0; en < entries; en++)
        if (!seen[en])
            assert_int_equal(s.tables.slot[en], 0);
    free(seen);
    dl_sharing_slots_free(&s);
}

static void test_ell_random(void **state)
{
    (void)state;
    size_t rows = 1000, k = 5, n = rows * k;
    int64_t *idx = random_reads(n, 700, 11);
    dl_coalesce_range cm = {rows, k, 0, 1, rows};       /* col[j * N + row] */
    dl_coalesce_range rm = {rows, k, 0, k, 1};          /* col[row * K + j] */
    dl_coalesce_range one = {n, 1, 0, 1, 0};            /* col[gid] */
    dl_coalesce_range tail = {rows - 7, k, 7, 1, rows}; /* from base 7 */
    for (size_t group = 1; group <= 256; group *= 4) {
        check(idx, n, 0, &cm, NULL, group, 16);
        check(idx, n, 3, &rm, NULL, group, 8);
        check(idx, n, 0, &one, NULL, group, 32);
        check(idx, n, 0, &tail, NULL, group, 16);
    }
    free(idx);
}

static void test_job_map(void **state)
{
    (void)state;
    size_t n = 4096;
    int64_t *idx = random_reads(n, 300, 5);
    dl_freq_order o;
    assert_int_equal(dl_freq_order_build(idx, n, &o), DL_SUCCESS);
    dl_coalesce_range one = {n, 1, 0, 1, 0};
    check(idx, n, 0, &one, o.job, 64, 16);
    /* Clustering puts a frequent element's readers into fewer groups:
     * the blocks hold fewer slots than in launch order. */
    dl_sharing_slots plain, clustered;
    assert_int_equal(
        dl_sharing_slots_build(idx, n, 0, &one, NULL, 64, 16, &plain),
        DL_SUCCESS);
    assert_int_equal(
        dl_sharing_slots_build(idx, n, 0, &one, o.job, 64, 16, &clustered),
        DL_SUCCESS);
    assert_true(clustered.tables.slots < plain.tables.slots);
    dl_sharing_slots_free(&plain);
    dl_sharing_slots_free(&clustered);
    dl_freq_order_free(&o);
    free(idx);
}

/* Figure 4 of 000 by hand: groups of 8 work-items, 4 elements a segment;
 * group 0 reads a b c d (a=0 c=1 b=4 d=5), group 1 a b c e, group 2 a d
 * e f g h. */
static void test_figure4(void **state)
{
    (void)state;
    dl_coalesce_range one = {FIGURE4_JOBS, 1, 0, 1, 0};
    dl_sharing_slots s;
    assert_int_equal(dl_sharing_slots_build(figure4_elem, FIGURE4_JOBS, 0, &one,
                                            NULL, 8, 4, &s),
                     DL_SUCCESS);
    assert_int_equal(s.groups, 3);
    assert_int_equal(s.block_size[0], 4);
    assert_int_equal(s.block_size[1], 4);
    assert_int_equal(s.block_size[2], 6);
    assert_int_equal(s.block_pos[1], 4);
    assert_int_equal(s.block_pos[2], 8);
    assert_int_equal(s.max_block, 6);
    assert_int_equal(s.tables.slots, 16);
    assert_int_equal(s.tables.empty, 2);
    int64_t first[] = {FIG_A, FIG_C, FIG_B, FIG_D};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(s.tables.source[i], first[i]);
    assert_int_equal(s.tables.slot[2], 2); /* b: third in a c b d */
    assert_int_equal(s.tables.source[14], DL_SLOT_EMPTY);
    dl_sharing_slots_free(&s);
    check(figure4_elem, FIGURE4_JOBS, 0, &one, NULL, 8, 4);
}

static void test_refused_and_unread(void **state)
{
    (void)state;
    int64_t idx[] = {4, 2, 9, 4, 7, 1, 3, 3};
    dl_sharing_slots s;
    /* every work-item reads entry 0 (t_stride 0): two groups share it */
    dl_coalesce_range same = {8, 1, 0, 0, 0};
    assert_int_equal(dl_sharing_slots_build(idx, 8, 0, &same, NULL, 4, 4, &s),
                     DL_UNSUPPORTED);
    /* ... in one group it is one read */
    dl_coalesce_range one_group = {4, 1, 0, 0, 0};
    check(idx, 8, 0, &one_group, NULL, 4, 4);
    /* three work-items read entries 2..4: the rest are unread */
    dl_coalesce_range part = {3, 1, 2, 1, 0};
    check(idx, 8, 0, &part, NULL, 2, 4);
    assert_int_equal(dl_sharing_slots_build(idx, 8, 0, &part, NULL, 0, 4, &s),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_sharing_slots_build(idx, 8, 0, &part, NULL, 2, 0, &s),
                     DL_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ell_random),
        cmocka_unit_test(test_job_map),
        cmocka_unit_test(test_figure4),
        cmocka_unit_test(test_refused_and_unread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
