/* test_queue.c - conversions as OpenCL commands: wait lists honoured (a
 * user event gates the conversion), returned events, out-of-order queues,
 * and the engine's caches (a repeated shape compiles nothing). */
#include "dl_test.h"

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
    return dl_test_fixture_setup(state, "test_queue");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

/* ----------------------------------------------------------------- events */

/* Status of an event: CL_COMPLETE (0) or a positive "not yet" state. */
static cl_int event_status(cl_event ev)
{
    cl_int s = -1;
    assert_int_equal(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                    sizeof s, &s, NULL),
                     CL_SUCCESS);
    return s;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A user event gates the conversion: it must not start before the gate
 * opens, so it converts the data written meanwhile through another queue,
 * not what the buffer held when the conversion was enqueued. */
static void gated(fixture *fx, dl_algo algo, size_t rec_index, size_t m,
                  size_t from, size_t to)
{
    char a_name[32], b_name[32];
    printf("  %-6s %s, M=%zu, %s -> %s\n", dl_algo_name(algo),
           dl_test_recs[rec_index].name, m,
           dl_test_layout_name(a_name, sizeof a_name, m, from),
           dl_test_layout_name(b_name, sizeof b_name, m, to));
    fflush(stdout);
    dl_record *rec = dl_test_record(rec_index);
    size_t bytes = m * dl_record_size(rec);
    unsigned char *stale = malloc(bytes), *in = malloc(bytes);
    unsigned char *want = malloc(bytes), *got = malloc(bytes);
    assert_true(stale && in && want && got);
    dl_test_fill(stale, bytes);
    dl_test_fill(in, bytes);
    memcpy(want, in, bytes);
    dl_layout a = dl_layout_asta(rec, m, from), b = dl_layout_asta(rec, m, to);
    assert_int_equal(dl_convert_host(want, bytes, &a, &b), DL_SUCCESS);

    cl_int err;
    cl_mem buf = dl_test_buffer(&fx->cl, stale, bytes);
    cl_event gate = clCreateUserEvent(fx->cl.context, &err), done = NULL;
    assert_int_equal(err, CL_SUCCESS);
    dl_status st = dl_enqueue_convert(fx->engine, fx->cl.queue, buf, &a, &b,
                                      algo, 1, &gate, &done);
    if (st != DL_SUCCESS)
        print_error("gated %s: %s\n", dl_algo_name(algo), dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    assert_int_equal(clFlush(fx->cl.queue), CL_SUCCESS);
    sleep_ms(50);
    assert_true(event_status(done) > CL_COMPLETE);

    cl_command_queue other =
        clCreateCommandQueue(fx->cl.context, fx->cl.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(
        clEnqueueWriteBuffer(other, buf, CL_TRUE, 0, bytes, in, 0, NULL, NULL),
        CL_SUCCESS);
    clReleaseCommandQueue(other);
    assert_true(event_status(done) > CL_COMPLETE);

    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_int_equal(event_status(done), CL_COMPLETE);
    cl_command_queue evq = NULL;
    clGetEventInfo(done, CL_EVENT_COMMAND_QUEUE, sizeof evq, &evq, NULL);
    assert_ptr_equal(evq, fx->cl.queue);
    dl_test_read(&fx->cl, buf, got, bytes);
    if (memcmp(got, want, bytes) != 0)
        print_error("gated conversion (algo %s) ignored its wait list\n",
                    dl_algo_name(algo));
    assert_memory_equal(got, want, bytes);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
    free(stale);
    free(in);
    free(want);
    free(got);
    dl_record_release(rec);
}

static void test_wait_list_gates(void **state)
{
    fixture *fx = *state;
    gated(fx, DL_ALGO_AUTO, 0, 1000, 1, 16);         /* one step        */
    gated(fx, DL_ALGO_AUTO, 5, 3001, 1, DL_TILE_DA); /* staged, 2 steps */
    gated(fx, DL_ALGO_AUTO, 3, 1001, 8, 32);         /* ASTA -> ASTA    */
    gated(fx, DL_ALGO_BS, 1, 999, 16, 1);
    gated(fx, DL_ALGO_PIPT, 0, 1000, 16, DL_TILE_DA);
    gated(fx, DL_ALGO_OOP, 2, 777, 1, 8);
    gated(fx, DL_ALGO_AUTO, 0, 1000, 16, 16);     /* identity: marker */
    gated(fx, DL_ALGO_AUTO, 0, 1, 1, DL_TILE_DA); /* nothing to move  */
    gated(fx, DL_ALGO_PTTWAC, 0, 1000, DL_TILE_DA, 16);
}

/* On an out-of-order queue only events order the commands: a write, three
 * chained conversions and a read, each waiting on the previous event. */
static void test_out_of_order_queue(void **state)
{
    fixture *fx = *state;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(fx->cl.context, fx->cl.device,
                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS) {
        printf("out-of-order queues unsupported (%d): skipped\n", (int)err);
        skip();
    }
    dl_record *rec = dl_test_record(6);
    const size_t m = 5003, steps[] = {1, 32, 8, DL_TILE_DA, 1};
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes), *got = malloc(bytes);
    assert_true(in && got);
    dl_test_fill(in, bytes);
    cl_mem buf =
        clCreateBuffer(fx->cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int algo = DL_ALGO_AUTO; algo <= DL_ALGO_OOP; algo += 4) {
        cl_event ev;
        assert_int_equal(
            clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, in, 0, NULL, &ev),
            CL_SUCCESS);
        for (int s = 0; s + 1 < 5; s++) {
            dl_layout a = dl_layout_asta(rec, m, steps[s]);
            dl_layout b = dl_layout_asta(rec, m, steps[s + 1]);
            cl_event next = NULL;
            dl_status st = dl_enqueue_convert(fx->engine, q, buf, &a, &b,
                                              (dl_algo)algo, 1, &ev, &next);
            if (st != DL_SUCCESS)
                print_error("out-of-order step %d: %s\n", s, dl_last_error());
            assert_int_equal(st, DL_SUCCESS);
            clReleaseEvent(ev);
            ev = next;
        }
        memset(got, 0, bytes);
        assert_int_equal(
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, got, 1, &ev, NULL),
            CL_SUCCESS);
        clReleaseEvent(ev);
        assert_memory_equal(got, in, bytes); /* back to AoS */
    }
    /* The same, checking an intermediate layout against the host. */
    dl_layout aos = dl_layout_aos(rec, m), t7 = dl_layout_asta(rec, m, 7);
    cl_event w, c;
    assert_int_equal(
        clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, in, 0, NULL, &w),
        CL_SUCCESS);
    assert_int_equal(dl_enqueue_convert(fx->engine, q, buf, &aos, &t7,
                                        DL_ALGO_AUTO, 1, &w, &c),
                     DL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, got, 1, &c, NULL),
        CL_SUCCESS);
    assert_int_equal(dl_convert_host(in, bytes, &aos, &t7), DL_SUCCESS);
    assert_memory_equal(got, in, bytes);
    clReleaseEvent(w);
    clReleaseEvent(c);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(q);
    free(in);
    free(got);
    dl_record_release(rec);
}

