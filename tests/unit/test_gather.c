/* test_gather.c - reordering on the device (runtime/irregular/gather.c,
 * marshal_kernels/gather.cl): dl_enqueue_gather against the host
 * reference gather_ref, byte for byte over the whole A' (bytes it must not
 * write keep their random contents), for every word size, fields, index
 * sizes, ranges with several steps and with gaps, offsets, out-of-range
 * entries, the partial form under a budget, and its wait list.  Also
 * prints the gather's bandwidth next to a copy's (no assertion on it). */
#include "dl_test.h"
#include "gather.h"
#include "internal.h" /* the engine's device class: both launch forms */
#include "gather_ref.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef dl_test_fixture fixture;

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_gather");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

/* One gather: A of a_count elements, P of p_count entries (values from
 * lo_pad below A's first element to hi_pad past its end, relative to c). */
typedef struct gather_case {
    dl_coalesce_ref ref;
    dl_coalesce_range range;
    unsigned index_bytes;
    size_t a_count, p_count;
} gather_case;

static void fill_index(void *p, unsigned ib, size_t count, size_t a_count,
                       long long c)
{
    for (size_t i = 0; i < count; i++) {
        long long v = (long long)dl_test_range(0, a_count + 5) - 3 - c;
        if (ib == 4)
            ((int32_t *)p)[i] = (int32_t)v;
        else
            ((int64_t *)p)[i] = v;
    }
}

static cl_mem buffer_of(fixture *fx, const void *data, size_t bytes)
{
    return dl_test_buffer(&fx->cl, data, bytes ? bytes : 1);
}

/* Gathers through the device and the reference, with P given (or random
 * when p is NULL), and compares A' whole; `gpu_form`: the launch shape of
 * GPUs (an entry per work-item) on this CPU device. */
static void check_form(fixture *fx, const gather_case *k, const void *p_in,
                       int gpu_form)
{
    size_t elem = k->ref.elem_bytes, a_bytes = k->a_count * elem;
    size_t p_bytes = k->p_count * k->index_bytes;
    size_t out_bytes = k->p_count * elem;
    unsigned char *a = malloc(a_bytes + 1), *p = malloc(p_bytes + 1);
    unsigned char *want = malloc(out_bytes + 1), *got = malloc(out_bytes + 1);
    assert_true(a && p && want && got);
    dl_test_fill(a, a_bytes);
    if (p_in)
        memcpy(p, p_in, p_bytes);
    else
        fill_index(p, k->index_bytes, k->p_count, k->a_count, k->ref.offset);
    dl_test_fill(want, out_bytes);
    cl_mem da = buffer_of(fx, a, a_bytes), dp = buffer_of(fx, p, p_bytes);
    cl_mem dout = buffer_of(fx, want, out_bytes);
    gather_ref(a, k->a_count, p, k->p_count, k->index_bytes, &k->ref, &k->range,
               want);
    int cpu = fx->engine->local_is_global;
    fx->engine->local_is_global = cpu && !gpu_form;
    dl_status st =
        dl_enqueue_gather(fx->engine, fx->cl.queue, da, dp, &k->ref, &k->range,
                          k->index_bytes, dout, 0, NULL, NULL);
    fx->engine->local_is_global = cpu;
    if (st != DL_SUCCESS)
        print_error("gather: %s\n", dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    dl_test_read(&fx->cl, dout, got, out_bytes ? out_bytes : 1);
    if (memcmp(got, want, out_bytes) != 0)
        print_error("wrong A' (%s form) for %zu-byte elements, field "
                    "%zu:%zu, c=%lld, %u-byte indices, range "
                    "{%zu,%zu,%zu,%zu,%zu}\n",
                    gpu_form ? "GPU" : "CPU", elem, k->ref.field_offset,
                    k->ref.field_bytes, k->ref.offset, k->index_bytes,
                    k->range.threads, k->range.steps, k->range.base,
                    k->range.t_stride, k->range.j_stride);
    assert_memory_equal(got, want, out_bytes);
    clReleaseMemObject(da);
    clReleaseMemObject(dp);
    clReleaseMemObject(dout);
    free(a);
    free(p);
    free(want);
    free(got);
}

static void check_with(fixture *fx, const gather_case *k, const void *p_in)
{
    check_form(fx, k, p_in, 0);
    check_form(fx, k, p_in, 1);
}

static void check(fixture *fx, const gather_case *k)
{
    check_with(fx, k, NULL);
}

static dl_coalesce_range one_each(size_t threads)
{
    return (dl_coalesce_range){threads, 1, 0, 1, 0};
}

/* Elements of 1 to 16 bytes (words of 1, 2, 4, 8 and 16 bytes and
 * sizes that need several), work-item counts around the group of 256. */
static void test_element_sizes(void **state)
{
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16};
    static const size_t counts[] = {0, 1, 255, 257, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t n = 0; n < sizeof counts / sizeof *counts; n++) {
            gather_case k = {{sizes[s], 0, 0, 0},
                             one_each(counts[n]),
                             4,
                             300,
                             counts[n] ? counts[n] : 1};
            check(*state, &k);
        }
}

