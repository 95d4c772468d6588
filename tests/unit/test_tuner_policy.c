/* test_tuner_policy.c - the adaptive control's decision logic (tuner.h)
 * with injected measurements and an injected clock: early switch for an
 * LBM-like loop, nothing for one or two launches, the shut-down path
 * (transform loses -> plain, stays plain), the re-enable path (a new size
 * or kernel sequence probes again), the probe budget, waiting for a
 * probe's times (a real clock and a reporting thread), a probe that
 * cannot pay its variant's build, and DL_POLICY
 * always/never. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <pthread.h>
#include <time.h>

#include "tuner.h"

#define MS 1000000ull

static int kernel_a, kernel_b; /* identities */

/* A simulated device and runtime: kernel times per variant; a marshal
 * before a transformed launch whose buffers are in the original layout
 * (noted always, timed when the launch is measured); with
 * `restore_every_launch` the host reads every result, so each launch
 * restores and the next one marshals again. */
typedef struct sim {
    dl_tuner *tuner;
    uint64_t plain_ns, trans_ns, marshal_ns;
    int restore_every_launch;
    int buffers_transformed;
    unsigned transformed_launches, measured;
    double total_ns; /* what the program spent, conversions included */
} sim;

static dl_tuner *make_skip(dl_policy policy, double skip_below)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    cfg.policy = policy;
    cfg.skip_below = skip_below;
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    return t;
}

/* The defaults (skip_below 0) under `policy`. */
static dl_tuner *make(dl_policy policy)
{
    return make_skip(policy, 0);
}

static dl_tuner_choice launch(sim *s, const void *kernel, uint64_t sig,
                              const dl_tuner_prediction *pred)
{
    dl_tuner_launch l = {kernel, "k", sig, pred, 0};
    dl_tuner_choice c = dl_tuner_choose(s->tuner, &l);
    if (c.transform && !s->buffers_transformed) {
        dl_tuner_note_conversion(s->tuner, c.ticket);
        if (c.measure)
            dl_tuner_report_conversion(s->tuner, c.ticket, s->marshal_ns);
        s->total_ns += (double)s->marshal_ns;
        s->buffers_transformed = 1;
    } else if (!c.transform && s->buffers_transformed) {
        s->total_ns += (double)s->marshal_ns; /* restore */
        s->buffers_transformed = 0;
    }
    uint64_t ns = c.transform ? s->trans_ns : s->plain_ns;
    s->total_ns += (double)ns;
    s->transformed_launches += (unsigned)c.transform;
    if (c.measure) {
        s->measured++;
        dl_tuner_report_kernel(s->tuner, c.ticket, c.transform, ns);
    }
    if (c.transform && s->restore_every_launch) {
        /* The host reads the result: restored, marshalled again at the
         * next launch (timed there when that launch is measured). */
        s->total_ns += (double)s->marshal_ns;
        s->buffers_transformed = 0;
    }
    return c;
}

static void counts(const sim *s, uint64_t t, uint64_t p)
{
    uint64_t dt = 99, dp = 99;
    dl_tuner_counts(s->tuner, &dt, &dp);
    assert_int_equal(dt, t);
    assert_int_equal(dp, p);
}

static uint64_t fake_clock(void *user)
{
    return (*(uint64_t *)user)++;
}

/* A tuner on an injected clock reading *tick (nothing ever waits). */
static dl_tuner *make_clocked(uint64_t *tick)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    cfg.clock = fake_clock;
    cfg.clock_user = tick;
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    return t;
}

static const dl_tuner_prediction keen = {
    .speedup = 2.4, .conversion_ns = 1.0 * MS, .plain_ns = 2.4 * MS};

/* DA 2.4x faster, conversion cheap: transformed from the third launch
 * (two plain samples first), and the cumulative time beats plain by the
 * third iteration. */
static void test_lbm_switches_early(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO),
             24 * MS / 10,
             10 * MS / 10,
             1 * MS,
             0,
             0,
             0,
             0,
             0};
    double plain_total = 0;
    int break_even = 0;
    for (int i = 1; i <= 100; i++) {
        dl_tuner_choice c = launch(&s, &kernel_a, 7, &keen);
        plain_total += (double)s.plain_ns;
        if (i <= 2)
            assert_false(c.transform); /* free measurements of plain */
        if (i >= 3)
            assert_true(c.transform);
        if (!break_even && s.total_ns <= plain_total)
            break_even = i;
    }
    assert_true(break_even > 0 && break_even <= 3);
    counts(&s, 1, 0);
    /* Monitoring stays sparse once decided. */
    assert_true(s.measured <= 4 + 100 / 16 + 1);
    dl_tuner_destroy(s.tuner);
}

