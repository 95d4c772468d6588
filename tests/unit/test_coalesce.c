/* test_coalesce.c - the coalescing analyser (runtime/irregular/): counts
 * worked out by hand on the papers' small examples and edge cases, the
 * report line and the geometry presets (test_coalesce_random.c has the
 * property test). */
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

static dl_coalesce_range one_each(size_t threads)
{
    dl_coalesce_range r = {threads, 1, 0, 1, 0};
    return r;
}

/* Counts over 32-bit indices; fails the test on an error. */
static dl_coalesce_counts count32(unsigned w, unsigned s, dl_coalesce_ref ref,
                                  dl_coalesce_range r, const int32_t *p,
                                  size_t n)
{
    dl_coalesce_geometry g = {w, s};
    dl_coalesce_counts c;
    dl_status st = dl_coalesce_count(&g, &ref, &r, p, n, 4, &c);
    if (st != DL_SUCCESS)
        fail_msg("count failed: %s", dl_last_error());
    return c;
}

static void expect(dl_coalesce_counts c, uint64_t accesses, uint64_t before,
                   uint64_t after)
{
    assert_int_equal(c.accesses, accesses);
    assert_int_equal(c.before, before);
    assert_int_equal(c.after, after);
}

static const dl_coalesce_ref float_ref = {4, 0, 4, 0};

/* Figure 4 of Wu et al. (000_): 4 objects per segment, 4 threads per
 * warp.  The original layout is a c e g | b d f h, so a..h are elements
 * a=0 c=1 e=2 g=3 b=4 d=5 f=6 h=7 in segments {a c e g} and {b d f h}.
 * Warps: aabb ccdd eeaa bbcc ddef ghaa touch 2 2 1 2 2 2 segments = 11;
 * after duplication (Figure 4 (b)) every warp reads one segment: 6. */
enum { a = 0, c = 1, e = 2, g = 3, b = 4, d = 5, f = 6, h = 7 };
static const int32_t figure4[] = {a, a, b, b, c, c, d, d, e, e, a, a,
                                  b, b, c, c, d, d, e, f, g, h, a, a};
#define FIGURE4_N (sizeof figure4 / sizeof *figure4)

static void test_figure4(void **state)
{
    (void)state;
    dl_coalesce_counts n =
        count32(4, 16, float_ref, one_each(FIGURE4_N), figure4, FIGURE4_N);
    expect(n, 6, 11, 6);
    char line[128];
    dl_coalesce_geometry geo = {4, 16};
    dl_coalesce_format(&geo, &n, line, sizeof line);
    assert_string_equal(line, "W=4 S=16: 1.8 -> 1.0 transactions per "
                              "warp-access (45.5% fewer)");
}

/* The same with 64-bit entries, and entries beyond 32 bits. */
static void test_index_bytes_8(void **state)
{
    (void)state;
    int64_t wide[FIGURE4_N];
    for (size_t i = 0; i < FIGURE4_N; i++)
        wide[i] = figure4[i];
    dl_coalesce_geometry geo = {4, 16};
    dl_coalesce_range r = one_each(FIGURE4_N);
    dl_coalesce_counts n;
    assert_int_equal(
        dl_coalesce_count(&geo, &float_ref, &r, wide, FIGURE4_N, 8, &n),
        DL_SUCCESS);
    expect(n, 6, 11, 6);
    /* Elements 0 and 2^40 of bytes: two segments, one after. */
    const int64_t far[] = {0, (int64_t)1 << 40};
    dl_coalesce_ref byte = {1, 0, 1, 0};
    dl_coalesce_geometry g2 = {2, 64};
    r = one_each(2);
    assert_int_equal(dl_coalesce_count(&g2, &byte, &r, far, 2, 8, &n),
                     DL_SUCCESS);
    expect(n, 1, 2, 1);
}

static void test_no_and_one_thread(void **state)
{
    (void)state;
    const int32_t p[] = {5};
    expect(count32(32, 128, float_ref, one_each(0), p, 1), 0, 0, 0);
    expect(count32(32, 128, float_ref, one_each(1), p, 1), 1, 1, 1);
    expect(count32(32, 128, float_ref, one_each(1), NULL, 0), 0, 0, 0);
    dl_coalesce_geometry geo = {32, 128};
    dl_coalesce_counts none = {0, 0, 0};
    char line[64];
    dl_coalesce_format(&geo, &none, line, sizeof line);
    assert_string_equal(line, "W=32 S=128: no accesses");
}

/* 5 threads in warps of 4: the last warp has one lane. */
static void test_partial_last_warp(void **state)
{
    (void)state;
    const int32_t p[] = {0, 8, 16, 24, 32};
    /* Warp 1: bytes 0, 32, 64, 96: 4 segments; warp 2: 1.  After: the
     * first warp's bytes 0-15 are one segment, the second's 16-19 one. */
    expect(count32(4, 16, float_ref, one_each(5), p, 5), 2, 5, 2);
}