/* A record's field: only its bytes are written in A'. */
static void test_fields(void **state)
{
    static const size_t fields[][2] = {{0, 4}, {4, 4},  {8, 16}, {6, 2},
                                       {3, 5}, {20, 4}, {0, 24}};
    for (size_t f = 0; f < sizeof fields / sizeof *fields; f++) {
        gather_case k = {
            {24, fields[f][0], fields[f][1], 0}, one_each(700), 4, 500, 700};
        check(*state, &k);
    }
}

/* c != 0 and 8-byte indices. */
static void test_offsets_and_index_sizes(void **state)
{
    static const long long offsets[] = {1, -1, 7, -300, 100000};
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++)
        for (unsigned ib = 4; ib <= 8; ib += 4) {
            gather_case k = {
                {8, 0, 0, offsets[o]}, one_each(999), ib, 400, 999};
            check(*state, &k);
        }
}

/* Several steps: ELL (column-major), a row per work-item, entries with
 * gaps (every other one; 4 of every 5), a base, a shared entry, and a
 * range that runs past P. */
static void test_ranges(void **state)
{
    static const dl_coalesce_range ranges[] = {
        {300, 7, 0, 1, 300},        /* ELL: dense                   */
        {300, 7, 0, 7, 1},          /* a row per work-item: dense   */
        {200, 1, 1, 2, 0},          /* every other entry            */
        {100, 4, 3, 5, 1},          /* 4 of every 5, from 3         */
        {50, 3, 10, 2, 40},         /* overlapping, with gaps       */
        {300, 2, 0, 0, 1},          /* every work-item reads 0 and 1 */
        {300, 3, 0, 1, 300},        /* P holds two of the three steps */
        {SIZE_MAX, 2, 5, 3, 1},     /* all of P: counts far past it   */
        {2, SIZE_MAX / 2, 0, 7, 5}, /* gaps, steps far past P     */
        {((size_t)1 << 63) + 1, 2, 0, 2, 3}, /* (count-1)*stride wraps */
    };
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
        size_t p_count = r == 6 ? 600 : 2100;
        gather_case k = {{4, 0, 0, 0}, ranges[r], 8, 1000, p_count};
        check(*state, &k);
        k.ref.elem_bytes = 12;
        k.index_bytes = 4;
        check(*state, &k);
    }
}

/* Entries whose element lies outside A, up to the extremes of 64 bits
 * with offsets that would overflow: zero bytes, never a read outside A. */
static void test_out_of_range(void **state)
{
    static const int64_t p[] = {INT64_MIN,     INT64_MAX,     -1, 0,   99, 100,
                                INT64_MIN + 1, INT64_MAX - 1, 50, -100};
    static const long long offsets[] = {0,         1,         -1,
                                        INT64_MAX, INT64_MIN, -INT64_MAX + 50};
    size_t n = sizeof p / sizeof *p;
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
        gather_case k = {{16, 0, 0, offsets[o]}, one_each(n), 8, 100, n};
        check_with(*state, &k, p);
    }
    int32_t p32[] = {INT32_MIN, INT32_MAX, -1, 0, 99, 100};
    gather_case k = {{2, 0, 0, -5}, one_each(6), 4, 100, 6};
    check_with(*state, &k, p32);
}