/* One or two launches: nothing converted, whatever the prediction. */
static void test_short_programs_pay_nothing(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    launch(&s, &kernel_a, 1, NULL);
    launch(&s, &kernel_a, 1, &keen);
    assert_int_equal(s.transformed_launches, 0);
    /* From the probe_after-th (third) launch on it probes, and keeps a
     * win. */
    for (int i = 0; i < 10; i++)
        launch(&s, &kernel_a, 1, NULL);
    assert_true(s.transformed_launches >= 8);
    counts(&s, 1, 0);
    dl_tuner_destroy(s.tuner);
}

/* What the kernel's launches took at their plain speed (the selector's
 * planning waits for it): nothing before a plain time is reported, then
 * launches times the plain time, over its patterns only. */
static void test_plain_spent(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    assert_true(dl_tuner_plain_spent(s.tuner, &kernel_a) == 0);
    dl_tuner_launch l = {&kernel_a, "k", 1, NULL, 0};
    dl_tuner_choice c = dl_tuner_choose(s.tuner, &l);
    assert_true(dl_tuner_plain_spent(s.tuner, &kernel_a) == 0);
    dl_tuner_report_kernel(s.tuner, c.ticket, 0, 2 * MS);
    assert_true(dl_tuner_plain_spent(s.tuner, &kernel_a) == 2.0 * MS);
    launch(&s, &kernel_a, 1, NULL);
    launch(&s, &kernel_a, 2, NULL); /* another pattern */
    assert_true(dl_tuner_plain_spent(s.tuner, &kernel_a) == 6.0 * MS);
    assert_true(dl_tuner_plain_spent(s.tuner, &kernel_b) == 0);
    dl_tuner_destroy(s.tuner);
}

/* A kernel too short for any probe to pay (20 us plain, while building
 * the activated variant takes 35 ms): plain without converting, until a
 * long loop of it makes the probe worth it.
 * The same kernel once the variant is built (nothing up front), or a
 * long one, still probes; so does one whose plain times never came. */
static void test_probe_cannot_pay(void **state)
{
    (void)state;
    const dl_tuner_prediction unbuilt = {.conversion_ns = 0.02 * MS,
                                         .first_ns = 35.0 * MS};
    const dl_tuner_prediction built = {.conversion_ns = 0.02 * MS};
    sim s = {make(DL_POLICY_AUTO), 20000, 10000, 20000, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++)
        assert_false(launch(&s, &kernel_a, 1, &unbuilt).transform);
    assert_int_equal(s.transformed_launches, 0);
    counts(&s, 0, 1);
    /* A long loop of it is probed in the end: once a quarter of its
     * launches times 20 us covers the 35.02 ms (launch 7004), and the
     * 2x gain is kept. */
    int first = 0;
    for (int i = 21; i <= 8000; i++)
        if (launch(&s, &kernel_a, 1, &unbuilt).transform && !first)
            first = i;
    assert_in_range(first, 7000, 7010);
    assert_true(s.transformed_launches >= 990);
    counts(&s, 1, 1);
    dl_tuner_destroy(s.tuner);

    /* The same when the runtime serves 15 launches of 16 without asking
     * (its launch memo): those count, so the probe comes as soon. */
    dl_tuner *m = make(DL_POLICY_AUTO);
    int asked = 0;
    for (int i = 1; i <= 1000 && !asked; i++) {
        dl_tuner_launch ml = {&kernel_a, "k", 1, &unbuilt, i > 2 ? 15 : 0};
        dl_tuner_choice c = dl_tuner_choose(m, &ml);
        if (c.measure && !c.transform)
            dl_tuner_report_kernel(m, c.ticket, 0, 20000);
        if (c.transform)
            asked = i;
    }
    assert_in_range(asked, 438, 442);
    dl_tuner_destroy(m);

    /* The memo as the runtime drives it, serving as many launches as the
     * tuner allows: a deferred pattern is asked about again only where a
     * probe could pay (launch 7004), at most 4096 launches apart, so the
     * loop takes a handful of slow launches instead of one in 16. */
    dl_tuner *d = make(DL_POLICY_AUTO);
    unsigned served = 0, asks = 0, total = 0, probed_at = 0;
    while (total < 20000 && !probed_at) {
        dl_tuner_launch dlaunch = {&kernel_a, "k", 1, &unbuilt, served};
        dl_tuner_choice c = dl_tuner_choose(d, &dlaunch);
        asks++;
        total += 1 + served;
        if (c.measure && !c.transform)
            dl_tuner_report_kernel(d, c.ticket, 0, 20000);
        if (c.transform)
            probed_at = total;
        assert_in_range(c.unseen, 0, 4096);
        served = c.unseen;
    }
    assert_in_range(probed_at, 7000, 7010);
    assert_in_range(asks, 4, 8);
    dl_tuner_destroy(d);

    sim b = {make(DL_POLICY_AUTO), 20000, 10000, 2000, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++)
        launch(&b, &kernel_a, 1, &built);
    assert_true(b.transformed_launches >= 16);
    counts(&b, 1, 0);
    dl_tuner_destroy(b.tuner);

    sim l = {make(DL_POLICY_AUTO), 10 * MS, 4 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++)
        launch(&l, &kernel_a, 1, &unbuilt);
    assert_true(l.transformed_launches >= 16);
    counts(&l, 1, 0);
    dl_tuner_destroy(l.tuner);

    /* Plain launches whose times are not reported: the probe goes on
     * (with an injected clock nothing waits for them). */
    uint64_t tick = 0;
    dl_tuner *t = make_clocked(&tick);
    dl_tuner_launch q = {&kernel_b, "k", 1, &unbuilt, 0};
    int transformed = 0;
    for (int i = 0; i < 6; i++)
        transformed |= dl_tuner_choose(t, &q).transform;
    assert_true(transformed);
    dl_tuner_destroy(t);
}

