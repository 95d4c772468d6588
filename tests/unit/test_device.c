/* test_device.c - conversions on the real OpenCL device (POCL in CI)
 * against the host reference, for every algorithm, record word size and
 * pair of layouts; tiny and large counts; ELL tall arrays.  Events, queues
 * and caches are test_queue.c's.  Replay a run with DL_TEST_SEED=<seed>. */
#include "dl_test.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h> /* clock */

#define GUARD 64 /* bytes after the layout that no conversion may touch */

typedef dl_test_fixture fixture;

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_device");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

#define NRECS dl_test_nrecs

/* ------------------------------------------------------------ conversions */

typedef enum outcome { CONVERTED, UNSUPPORTED } outcome;

static void describe_case(const char *rec, size_t m, size_t from, size_t to,
                          dl_algo algo)
{
    char a[32], b[32];
    dl_test_layout_name(a, sizeof a, m, from);
    dl_test_layout_name(b, sizeof b, m, to);
    print_error("case: %s, M=%zu, %s -> %s, algo %s\n", rec, m, a, b,
                dl_algo_name(algo));
}

/* Every case is announced before it runs, so that the log of a test that
 * hangs (and is killed by meson's timeout) ends with the guilty case. */
static void announce_case(const char *rec, size_t m, size_t from, size_t to,
                          dl_algo algo)
{
    char a[32], b[32];
    dl_test_layout_name(a, sizeof a, m, from);
    dl_test_layout_name(b, sizeof b, m, to);
    printf("  %-6s %s, M=%zu, %s <-> %s\n", dl_algo_name(algo), rec, m, a, b);
    fflush(stdout);
}

/* Converts `buf` (holding `in` in ASTA(from) plus a guard) to ASTA(to) on
 * `q`, checks it against `want` and the guard, and returns the outcome. */
static outcome convert_check(fixture *fx, cl_command_queue q, cl_mem buf,
                             const dl_record *rec, const char *rec_name,
                             size_t m, size_t from, size_t to, dl_algo algo,
                             int must, const unsigned char *want,
                             const unsigned char *guard)
{
    size_t bytes = m * dl_record_size(rec);
    dl_layout a = dl_layout_asta(rec, m, from), b = dl_layout_asta(rec, m, to);
    cl_event ev = NULL;
    dl_status st =
        dl_enqueue_convert(fx->engine, q, buf, &a, &b, algo, 0, NULL, &ev);
    if (st == DL_UNSUPPORTED && !must) {
        assert_null(ev);
        return UNSUPPORTED;
    }
    if (st != DL_SUCCESS) {
        describe_case(rec_name, m, from, to, algo);
        print_error("dl_enqueue_convert: %s: %s\n", dl_status_name(st),
                    dl_last_error());
    }
    assert_int_equal(st, DL_SUCCESS);
    assert_non_null(ev);
    assert_int_equal(clWaitForEvents(1, &ev), CL_SUCCESS);
    clReleaseEvent(ev);
    unsigned char *got = malloc(bytes + GUARD);
    assert_non_null(got);
    dl_test_read(&fx->cl, buf, got, bytes + GUARD);
    if (memcmp(got, want, bytes) != 0 ||
        memcmp(got + bytes, guard, GUARD) != 0) {
        size_t i = 0;
        while (i < bytes + GUARD &&
               got[i] == (i < bytes ? want[i] : guard[i - bytes]))
            i++;
        describe_case(rec_name, m, from, to, algo);
        print_error("first wrong byte %zu of %zu (+%d guard)\n", i, bytes,
                    GUARD);
    }
    assert_memory_equal(got, want, bytes);
    assert_memory_equal(got + bytes, guard, GUARD);
    free(got);
    return CONVERTED;
}

/* Round trip ASTA(from) -> ASTA(to) -> ASTA(from) on the device, each way
 * checked against dl_convert_host.  `must`: DL_UNSUPPORTED is a failure. */