/* The extent: what A' must hold. */
static void test_extent(void **state)
{
    (void)state;
    dl_coalesce_ref ref = {12, 0, 0, 0};
    dl_gather_extent x;
    dl_coalesce_range ell = {100, 5, 0, 1, 100};
    assert_int_equal(dl_gather_extent_of(&ref, &ell, 1000, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 100);
    assert_int_equal(x.first, 0);
    assert_int_equal(x.end, 500);
    assert_int_equal(x.bytes, 500 * 12);
    assert_int_equal(dl_gather_extent_of(&ref, &ell, 450, &x), DL_SUCCESS);
    assert_int_equal(x.end, 450); /* capped at P's end */
    dl_coalesce_range none = {0, 5, 0, 1, 100};
    assert_int_equal(dl_gather_extent_of(&ref, &none, 1000, &x), DL_SUCCESS);
    assert_int_equal(x.bytes, 0);
    dl_coalesce_range past = {10, 1, 2000, 1, 0};
    assert_int_equal(dl_gather_extent_of(&ref, &past, 1000, &x), DL_SUCCESS);
    assert_int_equal(x.end - x.first, 0);
    dl_coalesce_range huge = {SIZE_MAX, 2, 0, SIZE_MAX, 1};
    assert_int_equal(dl_gather_extent_of(&ref, &huge, 77, &x), DL_SUCCESS);
    assert_int_equal(x.end, 77); /* overflowing entries are past P */
    dl_coalesce_ref bad = {8, 4, 8, 0};
    assert_int_equal(dl_gather_extent_of(&bad, &ell, 1000, &x),
                     DL_INVALID_ARGUMENT);
}

/* Over a budget only the first K work-items are gathered: K is the most
 * whose A' fits, and gathering K work-items fills just that A'. */
static void test_partial(void **state)
{
    fixture *fx = *state;
    dl_coalesce_ref ref = {8, 0, 0, 0};
    dl_coalesce_range all = one_each(1000);
    dl_gather_extent x;
    assert_int_equal(dl_gather_fit(&ref, &all, 1000, 8000, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 1000); /* fits whole */
    assert_int_equal(dl_gather_fit(&ref, &all, 1000, 3001, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 375);
    assert_int_equal(x.bytes, 3000);
    assert_int_equal(dl_gather_fit(&ref, &all, 1000, 7, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 0); /* not one: decline */
    assert_int_equal(x.bytes, 0);
    /* ELL: each work-item's last step lies near P's end. */
    dl_coalesce_range ell = {100, 4, 0, 1, 100};
    assert_int_equal(dl_gather_fit(&ref, &ell, 400, 8 * 350, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 50);
    assert_int_equal(x.end, 350);
    assert_int_equal(dl_gather_fit(&ref, &ell, 400, 8 * 300, &x), DL_SUCCESS);
    assert_int_equal(x.threads, 0);
    /* DL_GATHER_BUDGET's fraction of the device's memory. */
    cl_ulong mem = 0;
    clGetDeviceInfo(fx->cl.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem,
                    NULL);
    assert_int_equal(dl_gather_budget_bytes(fx->cl.device, 0.25),
                     (size_t)((double)mem * 0.25));
    assert_int_equal(dl_gather_budget_bytes(fx->cl.device, 1.0), mem);
    assert_int_equal(dl_gather_budget_bytes(NULL, 0.25), 0);

    /* The partial gather on the device, into an A' of exactly x.bytes. */
    assert_int_equal(dl_gather_fit(&ref, &ell, 400, 8 * 350, &x), DL_SUCCESS);
    dl_coalesce_range part = ell;
    part.threads = x.threads;
    size_t a_count = 64, p_count = 400;
    uint64_t *a = malloc(a_count * 8), *want = malloc(x.bytes);
    uint64_t *got = malloc(x.bytes);
    int32_t *p = malloc(p_count * 4);
    assert_true(a && want && got && p);
    dl_test_fill(a, a_count * 8);
    dl_test_fill(want, x.bytes);
    fill_index(p, 4, p_count, a_count, 0);
    cl_mem da = dl_test_buffer(&fx->cl, a, a_count * 8);
    cl_mem dp = dl_test_buffer(&fx->cl, p, p_count * 4);
    cl_mem dout = dl_test_buffer(&fx->cl, want, x.bytes);
    gather_ref((unsigned char *)a, a_count, p, x.end, 4, &ref, &part,
               (unsigned char *)want);
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, da, dp, &ref,
                                       &part, 4, dout, 0, NULL, NULL),
                     DL_SUCCESS);
    dl_test_read(&fx->cl, dout, got, x.bytes);
    assert_memory_equal(got, want, x.bytes);
    /* The whole range does not fit that A': refused, nothing enqueued. */
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, da, dp, &ref,
                                       &ell, 4, dout, 0, NULL, NULL),
                     DL_INVALID_ARGUMENT);
    clReleaseMemObject(da);
    clReleaseMemObject(dp);
    clReleaseMemObject(dout);
    free(a);
    free(want);
    free(got);
    free(p);
}

static cl_int event_status(cl_event ev)
{
    cl_int s = -1;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof s, &s, NULL),
                     CL_SUCCESS);
    return s;
}