/* The transformed kernel is slower: the probe ends plain and it stays so. */
static void test_shut_down_after_losing_probe(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 3 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 5; i++)
        launch(&s, &kernel_a, 1, &keen);
    counts(&s, 0, 1);
    unsigned probed = s.transformed_launches;
    assert_true(probed >= 1 && probed <= 3);
    for (int i = 0; i < 200; i++) {
        dl_tuner_choice c = launch(&s, &kernel_a, 1, &keen);
        assert_false(c.transform);
        assert_false(c.measure);
    }
    assert_int_equal(s.transformed_launches, probed);
    counts(&s, 0, 1);
    dl_tuner_destroy(s.tuner);
}

/* The probe's marshal cost far more than predicted (POCL compiling the
 * marshal programs on a first run: 740 ms against LBM's 49 ms saving per
 * step, 15 steps' worth).  That marshal is spent and the restore is owed
 * either way, so the measured saving decides: kept, and the loop runs
 * transformed to its end. */
static void test_dear_first_marshal_keeps_a_gain(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 72 * MS, 23 * MS, 740 * MS, 0, 0, 0, 0, 0};
    const dl_tuner_prediction cheap = {.speedup = 0.9,
                                       .conversion_ns = 40.0 * MS};
    for (int i = 1; i <= 100; i++) {
        dl_tuner_choice c = launch(&s, &kernel_a, 1, &cheap);
        if (i == 4)
            s.marshal_ns = 20 * MS; /* compiled now: the restore is cheap */
        if (i >= 6)
            assert_true(c.transform);
    }
    counts(&s, 1, 0);
    assert_int_equal(s.transformed_launches, 98);
    dl_tuner_destroy(s.tuner);
}

/* Kept at first, then every launch pays a restore and a marshal (the host
 * reads each result): switched back to plain, which then holds. */
static void test_shut_down_when_conversions_recur(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS / 2, 0, 0, 0, 0, 0};
    for (int i = 0; i < 10; i++)
        assert_true(launch(&s, &kernel_a, 1, &keen).transform || i < 2);
    counts(&s, 1, 0);
    s.restore_every_launch = 1;
    s.marshal_ns = 2 * MS;
    int switched = 0;
    for (int i = 0; i < 40 && !switched; i++)
        switched = !launch(&s, &kernel_a, 1, &keen).transform;
    assert_true(switched);
    counts(&s, 1, 1);
    for (int i = 0; i < 100; i++)
        assert_false(launch(&s, &kernel_a, 1, &keen).transform);
    dl_tuner_destroy(s.tuner);
}

/* Kept at first, then the transformed kernel itself gets slower (its
 * data changed): the monitored samples switch it back. */
static void test_shut_down_when_kernel_slows(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 10; i++)
        launch(&s, &kernel_a, 1, &keen);
    counts(&s, 1, 0);
    s.trans_ns = 4 * MS;
    int switched = 0;
    for (int i = 0; i < 100 && !switched; i++)
        switched = !launch(&s, &kernel_a, 1, &keen).transform;
    assert_true(switched);
    counts(&s, 1, 1);
    dl_tuner_destroy(s.tuner);
}

/* The host reads every result from the start: each transformed launch
 * marshals again, which the probe sees, so the probe itself says plain. */
static void test_probe_sees_recurring_conversions(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 2 * MS, 1, 0, 0, 0, 0};
    for (int i = 0; i < 5; i++)
        launch(&s, &kernel_a, 1, &keen);
    counts(&s, 0, 1);
    unsigned probed = s.transformed_launches;
    for (int i = 0; i < 50; i++)
        assert_false(launch(&s, &kernel_a, 1, &keen).transform);
    assert_int_equal(s.transformed_launches, probed);
    dl_tuner_destroy(s.tuner);
}