static outcome round_trip_rec(fixture *fx, cl_command_queue q, dl_record *rec,
                              const char *name, size_t m, size_t from,
                              size_t to, dl_algo algo, int must)
{
    announce_case(name, m, from, to, algo);
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes + GUARD), *out = malloc(bytes + 1);
    unsigned char *guard = malloc(GUARD);
    assert_true(in && out && guard);
    dl_test_fill(in, bytes + GUARD);
    memcpy(guard, in + bytes, GUARD);
    memcpy(out, in, bytes);
    dl_layout a = dl_layout_asta(rec, m, from), b = dl_layout_asta(rec, m, to);
    assert_int_equal(dl_convert_host(out, bytes, &a, &b), DL_SUCCESS);

    cl_mem buf = dl_test_buffer(&fx->cl, in, bytes + GUARD);
    outcome o = convert_check(fx, q, buf, rec, name, m, from, to, algo, must,
                              out, guard);
    if (o == CONVERTED)
        o = convert_check(fx, q, buf, rec, name, m, to, from, algo, must, in,
                          guard);
    if (o == UNSUPPORTED) { /* refused: not a byte may have moved */
        unsigned char *now = malloc(bytes + GUARD);
        assert_non_null(now);
        dl_test_read(&fx->cl, buf, now, bytes + GUARD);
        assert_memory_equal(now, in, bytes + GUARD);
        free(now);
    }
    clReleaseMemObject(buf);
    free(in);
    free(out);
    free(guard);
    return o;
}

static outcome round_trip(fixture *fx, cl_command_queue q, size_t rec_index,
                          size_t m, size_t from, size_t to, dl_algo algo,
                          int must)
{
    dl_record *rec = dl_test_record(rec_index);
    outcome o = round_trip_rec(fx, q, rec, dl_test_recs[rec_index].name, m,
                               from, to, algo, must);
    dl_record_release(rec);
    return o;
}

/* ----------------------------------------------------------- the matrix */

typedef enum pair { AOS_ASTA, DA_ASTA, AOS_DA, ASTA_ASTA, NPAIRS } pair;
static const char *const pair_names[] = {"AoS<->ASTA", "DA<->ASTA", "AoS<->DA",
                                         "ASTA<->ASTA"};

/* What each algorithm must do.  MUST: every case converts.  SOME: cases
 * may be refused (the planner can route around the algorithm, e.g. when
 * one tile holds everything) but at least one must convert.  ANY: either. */
typedef enum need { ANY, SOME, MUST } need;
static const need needs[5][NPAIRS] = {
    /*           AOS_ASTA DA_ASTA AOS_DA ASTA_ASTA */
    [DL_ALGO_AUTO] = {MUST, MUST, MUST, MUST},
    [DL_ALGO_BS] = {MUST, ANY, MUST, MUST},
    [DL_ALGO_PTTWAC] = {MUST, MUST, SOME, MUST},
    [DL_ALGO_PIPT] = {ANY, MUST, SOME, ANY},
    [DL_ALGO_OOP] = {MUST, MUST, MUST, MUST},
};

/* Counts chosen to hit full tiles only, tails, primes, M < T and several
 * work-groups; tiles include non-powers of two. */
static const size_t counts[] = {97, 1000, 4099, 45, 256, 3001, 17, 20011};
static const size_t tiles[] = {16, 8, 32, 4, 64, 3, 128, 7, 100};
#define NCOUNTS (sizeof counts / sizeof *counts)
#define NTILES  (sizeof tiles / sizeof *tiles)

static void run_matrix(fixture *fx, dl_algo algo)
{
    int converted[NPAIRS] = {0}, refused[NPAIRS] = {0};
    dl_engine_stats s0, s1;
    dl_engine_get_stats(fx->engine, &s0);
    clock_t c0 = clock();
    for (int p = 0; p < NPAIRS; p++)
        for (size_t r = 0; r < NRECS; r++) {
            size_t k = r + (size_t)p * 3 + (size_t)algo * 5;
            size_t m = counts[k % NCOUNTS], t = tiles[k % NTILES];
            size_t t2 = tiles[(k + 4) % NTILES];
            size_t from = 1, to = t;
            if (p == DA_ASTA)
                from = DL_TILE_DA;
            else if (p == AOS_DA)
                to = DL_TILE_DA;
            else if (p == ASTA_ASTA)
                from = t2;
            if (r % 2) { /* start from the other side */
                size_t x = from;
                from = to;
                to = x;
            }
            outcome o = round_trip(fx, fx->cl.queue, r, m, from, to, algo,
                                   needs[algo][p] == MUST);
            converted[p] += o == CONVERTED;
            refused[p] += o == UNSUPPORTED;
        }
    dl_engine_get_stats(fx->engine, &s1);
    printf("algo %-6s:", dl_algo_name(algo));
    for (int p = 0; p < NPAIRS; p++) {
        printf(" %s %d ok/%d refused;", pair_names[p], converted[p],
               refused[p]);
        if (needs[algo][p] == SOME && converted[p] == 0)
            fail_msg("algorithm %s converted no %s case", dl_algo_name(algo),
                     pair_names[p]);
    }
    printf(" %llu programs built, %.1f s CPU\n",
           (unsigned long long)(s1.programs_built - s0.programs_built),
           (double)(clock() - c0) / CLOCKS_PER_SEC);
    fflush(stdout);
}

