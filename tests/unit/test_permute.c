/* test_permute.c - the permutation layout (runtime/irregular/permute*.c,
 * marshal_kernels/permute.cl): the plan's cycles and segments on the host
 * (identity, one giant cycle, many small cycles, n = 0 and 1, segment
 * lengths from 1 up) run step by step against A'[pi[x]] = A[x]; the same
 * plans on the device for elements of 1 to 16 bytes and records, byte for
 * byte, and restored by pi^-1's plan; P's values redirected and back; the
 * first-touch order. */
#include "dl_test.h"
#include "internal.h"
#include "permute.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

typedef dl_test_fixture fixture;

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_permute");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

/* ------------------------------------------------------- permutations */

static uint32_t *perm_identity(size_t n)
{
    uint32_t *pi = malloc((n ? n : 1) * sizeof *pi);
    assert_non_null(pi);
    for (size_t x = 0; x < n; x++)
        pi[x] = (uint32_t)x;
    return pi;
}

/* x -> x + 1: one cycle through every element. */
static uint32_t *perm_giant(size_t n)
{
    uint32_t *pi = perm_identity(n);
    for (size_t x = 0; x < n; x++)
        pi[x] = (uint32_t)((x + 1) % n);
    return pi;
}

/* Neighbours swapped, and triples rotated: cycles of 2 and 3. */
static uint32_t *perm_small(size_t n)
{
    uint32_t *pi = perm_identity(n);
    size_t x = 0;
    for (; x + 5 <= n; x += 5) {
        pi[x] = (uint32_t)x + 1, pi[x + 1] = (uint32_t)x;
        pi[x + 2] = (uint32_t)x + 3, pi[x + 3] = (uint32_t)x + 4;
        pi[x + 4] = (uint32_t)x + 2;
    }
    return pi;
}

/* Fisher-Yates from the test's seed. */
static uint32_t *perm_random(size_t n)
{
    uint32_t *pi = perm_identity(n);
    for (size_t x = n; x > 1; x--) {
        size_t y = dl_test_range(0, x - 1);
        uint32_t t = pi[x - 1];
        pi[x - 1] = pi[y], pi[y] = t;
    }
    return pi;
}

/* A'[pi[x]] = A[x], directly. */
static void permute_ref(const uint32_t *pi, size_t n, const unsigned char *a,
                        unsigned char *out, size_t e)
{
    for (size_t x = 0; x < n; x++)
        memcpy(out + pi[x] * e, a + x * e, e);
}

/* A[x] = A'[pi[x]], directly. */
static void permute_inverse_ref(const uint32_t *pi, size_t n,
                                const unsigned char *a_prime,
                                unsigned char *out, size_t e)
{
    for (size_t x = 0; x < n; x++)
        memcpy(out + x * e, a_prime + pi[x] * e, e);
}

/* The plan's segments cover every moved element once, each no longer
 * than seg_len, and run on the host they give the reference. */
static void check_host(const uint32_t *pi, size_t n, size_t seg_len, size_t e)
{
    dl_perm_plan plan;
    assert_int_equal(dl_perm_plan_build(pi, n, seg_len, &plan), DL_SUCCESS);
    size_t covered = 0, moved = 0;
    for (size_t x = 0; x < n; x++)
        moved += pi[x] != x;
    for (size_t j = 0; j < plan.segments; j++) {
        assert_true(plan.seg[3 * j + 1] >= 1);
        assert_true(plan.seg[3 * j + 1] <=
                    (seg_len ? seg_len : DL_PERM_SEGMENT));
        assert_int_equal(plan.seg[3 * j], covered);
        covered += plan.seg[3 * j + 1];
    }
    assert_int_equal(covered, moved);
    assert_int_equal(plan.moved, moved);
    unsigned char *a = malloc(n * e + 1), *want = malloc(n * e + 1);
    assert_true(a && want);
    dl_test_fill(a, n * e);
    permute_ref(pi, n, a, want, e);
    assert_int_equal(dl_perm_apply_host(&plan, a, e), DL_SUCCESS);
    assert_memory_equal(a, want, n * e);
    /* pi^-1's plan from pi's brings A back. */
    dl_perm_plan back;
    unsigned char *orig = malloc(n * e + 1);
    assert_non_null(orig);
    permute_inverse_ref(pi, n, want, orig, e);
    assert_int_equal(dl_perm_plan_reverse(&plan, seg_len, &back), DL_SUCCESS);
    assert_int_equal(back.moved, plan.moved);
    assert_int_equal(dl_perm_apply_host(&back, a, e), DL_SUCCESS);
    assert_memory_equal(a, orig, n * e);
    dl_perm_plan_free(&back);
    free(orig);
    free(a);
    free(want);
    dl_perm_plan_free(&plan);
}