/* A decided-plain kernel probes again when its size changes, and when
 * the kernel sequence changes; the old pattern stays plain. */
static void test_re_enable_on_new_pattern(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 3 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        launch(&s, &kernel_a, 1, &keen);
    counts(&s, 0, 1);
    /* New size, and now the transformed kernel wins. */
    s.trans_ns = 1 * MS;
    unsigned before = s.transformed_launches;
    for (int i = 0; i < 8; i++)
        launch(&s, &kernel_a, 2, &keen);
    assert_true(s.transformed_launches >= before + 6);
    counts(&s, 1, 1);
    /* The first size is still plain... */
    dl_tuner_choice c = launch(&s, &kernel_a, 1, &keen);
    (void)c;
    c = launch(&s, &kernel_a, 1, &keen);
    assert_false(c.transform);
    /* ...until another kernel runs before it: a new sequence. */
    launch(&s, &kernel_b, 9, NULL);
    c = launch(&s, &kernel_a, 1, &keen);
    assert_false(c.transform);
    assert_true(c.measure); /* plain measured afresh */
    launch(&s, &kernel_b, 9, NULL);
    c = launch(&s, &kernel_a, 1, &keen);
    assert_false(c.transform);
    assert_true(c.measure); /* the second plain sample */
    launch(&s, &kernel_b, 9, NULL);
    c = launch(&s, &kernel_a, 1, &keen);
    assert_true(c.transform); /* probing again */
    dl_tuner_destroy(s.tuner);
}

/* Sizes that keep changing never make it probe forever. */
static void test_probe_budget(void **state)
{
    (void)state;
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 3 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (uint64_t sig = 0; sig < 50; sig++)
        for (int i = 0; i < 6; i++)
            launch(&s, &kernel_a, sig, &keen);
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    assert_true(s.transformed_launches <=
                cfg.max_probes * (cfg.probe_samples + 1));
    uint64_t dt, dp;
    dl_tuner_counts(s.tuner, &dt, &dp);
    assert_int_equal(dt, 0);
    assert_int_equal(dp, 50);
    dl_tuner_destroy(s.tuner);
}

/* A predicted loss: by default the probe comes all the same, after the
 * two plain samples (the calibration can be wrong); below skip_below it
 * decides plain with no probe. */
static void test_predicted_loss(void **state)
{
    (void)state;
    dl_tuner_prediction loss = {
        .speedup = 0.8, .conversion_ns = 1 * MS, .plain_ns = 2 * MS};
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 2; i++)
        assert_false(launch(&s, &kernel_a, 1, &loss).transform);
    for (int i = 0; i < 20; i++)
        launch(&s, &kernel_a, 1, &loss);
    assert_true(s.transformed_launches >= 18); /* measured: it wins */
    counts(&s, 1, 0);
    dl_tuner_destroy(s.tuner);

    s = (sim){
        make_skip(DL_POLICY_AUTO, 1.02), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++)
        assert_false(launch(&s, &kernel_a, 1, &loss).transform);
    assert_int_equal(s.measured, 0);
    counts(&s, 0, 1);
    dl_tuner_destroy(s.tuner);
}

/* A reason from the runtime (the flat ASTA index on a CPU device,
 * rt_decide.c) decides plain at the first launch, for good: no plain
 * sample, no probe, even where the prediction is keen; one decision per
 * pattern, and a new pattern of the kernel is decided the same way. */
static void test_plain_reason_never_probes(void **state)
{
    (void)state;
    dl_tuner_prediction flat = keen;
    flat.plain_reason = "its ASTA variant can only use the flat index";
    sim s = {make(DL_POLICY_AUTO), 2 * MS, 1 * MS, 1 * MS, 0, 0, 0, 0, 0};
    for (int i = 0; i < 20; i++) {
        dl_tuner_choice c = launch(&s, &kernel_a, 1, &flat);
        assert_false(c.transform || c.measure);
        assert_true(c.unseen > 0); /* the memo may serve the next ones */
    }
    launch(&s, &kernel_a, 2, &flat);
    assert_int_equal(s.transformed_launches, 0);
    assert_int_equal(s.measured, 0);
    counts(&s, 0, 2);
    dl_tuner_destroy(s.tuner);
}

/* Reports that arrive late, or for a forgotten kernel, do no harm; the
 * decision waits for the probe's measurements. */
