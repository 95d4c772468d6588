/* test_cycles_tail.c - DA <-> ASTA(T) with M not a multiple of T: on CPU
 * devices `cycles` after the tail split by work-groups that each rotate
 * the tails of a range into place, then swap the ranges' carries, with no
 * temporary (runtime/core/tail.c), and the GPU form of
 * the split (work-groups with halo copies) forced on the same device;
 * checked against the naive model of dl_test.h, with guard bytes, and the
 * extra device memory each plan reports.  Replay a run with
 * DL_TEST_SEED=<seed>. */
#include "dl_test.h"
#include "internal.h" /* dl_engine: the GPU form on a CPU device */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64 /* bytes after the layout that no conversion may touch */

/* The leader map's fixed part (group ranges, word rounding) on top of the
 * 0.1% a conversion may use. */
#define MAP_FIXED_BYTES 256u

typedef dl_test_fixture fixture;

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_cycles_tail");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

static int device_is_cpu(fixture *fx)
{
    cl_device_type type = 0;
    assert_int_equal(clGetDeviceInfo(fx->cl.device, CL_DEVICE_TYPE, sizeof type,
                                     &type, NULL),
                     CL_SUCCESS);
    return (type & CL_DEVICE_TYPE_CPU) != 0;
}

/* One conversion of `buf` from ASTA(from) to ASTA(to), checked. */
static void convert(fixture *fx, cl_mem buf, const dl_record *rec, size_t m,
                    size_t from, size_t to, const unsigned char *want,
                    const unsigned char *guard)
{
    size_t bytes = m * dl_record_size(rec);
    dl_layout a = dl_layout_asta(rec, m, from), b = dl_layout_asta(rec, m, to);
    dl_plan *p;
    assert_int_equal(dl_plan_create(fx->engine, &a, &b, DL_ALGO_AUTO, &p),
                     DL_SUCCESS);
    const char *desc = dl_plan_describe(p);
    size_t extra = dl_plan_extra_bytes(p);
    printf("  M=%zu S=%u size=%u %zu -> %zu: %s, %zu extra bytes\n", m,
           dl_record_nfields(rec), dl_record_size(rec), from, to, desc, extra);
    fflush(stdout);
    if (device_is_cpu(fx)) {
        if (dl_record_nfields(rec) > 1 && (from < m || to < m))
            assert_non_null(strstr(desc, "cycles"));
        assert_true(extra <= bytes / 1000 + MAP_FIXED_BYTES);
    }
    cl_event ev = NULL;
    assert_int_equal(dl_plan_enqueue(p, fx->cl.queue, buf, 0, NULL, &ev),
                     DL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    dl_plan_release(p);
    unsigned char *got = malloc(bytes + GUARD);
    assert_non_null(got);
    dl_test_read(&fx->cl, buf, got, bytes + GUARD);
    if (memcmp(got, want, bytes) != 0) {
        size_t i = 0;
        while (got[i] == want[i])
            i++;
        print_error("M=%zu, %zu -> %zu: first wrong byte %zu of %zu\n", m, from,
                    to, i, bytes);
    }
    assert_memory_equal(got, want, bytes);
    assert_memory_equal(got + bytes, guard, GUARD);
    free(got);
}

/* DA -> ASTA(tile) -> DA on the device against the naive model, planned
 * by fx->engine. */
static void round_trip(fixture *fx, const dl_record *rec, size_t m, size_t tile)
{
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes + GUARD), *want = malloc(bytes + 1);
    assert_true(in && want);
    dl_test_fill(in, bytes + GUARD);
    naive_convert(want, in, rec, m, DL_TILE_DA, tile);
    cl_mem buf = dl_test_buffer(&fx->cl, in, bytes + GUARD);
    convert(fx, buf, rec, m, DL_TILE_DA, tile, want, in + bytes);
    convert(fx, buf, rec, m, tile, DL_TILE_DA, in, in + bytes);
    clReleaseMemObject(buf);
    free(in);
    free(want);
}

/* Chunks of at least 128 bytes (cycles directly), tiles that are and are
 * not powers of two, counts that are primes, one more than a tile, below
 * a tile, a multiple of it, and 0; every test record (word sizes 1 to 16,
 * mixed-size fields with padding).  All small: the tails rotate. */
static void test_small_tails(void **state)
{
    fixture *fx = *state;
    static const size_t counts[] = {0, 1, 2, 97, 257, 1000, 4099, 20011};
    static const size_t tile_bytes[] = {128, 1024, 1200};
    for (size_t r = 0; r < dl_test_nrecs; r++) {
        dl_record *rec = dl_test_record(r);
        uint32_t word = 16; /* the moved word: divides every field */
        for (uint32_t f = 0; f < dl_record_nfields(rec); f++)
            while (dl_record_field(rec, f).offset % word ||
                   dl_record_field(rec, f).size % word ||
                   dl_record_size(rec) % word)
                word /= 2;
        printf("record %s (W %u)\n", dl_test_recs[r].name, word);
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
            size_t tile = tile_bytes[(c + r) % 3] / word;
            round_trip(fx, rec, counts[c], tile);
        }
        round_trip(fx, rec, 3 * (1024 / word), 1024 / word); /* no tail */
        dl_record_release(rec);
    }
}

/* Random uniform records: S 1..64 fields of 1, 2, 4, 8 or 16 bytes, T with
 * chunks of 128..2048 bytes, M up to 60 tiles and a random tail. */
