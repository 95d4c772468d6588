/* test_errors.c - every bad input gets an error code and its own message
 * (dl_last_error), and the data stays untouched (read back, compared). */
#include "dl_test.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 1000

typedef struct fixture {
    dl_test_cl cl;
    dl_engine *engine;
    dl_record *rec;   /* 3 x 4 bytes */
    dl_record *other; /* 2 x 4 bytes */
    dl_record *twin;  /* the same shape as rec, another object */
    cl_mem buf;       /* exactly COUNT records */
    unsigned char *orig;
    size_t bytes;
} fixture;

/* Leaves a message no test produces, so each check below sees the message
 * of its own failure and not a stale one. */
static const char *arm(void)
{
    static char sentinel[512];
    dl_record *r;
    dl_record_create_uniform(DL_MAX_FIELDS + 7, 1, &r);
    snprintf(sentinel, sizeof sentinel, "%s", dl_last_error());
    return sentinel;
}

static void check_fail(dl_status got, dl_status want, const char *sentinel,
                       const char *call)
{
    const char *msg = dl_last_error();
    if (got != want)
        print_error("%s returned %s (%s), expected %s\n", call,
                    dl_status_name(got), msg, dl_status_name(want));
    assert_int_equal(got, want);
    assert_non_null(msg);
    if (msg[0] == '\0' || strcmp(msg, sentinel) == 0)
        print_error("%s set no message of its own\n", call);
    assert_true(msg[0] != '\0');
    assert_string_not_equal(msg, sentinel);
}

#define EXPECT_FAIL(call, want)                                                \
    do {                                                                       \
        const char *sentinel_ = arm();                                         \
        check_fail((call), (want), sentinel_, #call);                          \
    } while (0)

static void check_untouched(fixture *fx)
{
    unsigned char *now = malloc(fx->bytes);
    assert_non_null(now);
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    dl_test_read(&fx->cl, fx->buf, now, fx->bytes);
    assert_memory_equal(now, fx->orig, fx->bytes);
    free(now);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    if (!fx || dl_test_cl_open(&fx->cl) != 0)
        return -1;
    dl_test_seed("test_errors");
    if (dl_engine_create(fx->cl.context, fx->cl.device, &fx->engine) ||
        dl_record_create_uniform(3, 4, &fx->rec) ||
        dl_record_create_uniform(2, 4, &fx->other) ||
        dl_record_create_uniform(3, 4, &fx->twin))
        return -1;
    fx->bytes = COUNT * 12;
    fx->orig = malloc(fx->bytes);
    if (!fx->orig)
        return -1;
    dl_test_fill(fx->orig, fx->bytes);
    fx->buf = dl_test_buffer(&fx->cl, fx->orig, fx->bytes);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    clReleaseMemObject(fx->buf);
    dl_record_release(fx->rec);
    dl_record_release(fx->other);
    dl_record_release(fx->twin);
    dl_engine_release(fx->engine);
    dl_test_cl_close(&fx->cl);
    free(fx->orig);
    free(fx);
    return 0;
}

/* ------------------------------------------------------------ host side */

static void test_host_errors(void **state)
{
    fixture *fx = *state;
    unsigned char *data = malloc(fx->bytes);
    assert_non_null(data);
    memcpy(data, fx->orig, fx->bytes);
    dl_layout aos = dl_layout_aos(fx->rec, COUNT);
    dl_layout asta = dl_layout_asta(fx->rec, COUNT, 16);

    EXPECT_FAIL(dl_convert_host(data, fx->bytes - 1, &aos, &asta),
                DL_BUFFER_TOO_SMALL);
    dl_layout t0 = dl_layout_asta(fx->rec, COUNT, 0);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &aos, &t0), DL_INVALID_LAYOUT);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &t0, &aos), DL_INVALID_LAYOUT);
    dl_layout fewer = dl_layout_asta(fx->rec, COUNT - 1, 16);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &aos, &fewer),
                DL_INCOMPATIBLE);
    dl_layout other = dl_layout_asta(fx->other, COUNT, 16);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &aos, &other),
                DL_INCOMPATIBLE);
    dl_layout huge = dl_layout_aos(fx->rec, SIZE_MAX / 4);
    dl_layout huge_da = dl_layout_da(fx->rec, SIZE_MAX / 4);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &huge, &huge_da),
                DL_SIZE_OVERFLOW);
    EXPECT_FAIL(dl_convert_host(NULL, fx->bytes, &aos, &asta),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, NULL, &asta),
                DL_INVALID_ARGUMENT);
    dl_layout norec = dl_layout_aos(NULL, COUNT);
    EXPECT_FAIL(dl_convert_host(data, fx->bytes, &norec, &asta),
                DL_INVALID_ARGUMENT);
    assert_memory_equal(data, fx->orig, fx->bytes);

    /* The same record shape as another object is compatible. */
    dl_layout twin = dl_layout_asta(fx->twin, COUNT, 16);
    assert_int_equal(dl_convert_host(data, fx->bytes, &aos, &twin), DL_SUCCESS);
    free(data);
}