static void test_late_and_stale_reports(void **state)
{
    (void)state;
    dl_tuner *t = make(DL_POLICY_AUTO);
    dl_tuner_launch l = {&kernel_a, "a", 3, &keen, 0};
    dl_tuner_choice c1 = dl_tuner_choose(t, &l);
    dl_tuner_choice c0 = dl_tuner_choose(t, &l);
    dl_tuner_choice c2 = dl_tuner_choose(t, &l); /* reports still due */
    dl_tuner_choice c3 = dl_tuner_choose(t, &l);
    assert_false(c1.transform || c0.transform);
    assert_true(c1.measure && c0.measure);
    assert_true(c2.transform && c2.measure);
    assert_true(c3.transform && c3.measure);
    /* No measurements: no decision yet (the first of these waits for
     * them for a second, then this tuner stops waiting). */
    for (int i = 0; i < 5; i++) {
        dl_tuner_choice c = dl_tuner_choose(t, &l);
        assert_true(c.transform);
        assert_false(c.measure);
    }
    counts(&(sim){.tuner = t}, 0, 0);
    dl_tuner_report_kernel(t, c1.ticket, 0, 9 * MS); /* compiles */
    dl_tuner_report_kernel(t, c0.ticket, 0, 2 * MS);
    dl_tuner_report_kernel(t, c2.ticket, 1, 3 * MS);
    dl_tuner_report_kernel(t, c3.ticket, 1, 3 * MS);
    assert_false(dl_tuner_choose(t, &l).transform); /* judged: loses */
    counts(&(sim){.tuner = t}, 0, 1);
    dl_tuner_forget(t, &kernel_a);
    dl_tuner_report_kernel(t, c3.ticket, 1, 1 * MS); /* stale: ignored */
    dl_tuner_report_conversion(t, c3.ticket, 1 * MS);
    dl_tuner_report_kernel(t, 0, 1, 1 * MS);
    /* The stats' device_ms counts every conversion reported, stale or
     * not; the 1 s wait for the missing times above is tuner_wait_ms. */
    uint64_t conv_ns = 0, wait_ns = 0;
    dl_tuner_own_times(t, &conv_ns, &wait_ns);
    assert_true(conv_ns == 1 * MS);
    assert_true(wait_ns > 0);
    c1 = dl_tuner_choose(t, &l); /* a fresh pattern */
    assert_false(c1.transform);
    assert_true(c1.measure);
    dl_tuner_destroy(t);
}

/* The device's side of test_probe_waits_for_times: the probe's kernels
 * complete 30 ms after they were enqueued, as an event callback would
 * report them. */
typedef struct late_times {
    dl_tuner *tuner;
    dl_tuner_choice plain[2], trans[2];
    long gap_ms; /* between the plain and the transformed times */
} late_times;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void *report_later(void *arg)
{
    late_times *lt = arg;
    sleep_ms(lt->gap_ms);
    for (int i = 0; i < 2; i++)
        dl_tuner_report_kernel(lt->tuner, lt->plain[i].ticket, 0, 2 * MS);
    sleep_ms(lt->gap_ms);
    for (int i = 0; i < 2; i++)
        dl_tuner_report_kernel(lt->tuner, lt->trans[i].ticket, 1, 4 * MS);
    return NULL;
}

/* A program that enqueues every launch at once: with the real clock, the
 * launch after the probe waits for the probe's times and is already
 * judged (here the transformed kernel loses: plain from then on), instead
 * of running every remaining launch in the probe.  It waits as long as
 * times keep coming (gap 600 ms: 1.2 s in all, more than the 1 s of
 * silence it tolerates). */
static void probe_waits(long gap_ms)
{
    late_times lt = {.tuner = make(DL_POLICY_AUTO), .gap_ms = gap_ms};
    dl_tuner_launch l = {&kernel_a, "a", 5, &keen, 0};
    lt.plain[0] = dl_tuner_choose(lt.tuner, &l);
    lt.plain[1] = dl_tuner_choose(lt.tuner, &l);
    lt.trans[0] = dl_tuner_choose(lt.tuner, &l);
    lt.trans[1] = dl_tuner_choose(lt.tuner, &l);
    assert_true(lt.plain[0].measure && lt.plain[1].measure);
    assert_true(lt.trans[0].transform && lt.trans[1].transform);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, report_later, &lt), 0);
    dl_tuner_choice next = dl_tuner_choose(lt.tuner, &l); /* waits */
    assert_false(next.transform);
    counts(&(sim){.tuner = lt.tuner}, 0, 1);
    pthread_join(th, NULL);
    dl_tuner_destroy(lt.tuner);
}

static void *report_plain_later(void *arg)
{
    late_times *lt = arg;
    sleep_ms(lt->gap_ms);
    for (int i = 0; i < 2; i++)
        dl_tuner_report_kernel(lt->tuner, lt->plain[i].ticket, 0, 20000);
    return NULL;
}