/* 12 threads over a 6-entry P: lanes 6-11 are inactive, the third warp
 * has none active and is no access. */
static void test_inactive_lanes(void **state)
{
    (void)state;
    const int32_t p[] = {0, 4, 8, 12, 16, 20};
    expect(count32(4, 16, float_ref, one_each(12), p, 6), 2, 6, 2);
}

static void test_offsets(void **state)
{
    (void)state;
    const int32_t p[] = {0, 1, 2, 3};
    dl_coalesce_ref ref = float_ref;
    expect(count32(4, 16, ref, one_each(4), p, 4), 1, 1, 1);
    ref.offset = 2; /* elements 2..5: two segments; A' stays aligned */
    expect(count32(4, 16, ref, one_each(4), p, 4), 1, 2, 1);
    const int32_t q[] = {2, 3, 4, 5};
    ref.offset = -2; /* elements 0..3 */
    expect(count32(4, 16, ref, one_each(4), q, 4), 1, 1, 1);
    const int32_t neg[] = {-1, 0};
    ref.offset = 0; /* element -1 lies in segment -1, before A */
    expect(count32(2, 16, ref, one_each(2), neg, 2), 1, 2, 1);
}

/* A 4-byte field at offset 4 of 12-byte records. */
static void test_record_field(void **state)
{
    (void)state;
    dl_coalesce_ref field = {12, 4, 8, 0};
    const int32_t one[] = {1}, two[] = {2};
    /* Record 1's field: bytes 16-23, segment 1. */
    expect(count32(1, 16, field, one_each(1), one, 1), 1, 1, 1);
    /* Record 2's field: bytes 28-35, segments 1 and 2; in A' lane 0
     * reads bytes 4-11. */
    expect(count32(1, 16, field, one_each(1), two, 1), 1, 2, 1);
    /* Two records 4 apart: fields at 8-11 and 56-59; A' at 8-11, 20-23. */
    const int32_t p[] = {0, 4};
    dl_coalesce_ref last = {12, 8, 4, 0};
    expect(count32(2, 16, last, one_each(2), p, 2), 1, 2, 2);
    dl_coalesce_ref whole = {12, 0, 0, 0};
    expect(count32(2, 16, whole, one_each(2), p, 2), 1, 2, 2);
}

static void test_steps(void **state)
{
    (void)state;
    /* ELL, 4 rows of 2 entries, column-major: x[col[j*rows + row]]. */
    const int32_t col[] = {0, 1, 2, 3, 9, 5, 13, 1};
    dl_coalesce_range ell = {4, 2, 0, 1, 4};
    expect(count32(4, 16, float_ref, ell, col, 8), 2, 5, 2);
    /* CSR-like: thread t reads entries 2t and 2t+1. */
    const int32_t p[] = {0, 1, 2, 3};
    dl_coalesce_range csr = {2, 2, 0, 2, 1};
    expect(count32(2, 16, float_ref, csr, p, 4), 2, 2, 2);
    /* base 2: lanes read entries 2 and 3. */
    const int32_t q[] = {100, 0, 4, 5};
    dl_coalesce_range based = {2, 1, 2, 1, 0};
    expect(count32(2, 16, float_ref, based, q, 4), 1, 1, 1);
}

static void expect_invalid(dl_coalesce_geometry geo, dl_coalesce_ref ref,
                           const void *p, size_t n, unsigned bytes)
{
    dl_coalesce_range r = one_each(n);
    dl_coalesce_counts out;
    assert_int_equal(dl_coalesce_count(&geo, &ref, &r, p, n, bytes, &out),
                     DL_INVALID_ARGUMENT);
    assert_true(strstr(dl_last_error(), "coalescing") != NULL);
}

static void test_invalid(void **state)
{
    (void)state;
    const int32_t p[] = {0, 1};
    dl_coalesce_geometry ok = {32, 128};
    expect_invalid((dl_coalesce_geometry){0, 128}, float_ref, p, 2, 4);
    expect_invalid((dl_coalesce_geometry){32, 0}, float_ref, p, 2, 4);
    expect_invalid(ok, (dl_coalesce_ref){0, 0, 0, 0}, p, 2, 4);
    expect_invalid(ok, (dl_coalesce_ref){8, 4, 8, 0}, p, 2, 4);
    expect_invalid(ok, float_ref, p, 2, 2);
    expect_invalid(ok, float_ref, NULL, 2, 4);
    const int64_t huge[] = {INT64_MAX / 2};
    expect_invalid(ok, float_ref, huge, 1, 8);
    expect_invalid(ok, (dl_coalesce_ref){1, 0, 1, 1}, (int64_t[]){INT64_MAX}, 1,
                   8);
}