/* ------------------------------------------------------------------ cache */

/* The second conversion of a shape compiles nothing, through the cached
 * plan and through a fresh plan alike. */
static void test_cache(void **state)
{
    fixture *fx = *state;
    dl_record *rec = dl_test_record(6);
    const size_t m = 2000;
    size_t bytes = m * dl_record_size(rec);
    unsigned char *in = malloc(bytes);
    assert_non_null(in);
    dl_test_fill(in, bytes);
    cl_mem buf = dl_test_buffer(&fx->cl, in, bytes);
    static const size_t shapes[][2] = {
        {1, 24}, {24, 1}, {DL_TILE_DA, 24}, {1, DL_TILE_DA}, {24, 40}};
    for (int algo = DL_ALGO_AUTO; algo <= DL_ALGO_OOP; algo++)
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            dl_layout a = dl_layout_asta(rec, m, shapes[s][0]);
            dl_layout b = dl_layout_asta(rec, m, shapes[s][1]);
            dl_engine_stats s0, s1, s2;
            dl_engine_get_stats(fx->engine, &s0);
            dl_status st = dl_enqueue_convert(fx->engine, fx->cl.queue, buf, &a,
                                              &b, (dl_algo)algo, 0, NULL, NULL);
            if (st == DL_UNSUPPORTED)
                continue;
            assert_int_equal(st, DL_SUCCESS);
            dl_engine_get_stats(fx->engine, &s1);
            assert_int_equal(s1.conversions, s0.conversions + 1);
            assert_true(s1.launches > s0.launches);
            /* again: the buffer now holds ASTA(to), convert it back */
            assert_int_equal(dl_enqueue_convert(fx->engine, fx->cl.queue, buf,
                                                &b, &a, (dl_algo)algo, 0, NULL,
                                                NULL),
                             DL_SUCCESS);
            dl_engine_get_stats(fx->engine, &s1);
            assert_int_equal(dl_enqueue_convert(fx->engine, fx->cl.queue, buf,
                                                &a, &b, (dl_algo)algo, 0, NULL,
                                                NULL),
                             DL_SUCCESS);
            dl_plan *p = NULL;
            assert_int_equal(
                dl_plan_create(fx->engine, &b, &a, (dl_algo)algo, &p),
                DL_SUCCESS);
            assert_int_equal(
                dl_plan_enqueue(p, fx->cl.queue, buf, 0, NULL, NULL),
                DL_SUCCESS);
            dl_plan_release(p);
            dl_engine_get_stats(fx->engine, &s2);
            if (s2.programs_built != s1.programs_built)
                print_error("algo %s, %zu -> %zu: a repeated shape built %llu "
                            "programs\n",
                            dl_algo_name((dl_algo)algo), shapes[s][0],
                            shapes[s][1],
                            (unsigned long long)(s2.programs_built -
                                                 s1.programs_built));
            assert_int_equal(s2.programs_built, s1.programs_built);
            assert_int_equal(s2.conversions, s1.conversions + 2);
        }
    unsigned char *got = malloc(bytes);
    assert_non_null(got);
    dl_test_read(&fx->cl, buf, got, bytes);
    assert_memory_equal(got, in, bytes); /* every pair was a round trip */
    free(got);
    clReleaseMemObject(buf);
    free(in);
    dl_record_release(rec);
}