/* A user event gates the gather: it must not run before the gate opens,
 * so it reads the A written meanwhile through another queue.  With an
 * empty range it still waits, through a marker. */
static void gated(fixture *fx, size_t threads)
{
    size_t n = 500, bytes = n * 4;
    uint32_t *stale = malloc(bytes), *fresh = malloc(bytes);
    uint32_t *want = malloc(bytes), *got = malloc(bytes);
    int32_t *p = malloc(bytes);
    assert_true(stale && fresh && want && got && p);
    dl_test_fill(stale, bytes);
    dl_test_fill(fresh, bytes);
    for (size_t i = 0; i < n; i++)
        p[i] = (int32_t)((i * 37) % n);
    memset(want, 0xab, bytes);
    dl_coalesce_ref ref = {4, 0, 0, 0};
    dl_coalesce_range r = one_each(threads);
    cl_mem da = dl_test_buffer(&fx->cl, stale, bytes);
    cl_mem dp = dl_test_buffer(&fx->cl, p, bytes);
    cl_mem dout = dl_test_buffer(&fx->cl, want, bytes);
    gather_ref((unsigned char *)fresh, n, p, n, 4, &ref, &r,
               (unsigned char *)want);

    cl_int err;
    cl_event gate = clCreateUserEvent(fx->cl.context, &err), done = NULL;
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, da, dp, &ref,
                                       &r, 4, dout, 1, &gate, &done),
                     DL_SUCCESS);
    assert_int_equal(clFlush(fx->cl.queue), CL_SUCCESS);
    struct timespec ts = {0, 50 * 1000000L};
    nanosleep(&ts, NULL);
    assert_true(event_status(done) > CL_COMPLETE);
    cl_command_queue other =
        clCreateCommandQueue(fx->cl.context, fx->cl.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(other, da, CL_TRUE, 0, bytes, fresh,
                                          0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseCommandQueue(other);
    assert_true(event_status(done) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    dl_test_read(&fx->cl, dout, got, bytes);
    assert_memory_equal(got, want, bytes);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseMemObject(da);
    clReleaseMemObject(dp);
    clReleaseMemObject(dout);
    free(stale);
    free(fresh);
    free(want);
    free(got);
    free(p);
}

static void test_wait_list_gates(void **state)
{
    gated(*state, 500);
    gated(*state, 0);
}

static void test_bad_arguments(void **state)
{
    fixture *fx = *state;
    uint32_t data[4] = {0, 1, 2, 3};
    cl_mem m = dl_test_buffer(&fx->cl, data, sizeof data);
    dl_coalesce_ref ref = {4, 0, 0, 0};
    dl_coalesce_range r = one_each(4);
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, m, m, &ref, &r,
                                       2, m, 0, NULL, NULL),
                     DL_INVALID_ARGUMENT);
    dl_coalesce_ref zero = {0, 0, 0, 0};
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, m, m, &zero,
                                       &r, 4, m, 0, NULL, NULL),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, m, NULL, &ref,
                                       &r, 4, m, 0, NULL, NULL),
                     DL_INVALID_ARGUMENT);
    clReleaseMemObject(m);
}