static void test_geometry_presets(void **state)
{
    (void)state;
    dl_coalesce_geometry gpu = dl_coalesce_geometry_gpu();
    assert_int_equal(gpu.simd_width, 32);
    assert_int_equal(gpu.segment_bytes, 128);
    dl_coalesce_geometry cpu = dl_coalesce_geometry_cpu(32, 4);
    assert_int_equal(cpu.simd_width, 8);
    assert_int_equal(cpu.segment_bytes, 64);
    assert_int_equal(dl_coalesce_geometry_cpu(32, 12).simd_width, 2);
    assert_int_equal(dl_coalesce_geometry_cpu(32, 64).simd_width, 1);
    assert_int_equal(dl_coalesce_geometry_cpu(0, 4).simd_width, 1);
}

static cl_uint device_uint(cl_device_id device, cl_device_info what)
{
    cl_uint v = 0;
    assert_int_equal(clGetDeviceInfo(device, what, sizeof v, &v, NULL),
                     CL_SUCCESS);
    return v;
}

/* The widest preferred vector, in bytes. */
static unsigned register_bytes(cl_device_id device)
{
    const cl_device_info what[] = {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
                                   CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
                                   CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
                                   CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
                                   CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
                                   CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE};
    const unsigned size[] = {1, 2, 4, 8, 4, 8};
    unsigned best = 0;
    for (size_t i = 0; i < 6; i++)
        if (device_uint(device, what[i]) * size[i] > best)
            best = device_uint(device, what[i]) * size[i];
    return best;
}

/* The test device (POCL's CPU device in CI): 4-byte loads take the
 * reported int width, 12-byte ones the register's bytes / 12. */
static void test_geometry_of_device(void **state)
{
    (void)state;
    dl_test_cl cl;
    if (dl_test_cl_open(&cl) != 0)
        skip();
    cl_device_type type = 0;
    clGetDeviceInfo(cl.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    dl_coalesce_geometry g;
    assert_int_equal(dl_coalesce_geometry_for_device(cl.device, 4, &g),
                     DL_SUCCESS);
    if (!(type & CL_DEVICE_TYPE_CPU)) {
        assert_int_equal(g.simd_width, 32);
        assert_int_equal(g.segment_bytes, 128);
    } else {
        cl_uint ints =
            device_uint(cl.device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
        cl_uint line =
            device_uint(cl.device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
        assert_int_equal(g.simd_width, ints ? ints : 1);
        assert_int_equal(g.segment_bytes, line ? line : 64);
        assert_int_equal(dl_coalesce_geometry_for_device(cl.device, 12, &g),
                         DL_SUCCESS);
        assert_int_equal(g.simd_width, register_bytes(cl.device) / 12
                                           ? register_bytes(cl.device) / 12
                                           : 1);
    }
    assert_int_equal(dl_coalesce_geometry_for_device(NULL, 4, &g),
                     DL_INVALID_ARGUMENT);
    dl_test_cl_close(&cl);
}

/* A CSR row loop, worked by hand: W = 2, S = 8 (two floats a segment),
 * rowptr {0, 3, 4, 6}, col {0, 5, 2, 7, 1, 6}.  Warp of rows 0 and 1:
 * step 0 reads k = 0 and 3 (x[0], x[7]: segments 0 and 3; A'[0], A'[3]:
 * 0 and 1), step 1 k = 1 alone (x[5]: 2; A'[1]: 0), step 2 k = 2 (x[2]:
 * 1; A'[2]: 1).  Warp of row 2: k = 4 (x[1]: 0; A'[4]: 2), k = 5 (x[6]:
 * 3; A'[5]: 2).  5 accesses, 6 transactions before, 6 after. */
static void test_rows(void **state)
{
    (void)state;
    static const int32_t rowptr[] = {0, 3, 4, 6};
    static const int32_t col[] = {0, 5, 2, 7, 1, 6};
    dl_coalesce_geometry g = {2, 8};
    dl_coalesce_rows rows = {3, rowptr, rowptr + 1, 4};
    dl_coalesce_counts c;
    assert_int_equal(
        dl_coalesce_count_rows(&g, &float_ref, &rows, col, 6, 4, &c),
        DL_SUCCESS);
    expect(c, 5, 6, 6);
    /* Row 1 past the end of P (col cut to 3 entries): warp 0 keeps row
     * 0's three steps, k = 0 alone at step 0 (x[0]); row 2 reads none. */
    assert_int_equal(
        dl_coalesce_count_rows(&g, &float_ref, &rows, col, 3, 4, &c),
        DL_SUCCESS);
    expect(c, 3, 3, 3);
    rows.bound_bytes = 2;
    assert_int_not_equal(
        dl_coalesce_count_rows(&g, &float_ref, &rows, col, 6, 4, &c),
        DL_SUCCESS);
    rows.bound_bytes = 4;
    rows.begin = NULL;
    assert_int_not_equal(
        dl_coalesce_count_rows(&g, &float_ref, &rows, col, 6, 4, &c),
        DL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure4),
        cmocka_unit_test(test_index_bytes_8),
        cmocka_unit_test(test_no_and_one_thread),
        cmocka_unit_test(test_partial_last_warp),
        cmocka_unit_test(test_inactive_lanes),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_record_field),
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_geometry_presets),
        cmocka_unit_test(test_geometry_of_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