static void test_record_errors(void **state)
{
    (void)state;
    dl_record *r = NULL;
    const dl_field zero[2] = {{0, 4}, {4, 0}};
    EXPECT_FAIL(dl_record_create(zero, 2, 0, &r), DL_INVALID_LAYOUT);
    const dl_field big[1] = {{0, DL_MAX_FIELD_SIZE + 1}};
    EXPECT_FAIL(dl_record_create(big, 1, 0, &r), DL_UNSUPPORTED);
    const dl_field far[1] = {{UINT32_MAX - 8, 4}};
    EXPECT_FAIL(dl_record_create(far, 1, 0, &r), DL_SIZE_OVERFLOW);
    const dl_field overlap[2] = {{0, 8}, {7, 1}};
    EXPECT_FAIL(dl_record_create(overlap, 2, 0, &r), DL_INVALID_LAYOUT);
    EXPECT_FAIL(dl_record_create_uniform(4, 0, &r), DL_INVALID_LAYOUT);
    EXPECT_FAIL(dl_record_create_uniform(DL_MAX_FIELDS + 1, 1, &r),
                DL_UNSUPPORTED);
    assert_null(r);
    dl_algo a = DL_ALGO_BS;
    EXPECT_FAIL(dl_algo_parse("bogus", &a), DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_algo_parse("BS", &a), DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_algo_parse("", &a), DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_algo_parse(NULL, &a), DL_INVALID_ARGUMENT);
    assert_int_equal(a, DL_ALGO_BS);
}

/* ---------------------------------------------------------- device side */

static void test_engine_errors(void **state)
{
    fixture *fx = *state;
    dl_engine *e = NULL;
    EXPECT_FAIL(dl_engine_create(NULL, fx->cl.device, &e), DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_engine_create(fx->cl.context, NULL, &e),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_engine_create(fx->cl.context, fx->cl.device, NULL),
                DL_INVALID_ARGUMENT);
    assert_null(e);
    dl_layout aos = dl_layout_aos(fx->rec, COUNT);
    dl_layout asta = dl_layout_asta(fx->rec, COUNT, 16);
    dl_plan *p = NULL;
    EXPECT_FAIL(dl_plan_create(NULL, &aos, &asta, DL_ALGO_AUTO, &p),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_enqueue_convert(NULL, fx->cl.queue, fx->buf, &aos, &asta,
                                   DL_ALGO_AUTO, 0, NULL, NULL),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_plan_enqueue(NULL, fx->cl.queue, fx->buf, 0, NULL, NULL),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_plan_create(fx->engine, &aos, &asta, (dl_algo)17, &p),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_plan_create(fx->engine, &aos, &asta, (dl_algo)-1, &p),
                DL_INVALID_ARGUMENT);
    EXPECT_FAIL(dl_plan_create(fx->engine, &aos, &asta, DL_ALGO_AUTO, NULL),
                DL_INVALID_ARGUMENT);
    assert_null(p);
    check_untouched(fx);
}

/* Calls dl_enqueue_convert expecting `want`; no event may be handed out. */
static void convert_fails(fixture *fx, cl_command_queue q, cl_mem buf,
                          const dl_layout *from, const dl_layout *to,
                          dl_algo algo, cl_uint n, const cl_event *wait,
                          dl_status want, const char *what)
{
    cl_event ev = NULL;
    const char *sentinel = arm();
    dl_status st =
        dl_enqueue_convert(fx->engine, q, buf, from, to, algo, n, wait, &ev);
    check_fail(st, want, sentinel, what);
    assert_null(ev);
}