static void test_plan_shapes(void **state)
{
    (void)state;
    uint32_t *(*make[])(size_t) = {perm_identity, perm_giant, perm_small,
                                   perm_random};
    const size_t sizes[] = {0, 1, 2, 3, 7, 1000};
    const size_t segs[] = {1, 2, 3, 16, 0};
    for (size_t m = 0; m < 4; m++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            uint32_t *pi = make[m](sizes[s]);
            for (size_t g = 0; g < sizeof segs / sizeof *segs; g++)
                check_host(pi, sizes[s], segs[g], 1 + (m + g) % 16);
            free(pi);
        }
}

/* The identity moves nothing; a giant cycle of 1000 in segments of 16 is
 * 63 segments, the last wrapping to the cycle's start. */
static void test_plan_counts(void **state)
{
    (void)state;
    dl_perm_plan plan;
    uint32_t *id = perm_identity(50), *giant = perm_giant(1000);
    assert_int_equal(dl_perm_plan_build(id, 50, 16, &plan), DL_SUCCESS);
    assert_int_equal(plan.segments, 0);
    assert_int_equal(plan.moved, 0);
    dl_perm_plan_free(&plan);
    assert_int_equal(dl_perm_plan_build(giant, 1000, 16, &plan), DL_SUCCESS);
    assert_int_equal(plan.moved, 1000);
    assert_int_equal(plan.segments, 63);
    assert_int_equal(plan.seg[3 * 62 + 1], 1000 - 62 * 16);
    assert_int_equal(plan.seg[3 * 62 + 2], 0);
    assert_int_equal(plan.seg[2], 16);
    dl_perm_plan_free(&plan);
    free(id);
    free(giant);
}

static void test_plan_rejects(void **state)
{
    (void)state;
    dl_perm_plan plan;
    uint32_t twice[] = {0, 1, 1}, outside[] = {0, 3, 1};
    uint32_t onto_fixed[] = {1, 1, 0}, late[] = {1, 2, 0, 2};
    assert_int_equal(dl_perm_plan_build(twice, 3, 0, &plan),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_perm_plan_build(onto_fixed, 3, 0, &plan),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_perm_plan_build(late, 4, 0, &plan),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_perm_plan_build(outside, 3, 0, &plan),
                     DL_INVALID_ARGUMENT);
}

/* P = 5 2 5 9 -1 2 over 6 elements: 5 -> 0, 2 -> 1, the rest (0 1 3 4)
 * after them, 9 and -1 ignored. */