static void test_matrix_auto(void **state)
{
    run_matrix(*state, DL_ALGO_AUTO);
}
static void test_matrix_bs(void **state)
{
    run_matrix(*state, DL_ALGO_BS);
}
static void test_matrix_pttwac(void **state)
{
    run_matrix(*state, DL_ALGO_PTTWAC);
}
static void test_matrix_pipt(void **state)
{
    run_matrix(*state, DL_ALGO_PIPT);
}
static void test_matrix_oop(void **state)
{
    run_matrix(*state, DL_ALGO_OOP);
}

/* Tiny and degenerate counts: nothing to move, or a single partial tile. */
static void test_small_counts(void **state)
{
    fixture *fx = *state;
    static const size_t small[] = {0, 1, 2, 3, 5};
    for (int a = DL_ALGO_AUTO; a <= DL_ALGO_OOP; a++)
        for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
            size_t m = small[i];
            int must = a == DL_ALGO_AUTO || a == DL_ALGO_OOP || m <= 1;
            round_trip(fx, fx->cl.queue, i % NRECS, m, 1, 4, (dl_algo)a, must);
            round_trip(fx, fx->cl.queue, (i + 3) % NRECS, m, DL_TILE_DA, 2,
                       (dl_algo)a, must);
        }
}

/* Many work-groups: a large buffer through every algorithm's main path. */
static void test_large(void **state)
{
    fixture *fx = *state;
    round_trip(fx, fx->cl.queue, 0, 200003, 1, 32, DL_ALGO_AUTO, 1);
    round_trip(fx, fx->cl.queue, 0, 200003, 1, 32, DL_ALGO_BS, 1);
    round_trip(fx, fx->cl.queue, 3, 100003, DL_TILE_DA, 32, DL_ALGO_PIPT, 1);
    round_trip(fx, fx->cl.queue, 5, 50021, 1, DL_TILE_DA, DL_ALGO_AUTO, 1);
    round_trip(fx, fx->cl.queue, 0, 200003, 1, 32, DL_ALGO_PTTWAC, 1);
    round_trip(fx, fx->cl.queue, 3, 100003, DL_TILE_DA, 32, DL_ALGO_PTTWAC, 1);
}

/* Whether the automatic plan for DA -> ASTA(tile) has a step named
 * `step` ("regroup": the staged route; "cycles": cycle following). */
static int plans_step(fixture *fx, dl_record *rec, size_t m, size_t tile,
                      const char *step)
{
    dl_layout a = dl_layout_asta(rec, m, DL_TILE_DA);
    dl_layout b = dl_layout_asta(rec, m, tile);
    dl_plan *p;
    assert_int_equal(dl_plan_create(fx->engine, &a, &b, DL_ALGO_AUTO, &p),
                     DL_SUCCESS);
    int has = strstr(dl_plan_describe(p), step) != NULL;
    dl_plan_release(p);
    return has;
}

/* The CPU routes of DA <-> ASTA: cycle following for long chunks, the
 * staged route (blocks that divide Q, blocks with a partial last one, one
 * block holding everything) for short ones; primes; records of 1 to 64
 * parts.  On a CPU both routes must be taken. */
