/* test_offset_da.c - offset DA (docs/layouts.md, "Offset DA"): DA whose
 * field arrays are `stride` records apart, in a buffer with slack.  Its
 * index math and host conversion against the naive model of the DA of
 * `stride` records, the layouts it cannot convert to, and round trips on
 * the device (POCL in CI) for 1..64 fields, mixed sizes and counts 0, 1
 * and odd.  Replay a run with DL_TEST_SEED=<seed>. */
#include "dl_test.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64 /* bytes after the slack that no conversion may touch */

static const size_t counts[] = {0, 1, 2, 3, 97, 1024, 1031, 4097};
static const size_t pads[] = {0, 1, 16, 33, 64};

/* Records: 1, 2, 20 and 64 equal fields of 4 bytes, 3 fields of 8, and
 * dl_test_recs' mixed ones with padding gaps. */
static dl_record *uniform(uint32_t n, uint32_t z)
{
    dl_record *r = NULL;
    assert_int_equal(dl_record_create_uniform(n, z, &r), DL_SUCCESS);
    return r;
}

typedef struct rec_case {
    dl_record *rec;
    char name[48];
} rec_case;

static size_t make_records(rec_case *out, size_t cap)
{
    static const uint32_t shapes[][2] = {{1, 4},  {2, 4}, {20, 4},
                                         {64, 4}, {3, 8}, {5, 1}};
    size_t n = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes && n < cap; i++) {
        out[n].rec = uniform(shapes[i][0], shapes[i][1]);
        snprintf(out[n].name, sizeof out[n].name, "%u x %u B", shapes[i][0],
                 shapes[i][1]);
        n++;
    }
    for (size_t i = 0; i < dl_test_nrecs && n < cap; i++) {
        out[n].rec = dl_test_record(i);
        snprintf(out[n].name, sizeof out[n].name, "%s", dl_test_recs[i].name);
        n++;
    }
    return n;
}

static void release_records(rec_case *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dl_record_release(r[i].rec);
}

/* ------------------------------------------------------------ index math */

static void check_offsets(const dl_record *rec, size_t m, size_t stride)
{
    dl_layout l = dl_layout_da_offset(rec, m, stride);
    size_t span = stride > m ? stride : m;
    uint32_t size = dl_record_size(rec);
    assert_int_equal(dl_layout_check(&l), DL_SUCCESS);
    assert_int_equal(dl_layout_span(&l), span);
    assert_int_equal(dl_layout_bytes(&l), span * size);
    for (uint32_t f = 0; f < dl_record_nfields(rec); f++) {
        dl_field fl = dl_record_field(rec, f);
        for (size_t i = 0; i < m; i += 1 + m / 7) {
            size_t got = 0;
            assert_int_equal(dl_layout_offset(&l, i, f, &got), DL_SUCCESS);
            /* field f's array starts at its offset times the stride */
            assert_int_equal(got, (size_t)fl.offset * span + i * fl.size);
            assert_int_equal(
                got, naive_offset(span, span, size, i, fl.offset, fl.size));
        }
        size_t beyond = 0;
        assert_int_equal(dl_layout_offset(&l, m, f, &beyond),
                         DL_INVALID_ARGUMENT);
    }
}

