/* test_metis_load.c - METIS loaded at run time (runtime/irregular/
 * remap_metis.h), the permutation layout's way to it: a library that
 * cannot be loaded, or is not METIS, is refused with a message naming it
 * and nothing loaded; without METIS the layout's choice of order
 * (permute_choose.h) keeps first touch and says why; with the loaded
 * METIS, its order is planned like the linked one's and kept where it
 * counts fewer transactions; an order planned once is counted again
 * without METIS, and the runtime keeps the last ones by (P, P's version,
 * A) (rt_permute_choose.c). */
#include "error.h"
#include "permute_choose.h"
#include "rt_permute.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

static void assert_said(const char *words)
{
    if (!strstr(dl_last_error(), words))
        fail_msg("\"%s\" does not say \"%s\"", dl_last_error(), words);
}

/* Where METIS is built in, the loader's own message; else the build's. */
static const char *expected(const char *loader_words)
{
    return dl_remap_unavailable() ? "built without METIS" : loader_words;
}

static void test_missing_library(void **state)
{
    (void)state;
    dl_metis_api *api = (dl_metis_api *)&api;
    assert_int_equal(dl_metis_open("/nonexistent/libmetis.so.5", &api),
                     DL_UNSUPPORTED);
    assert_null(api);
    assert_said(expected("/nonexistent/libmetis.so.5 cannot be loaded"));
}

static void test_not_metis(void **state)
{
    (void)state;
    dl_metis_api *api = (dl_metis_api *)&api;
    assert_int_equal(dl_metis_open("libc.so.6", &api), DL_UNSUPPORTED);
    assert_null(api);
    assert_said(expected("libc.so.6 has no METIS_SetDefaultOptions"));
}

static void test_no_name(void **state)
{
    (void)state;
    dl_metis_api *api = NULL;
    assert_int_not_equal(dl_metis_open("", &api), DL_SUCCESS);
    assert_int_not_equal(dl_metis_open(NULL, &api), DL_SUCCESS);
    assert_null(api);
    dl_metis_close(NULL);
}

/* Four work-items in warps of two, each reading its row of two
 * consecutive entries (row-major): P = 0..7 read as {4, 2, 0, 2, 1}.  A
 * warp's step reads elements two apart, so first touch (the identity
 * here) takes two segments of two elements a step; METIS pairs them: one. */
static const int32_t rows[8] = {0, 1, 2, 3, 4, 5, 6, 7};

static dl_perm_source rows_source(void)
{
    return (dl_perm_source){.geometry = {2, 8},
                            .elem_bytes = 4,
                            .n = 8,
                            .range = {4, 2, 0, 2, 1},
                            .index = rows,
                            .count = 8,
                            .index_bytes = 4};
}

static int never(void)
{
    return 0;
}

static int exiting(void)
{
    return 1;
}

static void test_plan_refused_without_metis(void **state)
{
    (void)state;
    dl_perm_source s = rows_source();
    dl_coalesce_ref ref = {4, 0, 0, 0};
    dl_remap_params prm = {DL_REMAP_CLIQUE, 1.0, 0, 1, NULL};
    size_t perm[8];
    assert_int_equal(dl_remap_plan(&s.geometry, &ref, &s.range, rows, 8, 4, 8,
                                   &prm, perm, NULL),
                     DL_UNSUPPORTED);
    assert_said("METIS");
}

static void test_first_touch_without_metis(void **state)
{
    (void)state;
    dl_perm_source s = rows_source();
    uint32_t pi[8];
    dl_perm_choice c;
    assert_int_equal(dl_perm_choose(&s, NULL, never, pi, &c), DL_SUCCESS);
    assert_int_equal(c.order, DL_PERM_FIRST_TOUCH);
    assert_true(c.tx[DL_PERM_METIS] < 0);
    assert_string_equal(c.why_not_metis, "METIS is unavailable");
    assert_true(c.as_written == 2.0 && c.tx[DL_PERM_FIRST_TOUCH] == 2.0);
    for (uint32_t x = 0; x < 8; x++)
        assert_int_equal(pi[x], x);
}

/* The loaded METIS: refused plans stop at the exit; planned, its order
 * is kept (one transaction a step), the same as the linked one's. */
static void test_loaded_metis(void **state)
{
    (void)state;
    if (dl_remap_unavailable())
        skip();
    dl_metis_api *api = NULL;
    assert_int_equal(dl_metis_open("libmetis.so.5", &api), DL_SUCCESS);
    assert_non_null(api);
    dl_perm_source s = rows_source();
    uint32_t pi[8], linked[8];
    dl_perm_choice c;
    assert_int_equal(dl_perm_choose(&s, api, exiting, pi, &c), DL_SUCCESS);
    assert_int_equal(c.order, DL_PERM_FIRST_TOUCH);
    assert_string_equal(c.why_not_metis, "the process exits");
    assert_int_equal(dl_perm_choose(&s, api, NULL, pi, &c), DL_SUCCESS);
    assert_int_equal(c.order, DL_PERM_METIS);
    assert_true(c.tx[DL_PERM_METIS] == 1.0 && c.tx[DL_PERM_FIRST_TOUCH] == 2.0);
    assert_int_equal(dl_perm_choose(&s, dl_metis_linked(), NULL, linked, &c),
                     DL_SUCCESS);
    assert_memory_equal(pi, linked, sizeof pi);
    dl_metis_close(api);
}