/* A restore after a marshal builds no program on CPU devices: the AoS <->
 * DA route there is bs and staged cycles, and DA <-> ASTA with a tail
 * adds the tail split; each of their programs holds both directions.
 * 100,000 records of 3 floats take ASTA(5000) on the way to DA, which
 * divides the count (no tail split); 20,011 to ASTA(32) leave a tail. */
static void test_restore_builds_nothing(void **state)
{
    fixture *fx = *state;
    dl_record *rec = dl_test_record(0);
    static const struct {
        size_t count, from, to, built;
        const char *route[2]; /* a CPU device's, in dl_plan_describe */
    } cases[] = {{100000, 1, DL_TILE_DA, 2, {"bs(", "cycles("}},
                 {20011, DL_TILE_DA, 32, 2, {"cycles(", "cycles("}}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const size_t m = cases[i].count;
        size_t bytes = m * dl_record_size(rec);
        unsigned char *in = malloc(bytes), *got = malloc(bytes);
        assert_true(in && got);
        dl_test_fill(in, bytes);
        cl_mem buf = dl_test_buffer(&fx->cl, in, bytes);
        dl_engine *e;
        assert_int_equal(dl_engine_create(fx->cl.context, fx->cl.device, &e),
                         DL_SUCCESS);
        dl_layout a = dl_layout_asta(rec, m, cases[i].from);
        dl_layout b = dl_layout_asta(rec, m, cases[i].to);
        dl_engine_stats s0, s1, s2;
        dl_engine_get_stats(e, &s0);
        dl_plan *p = NULL; /* builds the marshal's programs */
        assert_int_equal(dl_plan_create(e, &a, &b, DL_ALGO_AUTO, &p),
                         DL_SUCCESS);
        const char *route = dl_plan_describe(p);
        int cpu = strstr(route, cases[i].route[0]) &&
                  strstr(route, cases[i].route[1]);
        print_message("marshal: %s\n", route);
        assert_int_equal(dl_plan_enqueue(p, fx->cl.queue, buf, 0, NULL, NULL),
                         DL_SUCCESS);
        dl_plan_release(p);
        dl_engine_get_stats(e, &s1);
        assert_int_equal(dl_enqueue_convert(e, fx->cl.queue, buf, &b, &a,
                                            DL_ALGO_AUTO, 0, NULL, NULL),
                         DL_SUCCESS);
        dl_engine_get_stats(e, &s2);
        dl_test_read(&fx->cl, buf, got, bytes);
        assert_memory_equal(got, in, bytes);
        if (cpu) {
            assert_int_equal(s1.programs_built - s0.programs_built,
                             cases[i].built);
            assert_int_equal(s2.programs_built, s1.programs_built);
        }
        dl_engine_release(e);
        clReleaseMemObject(buf);
        free(in);
        free(got);
    }
    dl_record_release(rec);
}

/* More shapes than the engine's plan cache holds: the plans beyond it are
 * made per call and released, and every conversion is still right.  BS
 * takes the count as an argument, so the counts share two programs. */
static void test_plan_cache_overflow(void **state)
{
    fixture *fx = *state;
    dl_record *rec = dl_test_record(2);
    dl_engine *e;
    assert_int_equal(dl_engine_create(fx->cl.context, fx->cl.device, &e),
                     DL_SUCCESS);
    for (size_t m = 300; m < 400; m++) {
        size_t bytes = m * dl_record_size(rec);
        unsigned char *in = malloc(bytes), *want = malloc(bytes);
        unsigned char *got = malloc(bytes);
        assert_true(in && want && got);
        dl_test_fill(in, bytes);
        memcpy(want, in, bytes);
        dl_layout a = dl_layout_aos(rec, m), b = dl_layout_asta(rec, m, 16);
        assert_int_equal(dl_convert_host(want, bytes, &a, &b), DL_SUCCESS);
        cl_mem buf = dl_test_buffer(&fx->cl, in, bytes);
        assert_int_equal(dl_enqueue_convert(e, fx->cl.queue, buf, &a, &b,
                                            DL_ALGO_BS, 0, NULL, NULL),
                         DL_SUCCESS);
        dl_test_read(&fx->cl, buf, got, bytes);
        assert_memory_equal(got, want, bytes);
        clReleaseMemObject(buf);
        free(in);
        free(want);
        free(got);
    }
    dl_engine_stats st;
    dl_engine_get_stats(e, &st);
    assert_int_equal(st.conversions, 100);
    assert_int_equal(st.programs_built, 1);
    dl_engine_release(e);
    dl_record_release(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_list_gates),
        cmocka_unit_test(test_out_of_order_queue),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_plan_cache_overflow),
        cmocka_unit_test(test_restore_builds_nothing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