static void test_convert_errors(void **state)
{
    fixture *fx = *state;
    cl_command_queue q = fx->cl.queue;
    dl_layout aos = dl_layout_aos(fx->rec, COUNT);
    dl_layout asta = dl_layout_asta(fx->rec, COUNT, 16);
    dl_layout da = dl_layout_da(fx->rec, COUNT);
    dl_layout t0 = dl_layout_asta(fx->rec, COUNT, 0);
    dl_layout fewer = dl_layout_asta(fx->rec, COUNT - 1, 16);
    dl_layout other = dl_layout_asta(fx->other, COUNT, 16);
    dl_layout huge = dl_layout_aos(fx->rec, SIZE_MAX / 4);
    dl_layout huge_da = dl_layout_da(fx->rec, SIZE_MAX / 4);
    dl_layout more = dl_layout_aos(fx->rec, COUNT + 1);
    dl_layout more_da = dl_layout_da(fx->rec, COUNT + 1);
    dl_layout norec = dl_layout_aos(NULL, COUNT);

    convert_fails(fx, NULL, fx->buf, &aos, &asta, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_ARGUMENT, "NULL queue");
    convert_fails(fx, q, NULL, &aos, &asta, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_ARGUMENT, "NULL buffer");
    convert_fails(fx, q, fx->buf, &aos, &t0, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_LAYOUT, "T = 0");
    convert_fails(fx, q, fx->buf, &t0, &aos, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_LAYOUT, "T = 0 (source)");
    convert_fails(fx, q, fx->buf, &aos, &fewer, DL_ALGO_AUTO, 0, NULL,
                  DL_INCOMPATIBLE, "counts differ");
    convert_fails(fx, q, fx->buf, &aos, &other, DL_ALGO_AUTO, 0, NULL,
                  DL_INCOMPATIBLE, "records differ");
    convert_fails(fx, q, fx->buf, &aos, &norec, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_ARGUMENT, "no record");
    convert_fails(fx, q, fx->buf, &huge, &huge_da, DL_ALGO_AUTO, 0, NULL,
                  DL_SIZE_OVERFLOW, "count * size overflows");
    convert_fails(fx, q, fx->buf, &more, &more_da, DL_ALGO_AUTO, 0, NULL,
                  DL_BUFFER_TOO_SMALL, "buffer one record short");
    convert_fails(fx, q, fx->buf, &aos, &asta, (dl_algo)99, 0, NULL,
                  DL_INVALID_ARGUMENT, "algorithm out of range");
    /* BS transposes inside tiles; it cannot move chunks (DA <-> ASTA). */
    convert_fails(fx, q, fx->buf, &da, &asta, DL_ALGO_BS, 0, NULL,
                  DL_UNSUPPORTED, "bs for DA -> ASTA");

    cl_int err;
    cl_event user = clCreateUserEvent(fx->cl.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    convert_fails(fx, q, fx->buf, &aos, &asta, DL_ALGO_AUTO, 1, NULL,
                  DL_INVALID_ARGUMENT, "num_events 1, list NULL");
    convert_fails(fx, q, fx->buf, &aos, &asta, DL_ALGO_AUTO, 0, &user,
                  DL_INVALID_ARGUMENT, "list given, num_events 0");
    clSetUserEventStatus(user, CL_COMPLETE);
    clReleaseEvent(user);
    check_untouched(fx);
}

/* Queue, buffer or engine from another context. */
static void test_foreign_objects(void **state)
{
    fixture *fx = *state;
    dl_test_cl second;
    assert_int_equal(dl_test_cl_open(&second), 0);
    dl_layout aos = dl_layout_aos(fx->rec, COUNT);
    dl_layout asta = dl_layout_asta(fx->rec, COUNT, 16);
    cl_mem foreign = dl_test_buffer(&second, fx->orig, fx->bytes);
    convert_fails(fx, second.queue, fx->buf, &aos, &asta, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_ARGUMENT, "queue of another context");
    convert_fails(fx, fx->cl.queue, foreign, &aos, &asta, DL_ALGO_AUTO, 0, NULL,
                  DL_INVALID_ARGUMENT, "buffer of another context");
    unsigned char *now = malloc(fx->bytes);
    assert_non_null(now);
    dl_test_read(&second, foreign, now, fx->bytes);
    assert_memory_equal(now, fx->orig, fx->bytes);
    free(now);
    clReleaseMemObject(foreign);
    dl_test_cl_close(&second);
    check_untouched(fx);
}

/* A plan made for one count refuses a buffer too small for it. */
static void test_plan_buffer_too_small(void **state)
{
    fixture *fx = *state;
    dl_layout aos = dl_layout_aos(fx->rec, 2 * COUNT);
    dl_layout asta = dl_layout_asta(fx->rec, 2 * COUNT, 8);
    dl_plan *p = NULL;
    assert_int_equal(dl_plan_create(fx->engine, &aos, &asta, DL_ALGO_AUTO, &p),
                     DL_SUCCESS);
    cl_event ev = NULL;
    EXPECT_FAIL(dl_plan_enqueue(p, fx->cl.queue, fx->buf, 0, NULL, &ev),
                DL_BUFFER_TOO_SMALL);
    assert_null(ev);
    EXPECT_FAIL(dl_plan_enqueue(p, fx->cl.queue, fx->buf, 2, NULL, &ev),
                DL_INVALID_ARGUMENT);
    dl_plan_release(p);
    check_untouched(fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_errors),
        cmocka_unit_test(test_record_errors),
        cmocka_unit_test(test_engine_errors),
        cmocka_unit_test(test_convert_errors),
        cmocka_unit_test(test_foreign_objects),
        cmocka_unit_test(test_plan_buffer_too_small),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
