/* test_tuner_reorder.c - the tuner on reordering's predictions (tuner.h,
 * tuner_predict.c) with injected costs and transactions: a program of
 * three launches of a 2M-row SpMV stays plain, a 50-launch loop of it is
 * transformed, a predicted saving below min_saving decides plain without
 * a probe (also when it arrives while the tuner waits, by refresh), and
 * a probe that measures no gain shuts down for good, and a deferral
 * renewed by a refreshed prediction counts as one decision, and a loop
 * whose copy is stale before every launch is never probed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tuner.h"

#define MS 1000000.0

static int kernel_a; /* identity */

/* What rt_reorder_tune.c says of the SpMV measured here: variant and
 * gather program builds 110 ms, 192 MiB of gathers at 10.7 bytes/ns,
 * the gathers redo the plain kernel's reads; 16 -> 1 transactions. */
static dl_tuner_prediction spmv(double before, double after)
{
    dl_tuner_prediction p = {0};
    p.first_ns = 110 * MS;
    p.conversion_ns = 19 * MS;
    p.past_horizon = 1;
    p.conversion_rereads = 1;
    p.transactions_before = before;
    p.transactions_after = after;
    return p;
}

typedef struct run {
    dl_tuner *t;
    double plain_ns, trans_ns;
    unsigned transformed, trans_measured;
    int first_transformed; /* launch number, 0: none */
} run;

static run start(double plain_ns, double trans_ns)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    run r = {dl_tuner_create(&cfg), plain_ns, trans_ns, 0, 0, 0};
    assert_non_null(r.t);
    return r;
}

/* `n` launches, each measured one reported at once (the gather as the
 * first transformed launch's conversion: the plain time). */
static void launches(run *r, const dl_tuner_prediction *p, int n)
{
    for (int i = 0; i < n; i++) {
        dl_tuner_launch l = {&kernel_a, "spmv", 1, p, 0};
        dl_tuner_choice c = dl_tuner_choose(r->t, &l);
        if (c.transform && !r->transformed++) {
            dl_tuner_note_conversion(r->t, c.ticket);
            r->first_transformed = i + 1;
            if (c.measure)
                dl_tuner_report_conversion(r->t, c.ticket,
                                           (uint64_t)r->plain_ns);
        }
        r->trans_measured += (unsigned)(c.measure && c.transform);
        if (c.measure)
            dl_tuner_report_kernel(
                r->t, c.ticket, c.transform,
                (uint64_t)(c.transform ? r->trans_ns : r->plain_ns));
    }
}

static void decided(const run *r, uint64_t transform, uint64_t plain)
{
    uint64_t dt = 99, dp = 99;
    dl_tuner_counts(r->t, &dt, &dp);
    assert_int_equal(dt, transform);
    assert_int_equal(dp, plain);
}

/* Three launches of 85 ms: the probe at the third would pay 110 ms of
 * builds and a ~80 ms gather to save 68 ms once: plain, nothing built. */
static void test_three_launches_stay_plain(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(16, 1);
    run r = start(85 * MS, 17 * MS);
    launches(&r, &p, 3);
    assert_int_equal(r.transformed, 0);
    decided(&r, 0, 1);
    dl_tuner_destroy(r.t);

    /* Not counted yet: the whole plain time is the bound, still plain. */
    dl_tuner_prediction unknown = spmv(0, 0);
    run u = start(85 * MS, 17 * MS);
    launches(&u, &unknown, 3);
    assert_int_equal(u.transformed, 0);
    dl_tuner_destroy(u.t);
}

/* 50 launches: probed once half the launches so far save twice the cost
 * up front (the sixth launch), and kept: far faster than plain. */
static void test_long_loop_transforms(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(16, 1);
    run r = start(85 * MS, 17 * MS);
    launches(&r, &p, 50);
    assert_in_range(r.first_transformed, 4, 7);
    assert_true(r.transformed >= 44);
    decided(&r, 1, 1); /* deferred first, then transformed */
    double plain = 50 * 85 * MS;
    double tuned = (r.first_transformed - 1) * 85 * MS + 110 * MS + 85 * MS +
                   r.transformed * 17 * MS;
    assert_true(tuned < plain / 2);
    dl_tuner_destroy(r.t);
}

/* 16 -> 15.5 transactions (3.1% fewer): plain from the start, no probe,
 * however long the loop. */