/* ------------------------------------------------------------ bandwidth */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The best of 7 runs of a gather (a buffer copy of the same bytes when
 * `copy`) on a profiling queue: wall seconds (enqueue to finish) and the
 * command's own seconds. */
typedef struct timing {
    double wall, device;
} timing;

static timing best_time(fixture *fx, cl_command_queue q, int copy, cl_mem a,
                        cl_mem p, cl_mem out, const dl_coalesce_ref *ref,
                        const dl_coalesce_range *r, size_t bytes)
{
    timing best = {1e30, 1e30};
    for (int rep = 0; rep < 7; rep++) {
        cl_event ev = NULL;
        double t0 = now_s();
        if (copy)
            assert_int_equal(
                clEnqueueCopyBuffer(q, a, out, 0, 0, bytes, 0, NULL, &ev),
                CL_SUCCESS);
        else
            assert_int_equal(dl_enqueue_gather(fx->engine, q, a, p, ref, r, 4,
                                               out, 0, NULL, &ev),
                             DL_SUCCESS);
        assert_int_equal(clFinish(q), CL_SUCCESS);
        double wall = now_s() - t0;
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start,
                                &start, NULL);
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                NULL);
        clReleaseEvent(ev);
        double device = (double)(end - start) * 1e-9;
        best.wall = wall < best.wall ? wall : best.wall;
        best.device = device < best.device ? device : best.device;
    }
    return best;
}

static void print_timing(const char *what, timing t, double bytes)
{
    printf("    %-17s %7.2f ms %6.1f GB/s  (wall %7.2f ms)\n", what,
           t.device * 1e3, bytes / t.device * 1e-9, t.wall * 1e3);
}

/* The gather of n floats through a permutation and in order, against a
 * copy of the same bytes: bytes moved are A' written + A read + P read. */
static void test_bandwidth_report(void **state)
{
    fixture *fx = *state;
    size_t n = (size_t)1 << 22, bytes = n * 4;
    uint32_t *a = malloc(bytes);
    int32_t *perm = malloc(bytes), *ident = malloc(bytes);
    assert_true(a && perm && ident);
    dl_test_fill(a, bytes);
    for (size_t i = 0; i < n; i++)
        perm[i] = ident[i] = (int32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = dl_test_range(0, i);
        int32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    cl_mem da = dl_test_buffer(&fx->cl, a, bytes);
    cl_mem dperm = dl_test_buffer(&fx->cl, perm, bytes);
    cl_mem dident = dl_test_buffer(&fx->cl, ident, bytes);
    cl_mem dout = dl_test_buffer(&fx->cl, a, bytes);
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(fx->cl.context, fx->cl.device,
                                              CL_QUEUE_PROFILING_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
    dl_coalesce_ref ref = {4, 0, 0, 0};
    dl_coalesce_range r = one_each(n);
    timing copy = best_time(fx, q, 1, da, NULL, dout, &ref, &r, bytes);
    timing seq = best_time(fx, q, 0, da, dident, dout, &ref, &r, bytes);
    timing rnd = best_time(fx, q, 0, da, dperm, dout, &ref, &r, bytes);
    printf("  bandwidth, %zu floats (%.0f MiB), best of 7, bytes read and "
           "written:\n",
           n, bytes / 1048576.0);
    print_timing("copy", copy, 2.0 * bytes);
    print_timing("gather, in order", seq, 3.0 * bytes);
    print_timing("gather, shuffled", rnd, 3.0 * bytes);
    clReleaseCommandQueue(q);
    clReleaseMemObject(da);
    clReleaseMemObject(dperm);
    clReleaseMemObject(dident);
    clReleaseMemObject(dout);
    free(a);
    free(perm);
    free(ident);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_element_sizes),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_offsets_and_index_sizes),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_extent),
        cmocka_unit_test(test_partial),
        cmocka_unit_test(test_wait_list_gates),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_bandwidth_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