/* METIS's order planned once: kept where asked, then counted from the
 * copy without METIS (NULL), even at the exit, giving the same pi. */
static void test_reused(void **state)
{
    (void)state;
    if (dl_remap_unavailable())
        skip();
    dl_perm_source s = rows_source();
    uint32_t pi[8], kept[8], again[8];
    dl_perm_metis_reuse planned = {NULL, kept, 0};
    dl_perm_choice c;
    assert_int_equal(
        dl_perm_choose_reusing(&s, dl_metis_linked(), NULL, &planned, pi, &c),
        DL_SUCCESS);
    assert_true(planned.stored && !c.metis_reused);
    assert_int_equal(c.order, DL_PERM_METIS);
    assert_memory_equal(pi, kept, sizeof pi);
    dl_perm_metis_reuse known = {kept, NULL, 0};
    assert_int_equal(
        dl_perm_choose_reusing(&s, NULL, exiting, &known, again, &c),
        DL_SUCCESS);
    assert_true(c.metis_reused && !known.stored);
    assert_int_equal(c.order, DL_PERM_METIS);
    assert_true(c.tx[DL_PERM_METIS] == 1.0 && c.plan_s[DL_PERM_METIS] == 0);
    assert_memory_equal(pi, again, sizeof pi);
}

/* The runtime's kept orders: found by their whole key only (another
 * version of P is another order), the same key kept again replaced, and
 * beyond four the least recently used dropped. */
static void test_kept_orders(void **state)
{
    (void)state;
    uint32_t pi[4] = {3, 1, 0, 2}, other[4] = {0, 1, 2, 3}, out[4];
    cl_mem p = (cl_mem)(uintptr_t)0x1000, a = (cl_mem)(uintptr_t)0x2000;
    rt_metis_key key = {p, a, 7, 4, 4};
    rt_permute_metis_keep(&key, pi);
    assert_true(rt_permute_metis_kept(&key, out));
    assert_memory_equal(out, pi, sizeof pi);
    rt_metis_key newer = key;
    newer.version = 8;
    assert_false(rt_permute_metis_kept(&newer, out));
    rt_permute_metis_keep(&key, other); /* replaced, not added */
    assert_true(rt_permute_metis_kept(&key, out));
    assert_memory_equal(out, other, sizeof other);
    for (uint64_t v = 100; v < 104; v++) { /* four more: key is the oldest */
        rt_metis_key k = {p, a, v, 4, 4};
        rt_permute_metis_keep(&k, pi);
    }
    assert_false(rt_permute_metis_kept(&key, out));
    rt_metis_key last = {p, a, 103, 4, 4};
    assert_true(rt_permute_metis_kept(&last, out));
    assert_memory_equal(out, pi, sizeof pi);
}

/* Beyond DL_PERM_METIS_MAX_ACCESSES warp-accesses METIS's profile
 * samples them: 2^17 warp-accesses of two lanes over 8 elements, half
 * profiled; the pairs {0, 2}, {1, 3}, ... still read together. */
static void test_sampled(void **state)
{
    (void)state;
    if (dl_remap_unavailable())
        skip();
    enum { ITEMS = 1 << 18 };
    int32_t *p = malloc(ITEMS * sizeof *p);
    assert_non_null(p);
    for (size_t i = 0; i < ITEMS; i++)
        p[i] = (int32_t)(i % 4 / 2 + i % 2 * 2 + i / 4 % 2 * 4);
    dl_perm_source s = {.geometry = {2, 8},
                        .elem_bytes = 4,
                        .n = 8,
                        .range = {ITEMS, 1, 0, 1, 0},
                        .index = p,
                        .count = ITEMS,
                        .index_bytes = 4};
    uint32_t pi[8];
    dl_perm_choice c;
    assert_int_equal(dl_perm_choose(&s, dl_metis_linked(), NULL, pi, &c),
                     DL_SUCCESS);
    assert_true(c.sample == DL_PERM_METIS_MAX_ACCESSES / (ITEMS / 2));
    assert_true(c.tx[DL_PERM_METIS] == 1.0);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_library),
        cmocka_unit_test(test_not_metis),
        cmocka_unit_test(test_no_name),
        cmocka_unit_test(test_plan_refused_without_metis),
        cmocka_unit_test(test_first_touch_without_metis),
        cmocka_unit_test(test_loaded_metis),
        cmocka_unit_test(test_sampled),
        cmocka_unit_test(test_reused),
        cmocka_unit_test(test_kept_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