static void test_low_saving_shuts_down_unprobed(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(16, 15.5);
    run r = start(85 * MS, 80 * MS);
    launches(&r, &p, 200);
    assert_int_equal(r.transformed, 0);
    assert_int_equal(r.trans_measured, 0);
    decided(&r, 0, 1);
    dl_tuner_destroy(r.t);
}

/* The counts arrive while the tuner waits for plain times before the
 * probe: refresh fetches them, and the probe is not made. */
static double late_after;
static void late_counts(dl_tuner_prediction *p)
{
    p->transactions_before = 8;
    p->transactions_after = late_after;
}

static void test_refresh_before_probe(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(0, 0);
    p.first_ns = 1 * MS; /* cheap: it would probe at once */
    p.refresh = late_counts;
    late_after = 7.8;
    run r = start(85 * MS, 80 * MS);
    launches(&r, &p, 40);
    assert_int_equal(r.transformed, 0);
    decided(&r, 0, 1);
    dl_tuner_destroy(r.t);

    /* A good saving refreshed: probed, kept. */
    late_after = 1;
    run g = start(85 * MS, 17 * MS);
    launches(&g, &p, 40);
    assert_true(g.transformed >= 30);
    decided(&g, 1, 1);
    dl_tuner_destroy(g.t);
}

/* The launch's prediction has no counts yet (the host ran ahead of the
 * device), the refreshed one halves the bound: the probe it announced is
 * put off once more, counted and said as one plain decision, and made
 * when the halved saving pays. */
static void half_counts(dl_tuner_prediction *p)
{
    p->transactions_before = 8;
    p->transactions_after = 4;
}

static void test_renewed_deferral_counted_once(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(0, 0);
    p.refresh = half_counts;
    run r = start(85 * MS, 17 * MS);
    launches(&r, &p, 40);
    assert_in_range(r.first_transformed, 8, 11);
    decided(&r, 1, 1);
    dl_tuner_destroy(r.t);
}

/* Predicted well (16 -> 1), measured no faster (the device caches x):
 * the probe's two launches, then plain for good at that shape, decided
 * once (paper 002's shut-down). */
static void test_measured_loss_shuts_down(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(16, 1);
    run r = start(85 * MS, 84.5 * MS);
    launches(&r, &p, 100);
    assert_int_equal(r.transformed, 2);
    assert_int_equal(r.trans_measured, 2);
    decided(&r, 0, 2); /* deferred, then the probe's verdict */
    dl_tuner_destroy(r.t);
}

/* A loop that rewrites the vector it reads (x and y ping-ponged): the
 * runtime saw its copy stale before every launch, so each launch would
 * gather again (at least the 45% of a plain launch it saves): never
 * probed, nothing built, said once.  The same loop on an unchanging
 * vector is transformed, and so is one rewritten before a tenth of its
 * launches. */
static void test_rewritten_every_launch_never_probes(void **state)
{
    (void)state;
    dl_tuner_prediction p = spmv(16, 9);
    p.regather_share = 1.0;
    p.regathered = "x";
    run r = start(20 * MS, 4 * MS);
    launches(&r, &p, 200);
    assert_int_equal(r.transformed, 0);
    assert_int_equal(r.trans_measured, 0);
    decided(&r, 0, 1);
    dl_tuner_destroy(r.t);

    dl_tuner_prediction fixed = spmv(16, 9);
    run f = start(20 * MS, 4 * MS);
    launches(&f, &fixed, 200);
    assert_true(f.transformed >= 150);
    decided(&f, 1, 1);
    dl_tuner_destroy(f.t);

    dl_tuner_prediction seldom = spmv(16, 9);
    seldom.regather_share = 0.1;
    run o = start(20 * MS, 4 * MS);
    launches(&o, &seldom, 200);
    assert_true(o.transformed >= 150);
    dl_tuner_destroy(o.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_launches_stay_plain),
        cmocka_unit_test(test_long_loop_transforms),
        cmocka_unit_test(test_low_saving_shuts_down_unprobed),
        cmocka_unit_test(test_refresh_before_probe),
        cmocka_unit_test(test_measured_loss_shuts_down),
        cmocka_unit_test(test_renewed_deferral_counted_once),
        cmocka_unit_test(test_rewritten_every_launch_never_probes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