/* The launch that would start a probe needing the variant's build (the
 * third) waits for a plain sample's time (here 20 us: no probe can pay
 * 35 ms). */
static void test_probe_start_waits_for_plain_times(void **state)
{
    (void)state;
    const dl_tuner_prediction unbuilt = {.first_ns = 35.0 * MS};
    late_times lt = {.tuner = make(DL_POLICY_AUTO), .gap_ms = 30};
    dl_tuner_launch l = {&kernel_a, "a", 5, &unbuilt, 0};
    lt.plain[0] = dl_tuner_choose(lt.tuner, &l);
    lt.plain[1] = dl_tuner_choose(lt.tuner, &l);
    assert_true(lt.plain[0].measure && lt.plain[1].measure);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, report_plain_later, &lt), 0);
    assert_false(dl_tuner_choose(lt.tuner, &l).transform); /* waits */
    counts(&(sim){.tuner = lt.tuner}, 0, 1);
    pthread_join(th, NULL);
    uint64_t conv_ns = 1, wait_ns = 0; /* the wait is the stats' */
    dl_tuner_own_times(lt.tuner, &conv_ns, &wait_ns);
    assert_true(conv_ns == 0 && wait_ns > 0);
    dl_tuner_destroy(lt.tuner);
}

static void *report_second_plain_later(void *arg)
{
    late_times *lt = arg;
    sleep_ms(lt->gap_ms);
    dl_tuner_report_kernel(lt->tuner, lt->plain[1].ticket, 0, 8 * MS);
    return NULL;
}

/* The short program of issue 17: ten launches of 8 ms, 150 ms of builds
 * up front.  The first plain time holds POCL's compile of the kernel
 * (136 ms), so alone it would say that 16 launches could pay the probe;
 * the third launch waits for the second time as well, and with it (8 ms)
 * no probe can pay: plain, and no build. */
static void test_probe_start_waits_for_every_plain_time(void **state)
{
    (void)state;
    const dl_tuner_prediction unbuilt = {.conversion_ns = 4.0 * MS,
                                         .first_ns = 150.0 * MS};
    late_times lt = {.tuner = make(DL_POLICY_AUTO), .gap_ms = 30};
    dl_tuner_launch l = {&kernel_a, "a", 5, &unbuilt, 0};
    lt.plain[0] = dl_tuner_choose(lt.tuner, &l);
    lt.plain[1] = dl_tuner_choose(lt.tuner, &l);
    assert_true(lt.plain[0].measure && lt.plain[1].measure);
    dl_tuner_report_kernel(lt.tuner, lt.plain[0].ticket, 0, 136 * MS);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, report_second_plain_later, &lt),
                     0);
    assert_false(dl_tuner_choose(lt.tuner, &l).transform); /* waits */
    counts(&(sim){.tuner = lt.tuner}, 0, 1);
    for (int i = 3; i < 10; i++)
        assert_false(dl_tuner_choose(lt.tuner, &l).transform);
    pthread_join(th, NULL);
    dl_tuner_destroy(lt.tuner);
}

/* The analyser's count of a kernel that reorganising hardly helps
 * (1.35 -> 1.27 transactions per warp-access: 6% fewer), as the
 * prediction's refresh finds it once `analyser_counted` is set. */
static int analyser_counted; /* atomic */

static void count_when_counted(dl_tuner_prediction *p)
{
    int counted = __atomic_load_n(&analyser_counted, __ATOMIC_ACQUIRE);
    p->transactions_before = counted ? 1.35 : 0;
    p->transactions_after = counted ? 1.27 : 0;
}

/* The launch that would wait for plain times finds the count already in
 * (counted after the launch's prediction was taken): plain for good, and
 * it waits for nothing, although no plain time ever comes. */
static void test_counted_decline_waits_for_nothing(void **state)
{
    (void)state;
    __atomic_store_n(&analyser_counted, 0, __ATOMIC_RELEASE);
    const dl_tuner_prediction unbuilt = {.first_ns = 35.0 * MS,
                                         .refresh = count_when_counted};
    dl_tuner *t = make(DL_POLICY_AUTO);
    dl_tuner_launch l = {&kernel_a, "a", 5, &unbuilt, 0};
    assert_true(dl_tuner_choose(t, &l).measure);
    assert_true(dl_tuner_choose(t, &l).measure);
    __atomic_store_n(&analyser_counted, 1, __ATOMIC_RELEASE);
    assert_false(dl_tuner_choose(t, &l).transform);
    counts(&(sim){.tuner = t}, 0, 1);
    uint64_t conv_ns = 0, wait_ns = 1;
    dl_tuner_own_times(t, &conv_ns, &wait_ns);
    assert_true(wait_ns == 0);
    dl_tuner_destroy(t);
}