static void test_first_touch(void **state)
{
    (void)state;
    int32_t p4[] = {5, 2, 5, 9, -1, 2};
    int64_t p8[] = {5, 2, 5, 9, -1, 2};
    uint32_t pi[6], want[] = {2, 3, 1, 4, 5, 0};
    assert_int_equal(dl_perm_first_touch(p4, 6, 4, 6, pi), DL_SUCCESS);
    assert_memory_equal(pi, want, sizeof want);
    assert_int_equal(dl_perm_first_touch(p8, 6, 8, 6, pi), DL_SUCCESS);
    assert_memory_equal(pi, want, sizeof want);
    assert_int_equal(dl_perm_first_touch(p4, 6, 2, 6, pi), DL_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------- device */

static void device_permute(fixture *fx, const uint32_t *pi, size_t n,
                           cl_mem buf, size_t e)
{
    dl_perm_plan plan;
    dl_perm_device dev;
    assert_int_equal(dl_perm_plan_build(pi, n, 64, &plan), DL_SUCCESS);
    assert_int_equal(dl_perm_device_create(fx->cl.context, &plan, e, &dev),
                     DL_SUCCESS);
    dl_status st =
        dl_enqueue_permute(fx->engine, fx->cl.queue, buf, &dev, 0, NULL, NULL);
    if (st != DL_SUCCESS)
        print_error("permute: %s\n", dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    dl_perm_device_release(&dev);
    dl_perm_plan_free(&plan);
}

/* A permuted on the device as the reference says, then restored by pi^-1
 * bit for bit. */
static void check_device(fixture *fx, const uint32_t *pi, size_t n, size_t e)
{
    size_t bytes = n * e;
    unsigned char *a = malloc(bytes + 1), *want = malloc(bytes + 1);
    unsigned char *got = malloc(bytes + 1);
    uint32_t *inv = perm_identity(n);
    assert_true(a && want && got);
    dl_test_fill(a, bytes);
    permute_ref(pi, n, a, want, e);
    dl_perm_invert(pi, n, inv);
    cl_mem buf = dl_test_buffer(&fx->cl, a, bytes ? bytes : 1);
    device_permute(fx, pi, n, buf, e);
    dl_test_read(&fx->cl, buf, got, bytes ? bytes : 1);
    if (memcmp(got, want, bytes) != 0)
        print_error("wrong permutation of %zu %zu-byte elements\n", n, e);
    assert_memory_equal(got, want, bytes);
    device_permute(fx, inv, n, buf, e);
    dl_test_read(&fx->cl, buf, got, bytes ? bytes : 1);
    assert_memory_equal(got, a, bytes);
    clReleaseMemObject(buf);
    free(a);
    free(want);
    free(got);
    free(inv);
}

static void test_device_element_sizes(void **state)
{
    fixture *fx = *state;
    const size_t sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,
                            10, 11, 12, 13, 14, 15, 16, 24, 40};
    uint32_t *rnd = perm_random(3001), *giant = perm_giant(3001);
    uint32_t *small = perm_small(3001);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        check_device(fx, rnd, 3001, sizes[s]);
        check_device(fx, giant, 3001, sizes[s]);
        check_device(fx, small, 3001, sizes[s]);
    }
    free(rnd);
    free(giant);
    free(small);
}

static void test_device_tiny(void **state)
{
    fixture *fx = *state;
    for (size_t n = 0; n <= 3; n++) {
        uint32_t *id = perm_identity(n), *g = perm_giant(n);
        check_device(fx, id, n, 4);
        check_device(fx, g, n, 8);
        free(id);
        free(g);
    }
}

/* P'[i] = pi[P[i]] for the values inside A, the others kept; back with
 * pi^-1 bit for bit; and A'[P'[i]] = A[P[i]]: the kernel's view. */
static void check_redirect(fixture *fx, unsigned ib, int gpu_form)
{
    const size_t n = 1500, count = 4099;
    uint32_t *pi = perm_random(n), *inv = perm_identity(n);
    dl_perm_invert(pi, n, inv);
    unsigned char *p = malloc(count * ib), *got = malloc(count * ib);
    unsigned char *want = malloc(count * ib);
    assert_true(p && got && want);
    for (size_t i = 0; i < count; i++) {
        int64_t v = (int64_t)dl_test_range(0, n + 9) - 5;
        int64_t w = v >= 0 && v < (int64_t)n ? pi[v] : v;
        if (ib == 4)
            ((int32_t *)p)[i] = (int32_t)v, ((int32_t *)want)[i] = (int32_t)w;
        else
            ((int64_t *)p)[i] = v, ((int64_t *)want)[i] = w;
    }
    cl_mem dp = dl_test_buffer(&fx->cl, p, count * ib);
    cl_mem dpi = dl_test_buffer(&fx->cl, pi, n * 4);
    cl_mem dinv = dl_test_buffer(&fx->cl, inv, n * 4);
    int cpu = fx->engine->local_is_global;
    fx->engine->local_is_global = cpu && !gpu_form;
    assert_int_equal(dl_enqueue_redirect(fx->engine, fx->cl.queue, dp, ib,
                                         count, dpi, n, 0, NULL, NULL),
                     DL_SUCCESS);
    dl_test_read(&fx->cl, dp, got, count * ib);
    assert_memory_equal(got, want, count * ib);
    assert_int_equal(dl_enqueue_redirect(fx->engine, fx->cl.queue, dp, ib,
                                         count, dinv, n, 0, NULL, NULL),
                     DL_SUCCESS);
    fx->engine->local_is_global = cpu;
    dl_test_read(&fx->cl, dp, got, count * ib);
    assert_memory_equal(got, p, count * ib);
    clReleaseMemObject(dp);
    clReleaseMemObject(dpi);
    clReleaseMemObject(dinv);
    free(p);
    free(got);
    free(want);
    free(pi);
    free(inv);
}

static void test_device_redirect(void **state)
{
    fixture *fx = *state;
    for (int gpu = 0; gpu <= 1; gpu++) {
        check_redirect(fx, 4, gpu);
        check_redirect(fx, 8, gpu);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_shapes),
        cmocka_unit_test(test_plan_counts),
        cmocka_unit_test(test_plan_rejects),
        cmocka_unit_test(test_first_touch),
        cmocka_unit_test(test_device_element_sizes),
        cmocka_unit_test(test_device_tiny),
        cmocka_unit_test(test_device_redirect),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
