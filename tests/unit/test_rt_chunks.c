/* test_rt_chunks.c - the split of a launch's range into chunks
 * (runtime/rt/rt_chunks.h): whole work-groups in every chunk but a
 * remainder in the last, chunks as even as the groups allow, one chunk
 * for one work-group, a range that is no multiple of the group, the
 * bounds on the count; and, against a model, that the chunks always
 * tile [0, global) in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "dl_test.h"
#include "rt_chunks.h"

static void expect_chunks(const rt_chunk *got, size_t n, const size_t *first,
                          const size_t *count)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(got[i].first, first[i]);
        assert_int_equal(got[i].count, count[i]);
    }
}

/* 1000 work-items in groups of 8 (125 groups) into 4: 31, 31, 31, 32
 * groups. */
static void test_whole_groups(void **state)
{
    (void)state;
    rt_chunk c[RT_CHUNKS_MAX];
    assert_int_equal(rt_chunks_split(1000, 8, 4, c), 4);
    expect_chunks(c, 4, (const size_t[]){0, 248, 496, 744},
                  (const size_t[]){248, 248, 248, 256});
}

/* 1003 work-items in groups of 8: the last chunk holds the partial group
 * (a non-uniform range, OpenCL 2). */
static void test_remainder(void **state)
{
    (void)state;
    rt_chunk c[RT_CHUNKS_MAX];
    assert_int_equal(rt_chunks_split(1003, 8, 4, c), 4);
    expect_chunks(c, 4, (const size_t[]){0, 248, 504, 752},
                  (const size_t[]){248, 256, 248, 251});
    /* fewer groups than chunks asked: one a group */
    assert_int_equal(rt_chunks_split(20, 8, 4, c), 3);
    expect_chunks(c, 3, (const size_t[]){0, 8, 16}, (const size_t[]){8, 8, 4});
}

static void test_one_group(void **state)
{
    (void)state;
    rt_chunk c[RT_CHUNKS_MAX];
    assert_int_equal(rt_chunks_split(64, 64, 4, c), 1);
    expect_chunks(c, 1, (const size_t[]){0}, (const size_t[]){64});
    assert_int_equal(rt_chunks_split(5, 64, 4, c), 1);
    expect_chunks(c, 1, (const size_t[]){0}, (const size_t[]){5});
    assert_int_equal(rt_chunks_split(0, 64, 4, c), 0);
}

/* want is clamped to 1..RT_CHUNKS_MAX; a unit of 0 means 1. */
static void test_counts(void **state)
{
    (void)state;
    rt_chunk c[RT_CHUNKS_MAX];
    assert_int_equal(rt_chunks_split(1000, 1, 0, c), 1);
    expect_chunks(c, 1, (const size_t[]){0}, (const size_t[]){1000});
    assert_int_equal(rt_chunks_split(1000, 1, 1000, c), RT_CHUNKS_MAX);
    assert_int_equal(rt_chunks_split(10, 0, 4, c), 4);
    expect_chunks(c, 4, (const size_t[]){0, 2, 5, 7},
                  (const size_t[]){2, 3, 2, 3});
    /* no overflow near the top of size_t */
    size_t big = SIZE_MAX - 5;
    assert_int_equal(rt_chunks_split(big, 1, 4, c), 4);
    assert_int_equal(c[3].first + c[3].count, big);
}

static void test_model(void **state)
{
    (void)state;
    dl_test_seed("rt_chunks");
    for (int round = 0; round < 20000; round++) {
        size_t global = dl_test_range(1, 5000);
        size_t unit = dl_test_range(1, 300);
        size_t want = dl_test_range(1, RT_CHUNKS_MAX + 2);
        rt_chunk c[RT_CHUNKS_MAX];
        size_t n = rt_chunks_split(global, unit, want, c);
        size_t groups = (global + unit - 1) / unit;
        size_t expect = want < groups ? want : groups;
        assert_int_equal(n, expect < RT_CHUNKS_MAX ? expect : RT_CHUNKS_MAX);
        size_t at = 0, least = SIZE_MAX, most = 0;
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(c[i].first, at);
            assert_true(c[i].count > 0);
            assert_int_equal(c[i].first % unit, 0);
            if (i + 1 < n)
                assert_int_equal(c[i].count % unit, 0);
            size_t g = (c[i].count + unit - 1) / unit;
            least = g < least ? g : least;
            most = g > most ? g : most;
            at += c[i].count;
        }
        assert_int_equal(at, global);
        assert_true(most - least <= 1); /* as even as whole groups allow */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_groups), cmocka_unit_test(test_remainder),
        cmocka_unit_test(test_one_group),    cmocka_unit_test(test_counts),
        cmocka_unit_test(test_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