static void test_staged(void **state)
{
    fixture *fx = *state;
    static const size_t counts[] = {20011, 4096, 30000, 65537, 997, 6007};
    static const size_t tiles[] = {16, 2, 3, 32, 7, 100, 4};
    int staged = 0, cycles = 0;
    for (size_t r = 0; r < NRECS; r++)
        for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
            size_t m = counts[i],
                   t = tiles[(i + r) % (sizeof tiles / sizeof *tiles)];
            dl_record *rec = dl_test_record(r);
            staged += plans_step(fx, rec, m, t, "regroup");
            cycles += plans_step(fx, rec, m, t, "cycles");
            round_trip_rec(fx, fx->cl.queue, rec, dl_test_recs[r].name, m,
                           DL_TILE_DA, t, DL_ALGO_AUTO, 1);
            dl_record_release(rec);
        }
    /* Wide records (64 one-byte fields, 20 floats); 3 floats where one
     * block nearly holds everything. */
    static const struct {
        uint32_t n, elem;
        size_t m, t;
    } wide[] = {{64, 1, 40009, 8},
                {20, 4, 20000, 32},
                {64, 1, 300, 4},
                {3, 4, 5463, 8}}; /* Q = the most blocks, and a tail beyond */
    for (size_t w = 0; w < sizeof wide / sizeof *wide; w++) {
        dl_field f[64];
        for (uint32_t k = 0; k < wide[w].n; k++)
            f[k] = (dl_field){k * wide[w].elem, wide[w].elem};
        dl_record *rec;
        assert_int_equal(dl_record_create(f, wide[w].n, 0, &rec), DL_SUCCESS);
        staged += plans_step(fx, rec, wide[w].m, wide[w].t, "regroup");
        cycles += plans_step(fx, rec, wide[w].m, wide[w].t, "cycles");
        round_trip_rec(fx, fx->cl.queue, rec, "wide", wide[w].m, DL_TILE_DA,
                       wide[w].t, DL_ALGO_AUTO, 1);
        dl_record_release(rec);
    }
    cl_device_type type = 0;
    assert_int_equal(clGetDeviceInfo(fx->cl.device, CL_DEVICE_TYPE, sizeof type,
                                     &type, NULL),
                     CL_SUCCESS);
    printf("staged route in %d cases, cycles in %d\n", staged, cycles);
    if (type & CL_DEVICE_TYPE_CPU)
        assert_true(staged >= 10 && cycles >= 20);
}

/* An ELL-style tall matrix: rows x cols scalars, row-major (AoS) <->
 * ASTA(T), checked element by element against the tiled transpose. */
static void check_tall(fixture *fx, uint32_t elem, size_t rows, uint32_t cols,
                       size_t tile, dl_algo algo)
{
    printf("  %-6s tall %zu x %u of %u bytes, T=%zu\n", dl_algo_name(algo),
           rows, cols, elem, tile);
    fflush(stdout);
    dl_record *rec;
    dl_layout asta;
    assert_int_equal(dl_layout_tall(elem, rows, cols, tile, &rec, &asta),
                     DL_SUCCESS);
    dl_layout aos = dl_layout_aos(rec, rows);
    size_t bytes = rows * cols * elem;
    unsigned char *m = malloc(bytes), *got = malloc(bytes);
    assert_true(m && got);
    dl_test_fill(m, bytes);
    cl_mem buf = dl_test_buffer(&fx->cl, m, bytes);
    dl_status st = dl_enqueue_convert(fx->engine, fx->cl.queue, buf, &aos,
                                      &asta, algo, 0, NULL, NULL);
    if (st != DL_SUCCESS)
        print_error("tall %zu x %u: %s\n", rows, cols, dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    dl_test_read(&fx->cl, buf, got, bytes);
    size_t full = rows / tile;
    for (size_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c++) {
            size_t q = r / tile, t = r % tile;
            size_t w = q < full ? tile : rows % tile;
            size_t at = (q * tile * cols + c * w + t) * elem;
            if (memcmp(got + at, m + (r * cols + c) * elem, elem) != 0)
                fail_msg("tall %zu x %u T=%zu algo %s: element (%zu, %u) "
                         "not at element %zu",
                         rows, cols, tile, dl_algo_name(algo), r, c, at / elem);
        }
    assert_int_equal(dl_enqueue_convert(fx->engine, fx->cl.queue, buf, &asta,
                                        &aos, algo, 0, NULL, NULL),
                     DL_SUCCESS);
    dl_test_read(&fx->cl, buf, got, bytes);
    assert_memory_equal(got, m, bytes);
    clReleaseMemObject(buf);
    free(m);
    free(got);
    dl_record_release(rec);
}

static void test_tall_ell(void **state)
{
    fixture *fx = *state;
    const dl_algo algos[] = {DL_ALGO_AUTO, DL_ALGO_BS, DL_ALGO_OOP,
                             DL_ALGO_PTTWAC};
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
        check_tall(fx, 4, 5003, 9, 32, algos[a]); /* float values */
        check_tall(fx, 8, 1999, 5, 16, algos[a]); /* double values */
    }
    check_tall(fx, 4, 4000, 27, 64, DL_ALGO_AUTO); /* column indices */
}

/* argv[1]: run only the tests matching this pattern (e.g. "*_pipt");
 * argv[2]: skip those matching it.  meson runs the groups in parallel. */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        cmocka_set_skip_filter(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_auto),
        cmocka_unit_test(test_matrix_bs),
        cmocka_unit_test(test_matrix_pttwac),
        cmocka_unit_test(test_matrix_pipt),
        cmocka_unit_test(test_matrix_oop),
        cmocka_unit_test(test_small_counts),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_staged),
        cmocka_unit_test(test_tall_ell),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