/* A loop that rewrites the vector it reads before every launch (the
 * iterated SpMV of issue 20): each gather would redo the reads the
 * variant saves, which no plain time can outweigh, so the launch that
 * would wait for plain times defers the probe without waiting, although
 * no plain time ever comes. */
static void test_regathers_wait_for_nothing(void **state)
{
    (void)state;
    dl_tuner_prediction stale = {.first_ns = 35.0 * MS,
                                 .conversion_ns = 1.0 * MS,
                                 .conversion_rereads = 1,
                                 .regather_share = 1.0,
                                 .regathered = "x"};
    dl_tuner *t = make(DL_POLICY_AUTO);
    dl_tuner_launch l = {&kernel_a, "a", 5, &stale, 0};
    assert_true(dl_tuner_choose(t, &l).measure);
    assert_true(dl_tuner_choose(t, &l).measure);
    for (int i = 2; i < 20; i++)
        assert_false(dl_tuner_choose(t, &l).transform);
    counts(&(sim){.tuner = t}, 0, 1);
    uint64_t conv_ns = 0, wait_ns = 1;
    dl_tuner_own_times(t, &conv_ns, &wait_ns);
    assert_true(wait_ns == 0);
    dl_tuner_destroy(t);
}

/* The counting thread's side: the count arrives 30 ms into the wait, and
 * wakes the tuner.  The plain times come only if the launch still waits
 * 5 s later (`rescued`): far less than the 30 s of silence it would
 * tolerate at a predicted 10 s a launch. */
typedef struct late_count {
    dl_tuner *tuner;
    dl_tuner_choice plain[2];
    int returned, rescued; /* atomic */
} late_count;

static void *count_later(void *arg)
{
    late_count *lc = arg;
    sleep_ms(30);
    __atomic_store_n(&analyser_counted, 1, __ATOMIC_RELEASE);
    dl_tuner_wake(lc->tuner);
    for (int i = 0; i < 500; i++) {
        if (__atomic_load_n(&lc->returned, __ATOMIC_ACQUIRE))
            return NULL;
        sleep_ms(10);
    }
    __atomic_store_n(&lc->rescued, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 2; i++)
        dl_tuner_report_kernel(lc->tuner, lc->plain[i].ticket, 0, 10000 * MS);
    return NULL;
}

/* A count that declines, arriving while the launch waits for plain times
 * before a probe, ends the wait: plain for good, without the times. */
static void test_count_ends_plain_wait(void **state)
{
    (void)state;
    __atomic_store_n(&analyser_counted, 0, __ATOMIC_RELEASE);
    const dl_tuner_prediction unbuilt = {.plain_ns = 10000.0 * MS,
                                         .first_ns = 35.0 * MS,
                                         .refresh = count_when_counted};
    late_count lc = {.tuner = make(DL_POLICY_AUTO)};
    dl_tuner_launch l = {&kernel_a, "a", 5, &unbuilt, 0};
    lc.plain[0] = dl_tuner_choose(lc.tuner, &l);
    lc.plain[1] = dl_tuner_choose(lc.tuner, &l);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, count_later, &lc), 0);
    assert_false(dl_tuner_choose(lc.tuner, &l).transform); /* waits */
    __atomic_store_n(&lc.returned, 1, __ATOMIC_RELEASE);
    pthread_join(th, NULL);
    assert_false(__atomic_load_n(&lc.rescued, __ATOMIC_ACQUIRE));
    counts(&(sim){.tuner = lc.tuner}, 0, 1);
    dl_tuner_destroy(lc.tuner);
}

static void test_probe_waits_for_times(void **state)
{
    (void)state;
    probe_waits(15);
    probe_waits(600);
}

static void test_policy_always_never(void **state)
{
    (void)state;
    dl_tuner *always = make(DL_POLICY_ALWAYS);
    dl_tuner *never = make(DL_POLICY_NEVER);
    dl_tuner_prediction loss = {.speedup = 0.5};
    for (int i = 0; i < 10; i++) {
        dl_tuner_launch l = {&kernel_a, "a", (uint64_t)i, &loss, 0};
        dl_tuner_choice a = dl_tuner_choose(always, &l);
        l.prediction = &keen;
        dl_tuner_choice n = dl_tuner_choose(never, &l);
        assert_true(a.transform);
        assert_false(n.transform);
        assert_false(a.measure || n.measure);
        assert_int_equal(a.ticket, 0);
        assert_int_equal(n.ticket, 0);
    }
    uint64_t dt, dp;
    dl_tuner_counts(always, &dt, &dp);
    assert_int_equal(dt + dp, 0);
    dl_tuner_destroy(always);
    dl_tuner_destroy(never);
}