static void test_random_shapes(void **state)
{
    fixture *fx = *state;
    static const uint32_t elems[] = {1, 2, 4, 8, 16};
    for (int k = 0; k < 24; k++) {
        uint32_t s = (uint32_t)dl_test_range(1, 64);
        uint32_t elem = elems[dl_test_range(0, 4)];
        size_t tile = dl_test_range(128 / elem, 2048 / elem);
        size_t m = tile * dl_test_range(0, 60) + dl_test_range(1, tile - 1);
        dl_record *rec;
        assert_int_equal(dl_record_create_uniform(s, elem, &rec), DL_SUCCESS);
        round_trip(fx, rec, m, tile);
        dl_record_release(rec);
    }
}

/* Larger buffers: 16 MiB of 20 and 40 floats at T = 256 (tails of 4,080
 * and 26,080 bytes), 5 and 3 floats, and a mixed record with W = 1. */
static void test_large_tails(void **state)
{
    fixture *fx = *state;
    static const struct {
        uint32_t s;
        size_t m, t;
    } shapes[] = {{20, 209715, 256},
                  {40, 100003, 256},
                  {5, 262147, 256},
                  {3, 1398107, 32}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        dl_record *rec;
        assert_int_equal(dl_record_create_uniform(shapes[i].s, 4, &rec),
                         DL_SUCCESS);
        round_trip(fx, rec, shapes[i].m, shapes[i].t);
        dl_record_release(rec);
    }
    dl_record *rec = dl_test_record(5); /* float3,char,double,short */
    round_trip(fx, rec, 300007, 128);
    dl_record_release(rec);
}

/* The split by several work-groups (one range per 65,536 words, up to 2
 * per compute unit) where the cuts between ranges must move: a cut in a
 * tail or too close to a part's end moves to a later part's start (one
 * tile, a tail of half a tile or more); no valid cut at all (heads longer
 * than the full-tile words: the first group does everything); M < T (no
 * step); multi-word parts, W = 1 and W = 16, odd counts and tiles. */
static void test_parallel_split(void **state)
{
    fixture *fx = *state;
    static const struct {
        uint32_t s, elem;
        size_t m, t;
    } uniform[] = {{3, 4, 150000, 100000}, {40, 4, 12192, 4096},
                   {8, 4, 39999, 40000},   {7, 2, 99991, 1000},
                   {5, 4, 262147, 256},    {2, 1, 300007, 300}};
    for (size_t i = 0; i < sizeof uniform / sizeof *uniform; i++) {
        dl_record *rec;
        assert_int_equal(
            dl_record_create_uniform(uniform[i].s, uniform[i].elem, &rec),
            DL_SUCCESS);
        round_trip(fx, rec, uniform[i].m, uniform[i].t);
        dl_record_release(rec);
    }
    static const struct {
        size_t rec, m, t;
    } mixed[] = {
        {5, 100003, 128}, {6, 70001, 64}, {4, 50001, 32}, {2, 131101, 77}};
    for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++) {
        dl_record *rec = dl_test_record(mixed[i].rec);
        round_trip(fx, rec, mixed[i].m, mixed[i].t);
        dl_record_release(rec);
    }
}

/* The GPU form of the split on this device: an engine planning as for a
 * GPU (PIPT and PTTWAC, work-groups of up to 64 items), one and several
 * groups (the split takes one per 65,536 words, up to 4 per compute
 * unit), uniform and mixed records. */
static void test_gpu_split(void **state)
{
    fixture *fx = *state;
    dl_engine *gpu;
    assert_int_equal(dl_engine_create(fx->cl.context, fx->cl.device, &gpu),
                     DL_SUCCESS);
    gpu->local_is_global = 0;
    static const struct {
        size_t rec, m, t;
        dl_algo algo;
    } shapes[] = {{0, 4099, 32, DL_ALGO_PIPT},
                  {0, 300007, 64, DL_ALGO_PIPT},
                  {6, 100003, 16, DL_ALGO_PTTWAC},
                  {5, 65537, 128, DL_ALGO_PIPT},
                  {4, 20011, 7, DL_ALGO_PTTWAC}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        dl_record *rec = dl_test_record(shapes[i].rec);
        size_t m = shapes[i].m, bytes = m * dl_record_size(rec);
        unsigned char *in = malloc(bytes + GUARD), *want = malloc(bytes);
        unsigned char *got = malloc(bytes + GUARD);
        assert_true(in && want && got);
        dl_test_fill(in, bytes + GUARD);
        naive_convert(want, in, rec, m, DL_TILE_DA, shapes[i].t);
        cl_mem buf = dl_test_buffer(&fx->cl, in, bytes + GUARD);
        dl_layout da = dl_layout_asta(rec, m, DL_TILE_DA);
        dl_layout asta = dl_layout_asta(rec, m, shapes[i].t);
        for (int back = 0; back < 2; back++) {
            cl_event ev = NULL;
            assert_int_equal(dl_enqueue_convert(gpu, fx->cl.queue, buf,
                                                back ? &asta : &da,
                                                back ? &da : &asta,
                                                shapes[i].algo, 0, NULL, &ev),
                             DL_SUCCESS);
            assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
            clReleaseEvent(ev);
            dl_test_read(&fx->cl, buf, got, bytes + GUARD);
            printf("  GPU form: %s M=%zu T=%zu %s\n",
                   dl_test_recs[shapes[i].rec].name, m, shapes[i].t,
                   back ? "back" : "there");
            assert_memory_equal(got, back ? in : want, bytes);
            assert_memory_equal(got + bytes, in + bytes, GUARD);
        }
        clReleaseMemObject(buf);
        free(in);
        free(want);
        free(got);
        dl_record_release(rec);
    }
    dl_engine_release(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_tails),
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_large_tails),
        cmocka_unit_test(test_parallel_split),
        cmocka_unit_test(test_gpu_split),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