static void test_index_math(void **state)
{
    (void)state;
    rec_case r[16];
    size_t nr = make_records(r, 16);
    for (size_t k = 0; k < nr; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (size_t p = 0; p < sizeof pads / sizeof *pads; p++)
                check_offsets(r[k].rec, counts[c], counts[c] + pads[p]);
    release_records(r, nr);
}

static void test_invalid(void **state)
{
    (void)state;
    dl_record *rec = uniform(4, 4);
    dl_layout below = dl_layout_da_offset(rec, 100, 99);
    assert_int_equal(dl_layout_check(&below), DL_INVALID_LAYOUT);
    dl_layout asta = dl_layout_asta(rec, 100, 8);
    asta.stride = 116;
    assert_int_equal(dl_layout_check(&asta), DL_INVALID_LAYOUT);
    dl_layout packed = dl_layout_da_offset(rec, 100, 0);
    assert_int_equal(dl_layout_span(&packed), 100);
    assert_int_equal(dl_layout_bytes(&packed), 1600);

    /* Only AoS (or the same offset DA) is its partner. */
    size_t bytes = 116 * 16;
    unsigned char *data = calloc(1, bytes);
    assert_non_null(data);
    dl_layout off = dl_layout_da_offset(rec, 100, 116);
    dl_layout da = dl_layout_da(rec, 100);
    dl_layout other = dl_layout_da_offset(rec, 100, 132);
    assert_int_equal(dl_convert_host(data, bytes, &off, &asta),
                     DL_INVALID_LAYOUT);
    asta.stride = 0;
    assert_int_equal(dl_convert_host(data, bytes, &off, &asta), DL_UNSUPPORTED);
    assert_int_equal(dl_convert_host(data, bytes, &da, &off), DL_UNSUPPORTED);
    assert_int_equal(dl_convert_host(data, bytes * 2, &off, &other),
                     DL_UNSUPPORTED);
    /* No slack: the buffer is only M*S bytes. */
    dl_layout aos = dl_layout_aos(rec, 100);
    assert_int_equal(dl_convert_host(data, 1600, &aos, &off),
                     DL_BUFFER_TOO_SMALL);
    assert_int_equal(dl_convert_host(data, bytes, &off, &off), DL_SUCCESS);
    free(data);
    dl_record_release(rec);
}

/* ------------------------------------------------------- host conversion */

/* AoS(m) -> offset DA(m, stride) on the host is the naive DA of `stride`
 * records, over every byte up to stride*S, and its inverse restores them. */
static void check_host(const dl_record *rec, size_t m, size_t stride)
{
    size_t span = stride > m ? stride : m;
    size_t bytes = span * dl_record_size(rec);
    unsigned char *in = malloc(bytes + 1), *got = malloc(bytes + 1),
                  *want = malloc(bytes + 1);
    assert_true(in && got && want);
    dl_test_fill(in, bytes);
    memcpy(got, in, bytes);
    naive_convert(want, in, rec, span, 1, span);
    dl_layout aos = dl_layout_aos(rec, m);
    dl_layout off = dl_layout_da_offset(rec, m, stride);
    assert_int_equal(dl_convert_host(got, bytes, &aos, &off), DL_SUCCESS);
    assert_memory_equal(got, want, bytes);
    assert_int_equal(dl_convert_host(got, bytes, &off, &aos), DL_SUCCESS);
    assert_memory_equal(got, in, bytes);
    free(in);
    free(got);
    free(want);
}

static void test_host_conversion(void **state)
{
    (void)state;
    rec_case r[16];
    size_t nr = make_records(r, 16);
    for (size_t k = 0; k < nr; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (size_t p = 0; p < sizeof pads / sizeof *pads; p++)
                check_host(r[k].rec, counts[c], counts[c] + pads[p]);
    release_records(r, nr);
}

/* ---------------------------------------------------------------- device */

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_offset_da");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

static void convert_on_device(dl_test_fixture *fx, cl_mem buf,
                              const dl_layout *from, const dl_layout *to)
{
    cl_event ev = NULL;
    dl_status st = dl_enqueue_convert(fx->engine, fx->cl.queue, buf, from, to,
                                      DL_ALGO_AUTO, 0, NULL, &ev);
    if (st != DL_SUCCESS)
        print_error("dl_enqueue_convert: %s\n", dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
}

/* AoS -> offset DA -> AoS on the device: the first against the host
 * reference, the second back to the original bytes; the guard after the
 * slack never moves. */
static void round_trip(dl_test_fixture *fx, const rec_case *r, size_t m,
                       size_t stride)
{
    size_t span = stride > m ? stride : m;
    size_t bytes = span * dl_record_size(r->rec);
    unsigned char *in = malloc(bytes + GUARD), *want = malloc(bytes + GUARD),
                  *got = malloc(bytes + GUARD);
    assert_true(in && want && got);
    dl_test_fill(in, bytes + GUARD);
    memcpy(want, in, bytes + GUARD);
    dl_layout aos = dl_layout_aos(r->rec, m);
    dl_layout off = dl_layout_da_offset(r->rec, m, stride);
    assert_int_equal(dl_convert_host(want, bytes, &aos, &off), DL_SUCCESS);
    cl_mem buf = dl_test_buffer(&fx->cl, in, bytes + GUARD);
    convert_on_device(fx, buf, &aos, &off);
    dl_test_read(&fx->cl, buf, got, bytes + GUARD);
    if (memcmp(got, want, bytes + GUARD) != 0)
        print_error("%s, %zu records, stride %zu: offset DA differs\n", r->name,
                    m, stride);
    assert_memory_equal(got, want, bytes + GUARD);
    convert_on_device(fx, buf, &off, &aos);
    dl_test_read(&fx->cl, buf, got, bytes + GUARD);
    assert_memory_equal(got, in, bytes + GUARD);
    clReleaseMemObject(buf);
    free(in);
    free(want);
    free(got);
}

static void test_device_round_trips(void **state)
{
    dl_test_fixture *fx = *state;
    rec_case r[16];
    size_t nr = make_records(r, 16);
    static const size_t dev_counts[] = {0, 1, 3, 4097};
    static const size_t dev_pads[] = {16, 33};
    for (size_t k = 0; k < nr; k++)
        for (size_t c = 0; c < sizeof dev_counts / sizeof *dev_counts; c++)
            for (size_t p = 0; p < sizeof dev_pads / sizeof *dev_pads; p++)
                round_trip(fx, &r[k], dev_counts[c],
                           dev_counts[c] + dev_pads[p]);
    release_records(r, nr);
}

/* A buffer without the slack is refused before anything moves. */
static void test_device_no_slack(void **state)
{
    dl_test_fixture *fx = *state;
    dl_record *rec = uniform(20, 4);
    size_t m = 1024, bytes = m * 80;
    unsigned char *in = malloc(bytes), *got = malloc(bytes);
    assert_true(in && got);
    dl_test_fill(in, bytes);
    cl_mem buf = dl_test_buffer(&fx->cl, in, bytes);
    dl_layout aos = dl_layout_aos(rec, m);
    dl_layout off = dl_layout_da_offset(rec, m, m + 16);
    assert_int_equal(dl_enqueue_convert(fx->engine, fx->cl.queue, buf, &aos,
                                        &off, DL_ALGO_AUTO, 0, NULL, NULL),
                     DL_BUFFER_TOO_SMALL);
    dl_test_read(&fx->cl, buf, got, bytes);
    assert_memory_equal(got, in, bytes);
    clReleaseMemObject(buf);
    free(in);
    free(got);
    dl_record_release(rec);
}

int main(void)
{
    const struct CMUnitTest host[] = {
        cmocka_unit_test(test_index_math),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_host_conversion),
    };
    const struct CMUnitTest device[] = {
        cmocka_unit_test(test_device_round_trips),
        cmocka_unit_test(test_device_no_slack),
    };
    dl_test_seed("test_offset_da");
    int failed =
        cmocka_run_group_tests_name("offset DA, host", host, NULL, NULL);
    return failed + cmocka_run_group_tests_name("offset DA, device", device,
                                                setup, teardown);
}