/* The runtime's launch memo may run launches without asking only once
 * the pattern is decided: never during the probe (every probe launch is
 * seen, so a probe is not put off by the memo), then monitor_every - 1
 * in a row; the transformed ones it served count towards the next
 * monitoring launch, which comes every monitor_every launches.  Decided
 * plain, nothing is monitored and the memo may serve far longer. */
static void test_unseen_launches(void **state)
{
    (void)state;
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    dl_tuner_launch l = {&kernel_a, "k", 1, &keen, 0};
    dl_tuner_choice c;
    int i = 0;
    do { /* plain samples, probe, until decided */
        c = dl_tuner_choose(t, &l);
        if (c.measure)
            dl_tuner_report_kernel(t, c.ticket, c.transform,
                                   c.transform ? 1 * MS : 3 * MS);
    } while (c.unseen == 0 && ++i < 10);
    assert_true(i >= 4); /* 2 plain + 2 transformed samples, all seen */
    assert_true(c.transform);
    assert_int_equal(c.unseen, cfg.monitor_every - 1);
    /* 15 served launches between asks: every ask is due to monitor. */
    unsigned measured = 0;
    l.served = cfg.monitor_every - 1;
    for (int n = 0; n < 8; n++) {
        c = dl_tuner_choose(t, &l);
        assert_true(c.transform);
        measured += (unsigned)c.measure;
        if (c.measure)
            dl_tuner_report_kernel(t, c.ticket, 1, 1 * MS);
    }
    assert_in_range(measured, 7, 8);
    /* Asking at every launch: one in monitor_every is measured. */
    l.served = 0;
    measured = 0;
    for (unsigned n = 0; n < 4 * cfg.monitor_every; n++)
        measured += (unsigned)dl_tuner_choose(t, &l).measure;
    assert_int_equal(measured, 4);
    dl_tuner_destroy(t);

    /* A pattern decided plain by its probe is watched by nobody: the
     * memo may serve it much longer (4096 launches) between asks. */
    dl_tuner *p = dl_tuner_create(&cfg);
    assert_non_null(p);
    dl_tuner_launch pl = {&kernel_b, "k", 1, &keen, 0};
    i = 0;
    do {
        c = dl_tuner_choose(p, &pl);
        if (c.measure)
            dl_tuner_report_kernel(p, c.ticket, c.transform,
                                   c.transform ? 3 * MS : 1 * MS);
    } while (c.unseen == 0 && ++i < 10);
    assert_false(c.transform);
    assert_int_equal(c.unseen, 4096);
    pl.served = c.unseen;
    c = dl_tuner_choose(p, &pl);
    assert_false(c.transform);
    assert_int_equal(c.unseen, 4096);
    dl_tuner_destroy(p);
}

static void test_injected_clock_and_signature(void **state)
{
    (void)state;
    uint64_t tick = 1000;
    dl_tuner *t = make_clocked(&tick);
    assert_int_equal(dl_tuner_now(t), 1000);
    assert_int_equal(dl_tuner_now(t), 1001);
    dl_tuner_destroy(t);
    uint64_t a = dl_tuner_signature(dl_tuner_signature(0, 1024), 19);
    uint64_t b = dl_tuner_signature(dl_tuner_signature(0, 19), 1024);
    assert_true(a != b);
    assert_true(a == dl_tuner_signature(dl_tuner_signature(0, 1024), 19));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lbm_switches_early),
        cmocka_unit_test(test_short_programs_pay_nothing),
        cmocka_unit_test(test_plain_spent),
        cmocka_unit_test(test_shut_down_after_losing_probe),
        cmocka_unit_test(test_dear_first_marshal_keeps_a_gain),
        cmocka_unit_test(test_shut_down_when_conversions_recur),
        cmocka_unit_test(test_shut_down_when_kernel_slows),
        cmocka_unit_test(test_probe_sees_recurring_conversions),
        cmocka_unit_test(test_re_enable_on_new_pattern),
        cmocka_unit_test(test_probe_budget),
        cmocka_unit_test(test_predicted_loss),
        cmocka_unit_test(test_probe_cannot_pay),
        cmocka_unit_test(test_late_and_stale_reports),
        cmocka_unit_test(test_probe_waits_for_times),
        cmocka_unit_test(test_probe_start_waits_for_plain_times),
        cmocka_unit_test(test_probe_start_waits_for_every_plain_time),
        cmocka_unit_test(test_counted_decline_waits_for_nothing),
        cmocka_unit_test(test_count_ends_plain_wait),
        cmocka_unit_test(test_regathers_wait_for_nothing),
        cmocka_unit_test(test_plain_reason_never_probes),
        cmocka_unit_test(test_policy_always_never),
        cmocka_unit_test(test_unseen_launches),
        cmocka_unit_test(test_injected_clock_and_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
