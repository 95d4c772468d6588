/* test_rt_select.c - the runtime's choice of a method for an annotated
 * kernel's indirect references (runtime/rt/rt_select.c): the facts it
 * gathers at a launch, measurements injected, go to the selector, and
 * the method maps to a path (the reordering path as before, as written,
 * or job-swapped, or on the permuted pair); DL_IRREGULAR forces one, with
 * a reason when it cannot.  The permutation (remap) is one of the rows:
 * where its reference allows it, its transactions drop by a fifth and its
 * memory fits; written arrays leave it the only choice that moves data.
 * Under DL_POLICY=auto the tuner then weighs its cost up front
 * (rt_permute_tune.h) against the launches run so far: a short program
 * stays plain, a long loop is permuted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rt_permute_tune.h"
#include "rt_select.h"

/* 1000 transactions as written, 63 duplicated or job-swapped (the
 * integration scenario's kernel), 8 KB copy, 4 KB job map, 1 MB budget. */
static rt_select_facts base(void)
{
    rt_select_facts f;
    rt_select_facts_init(&f);
    f.tx_none = 1000;
    f.tx_duplication = 63;
    f.tx_job_swap = 63;
    f.bytes_duplication = 8000;
    f.bytes_job_swap = 4096;
    f.budget = 1 << 20;
    f.gather_form = 1;
    f.jobswap_form = 1;
    return f;
}

static void expect(dl_irregular_mode mode, const rt_select_facts *f,
                   rt_irregular_path path, dl_irregular_method method,
                   const char *why)
{
    dl_selection sel;
    rt_irregular_path got = rt_select_path(mode, f, &sel);
    if (got != path)
        fail_msg("path %d, reason '%s'", (int)got, sel.reason);
    if (sel.method != method || !strstr(sel.reason, why))
        fail_msg("method %d, reason '%s'", (int)sel.method, sel.reason);
    if (!strstr(sel.reason, why))
        fail_msg("reason '%s' lacks '%s'", sel.reason, why);
}

static void test_auto_predicted(void **state)
{
    (void)state;
    rt_select_facts f = base();
    /* As few transactions, less memory: job swap... */
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "job swap: fewest predicted transactions, 63 against 1000");
    /* ...unless the kernel's other arrays follow the work-item id. */
    f.others_disturbed = 1;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "not job swap: moves work-items, other references would turn "
           "irregular");
    /* A written A leaves job swap, which copies nothing. */
    f = base();
    f.a_written = 1;
    f.tx_job_swap = 500;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "duplication: A is written, a copy would go stale");
    /* Fewer transactions duplicated: duplication, through its path. */
    f = base();
    f.tx_job_swap = 500;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "duplication: fewest predicted transactions");
    /* No form written: neither is available, the kernel keeps its path. */
    f.gather_form = f.jobswap_form = 0;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "job swap: not planned");
    /* A job map over the budget. */
    f = base();
    f.gather_form = 0;
    f.budget = 1024;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "4096 B over the budget of 1024 B");
}

static void test_auto_measured(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.kernel_s[DL_METHOD_NONE] = 1e-3;
    f.kernel_s[DL_METHOD_JOB_SWAP] = 2e-3; /* measured slower */
    f.reorg_s[DL_METHOD_JOB_SWAP] = 0;
    f.gather_form = 0;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE, "not below");
    /* Measured faster than duplication, which predicts as few. */
    f = base();
    f.kernel_s[DL_METHOD_NONE] = 1e-3;
    f.kernel_s[DL_METHOD_JOB_SWAP] = 0.5e-3;
    f.reorg_s[DL_METHOD_JOB_SWAP] = 1e-3;
    f.kernel_s[DL_METHOD_DUPLICATION] = 0.8e-3;
    f.reorg_s[DL_METHOD_DUPLICATION] = 1e-3;
    f.reuse = 10;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "job swap: measured");
}

/* The scatter of the integration scenario: its A written through P, its
 * other array by the work-item id: remap is what is left. */
static rt_select_facts scatter(void)
{
    rt_select_facts f = base();
    f.a_written = 1;
    f.others_disturbed = 1;
    f.remap_form = 1;
    f.tx_remap = 120;
    f.bytes_remap = 16 * 1000;
    return f;
}

static void test_auto_remap(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.remap_form = 1;
    f.tx_remap = 40;
    f.bytes_remap = 16000;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "remap: fewest predicted transactions, 40 against 1000");
    /* As few as duplication, in less memory. */
    f.tx_remap = 63;
    f.bytes_remap = 4000;
    f.jobswap_form = 0;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "remap: fewest predicted transactions, 63 against 1000");
    /* Duplication predicts fewer: its path. */
    f.tx_remap = 300;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "duplication: fewest predicted transactions");
    /* A written, other arrays by the id: only remap is left. */
    f = scatter();
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "duplication: A is written, a copy would go stale");
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "not job swap: moves work-items");
    /* Less than a fifth fewer transactions: not worth its memory. */
    f.tx_remap = 801;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "remap: not planned");
    f.tx_remap = 800;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "remap: fewest");
    /* Over the budget, or a reference it cannot take. */
    f.budget = 15999;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "remap: not planned");
    f = scatter();
    f.remap_form = 0;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "remap: not planned");
}

static void test_auto_remap_measured(void **state)
{
    (void)state;
    /* Measured: remap's kernel with its reorganisation shared by the
     * launches beats job swap's, which predicts fewer transactions. */
    rt_select_facts f = base();
    f.gather_form = 0;
    f.remap_form = 1;
    f.tx_remap = 100;
    f.kernel_s[DL_METHOD_NONE] = 1e-3;
    f.kernel_s[DL_METHOD_JOB_SWAP] = 0.9e-3;
    f.reorg_s[DL_METHOD_JOB_SWAP] = 0;
    f.kernel_s[DL_METHOD_REMAP] = 0.5e-3;
    f.reorg_s[DL_METHOD_REMAP] = 2e-3;
    f.reuse = 10;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "remap: measured");
    /* Its reorganisation over too few launches: as written. */
    f.jobswap_form = 0;
    f.reuse = 1;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "remap: measured");
}

static void test_forced(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.others_disturbed = 1; /* forcing ignores the selector's rules */
    expect(DL_IRREGULAR_JOBSWAP, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "DL_IRREGULAR=jobswap");
    expect(DL_IRREGULAR_NONE, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "DL_IRREGULAR=none");
    expect(DL_IRREGULAR_GATHER, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "DL_IRREGULAR=gather");
    f.no_padding = "A is written";
    expect(DL_IRREGULAR_PADDING, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "DL_IRREGULAR=padding, but padding does not apply: A is written");
    f.padding_form = 1;
    expect(DL_IRREGULAR_PADDING, &f, RT_PATH_PADDING, DL_METHOD_PADDING,
           "DL_IRREGULAR=padding");
    f.bytes_padding = f.budget + 1; /* forcing keeps the budget */
    expect(DL_IRREGULAR_PADDING, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "exceed DL_GATHER_BUDGET");
    f.bytes_padding = 0;
    f.padding_form = 0;
    f.jobswap_form = 0;
    expect(DL_IRREGULAR_JOBSWAP, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "the source has no job-swapped form");
    /* Remap forced: wherever its reference allows, whatever it saves. */
    f.remap_form = 1;
    f.tx_remap = 5000;
    expect(DL_IRREGULAR_REMAP, &f, RT_PATH_REMAP, DL_METHOD_REMAP,
           "DL_IRREGULAR=remap");
    f.remap_form = 0;
    expect(DL_IRREGULAR_REMAP, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "DL_IRREGULAR=remap, but the permutation does not apply");
}

/* Sharing: forced where it applies within the budget, else as written
 * with the reason; under the selector a row like the others, chosen on
 * the fewest transactions, and where not planned its reason logged. */
static void test_sharing(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.no_sharing = "the launch has no explicit local size";
    expect(DL_IRREGULAR_SHARING, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "DL_IRREGULAR=sharing, but sharing does not apply: the launch "
           "has no explicit local size");
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "sharing: the launch has no explicit local size");
    f.no_sharing = NULL;
    f.sharing_form = 1;
    f.tx_sharing = 40;
    f.bytes_sharing = 20000;
    expect(DL_IRREGULAR_SHARING, &f, RT_PATH_SHARING, DL_METHOD_SHARING,
           "DL_IRREGULAR=sharing");
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_SHARING, DL_METHOD_SHARING,
           "sharing: fewest predicted transactions, 40 against 1000");
    /* A written: the copies would go stale (forcing declines earlier,
     * with the runtime's reason, before facts are made). */
    f.a_written = 1;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "sharing: A is written");
    f.a_written = 0;
    f.bytes_sharing = f.budget + 1;
    expect(DL_IRREGULAR_SHARING, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "DL_IRREGULAR=sharing, but A_s, E, L and the blocks");
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_JOB_SWAP, DL_METHOD_JOB_SWAP,
           "sharing: ");
}

/* ------------------------------------------------- the tuner on remap */

#define MS 1000000.0

static int kernel_a; /* identity */

/* The quick case that lost when permuted at once (262,144 floats read
 * through an 8-entry ELL index; 21 ms plain; six kernels built in 100 ms
 * on a cold cache; 8 -> 2 transactions a warp-access). */
static rt_remap_costs quick_case(void)
{
    return (rt_remap_costs){.n = 262144,
                            .elem = 4,
                            .count = 8 * 262144,
                            .index_bytes = 4,
                            .moved = 262144,
                            .build_ns = 100 * MS,
                            .before = 8,
                            .after = 2};
}

/* `n` launches of 21 ms plain, 12 ms permuted, each measured one
 * reported at once; the launch number of the first permuted one. */
static int permuted_from(const rt_remap_costs *c, int n)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    dl_tuner_prediction p = rt_remap_prediction(c);
    int first = 0;
    for (int i = 0; i < n; i++) {
        dl_tuner_launch l = {&kernel_a, "spmv", 1, &p, 0};
        dl_tuner_choice ch = dl_tuner_choose(t, &l);
        if (ch.transform && !first)
            first = i + 1;
        if (ch.measure)
            dl_tuner_report_kernel(
                t, ch.ticket, ch.transform,
                (uint64_t)(ch.transform ? 12 * MS : 21 * MS));
    }
    dl_tuner_destroy(t);
    return first;
}

/* Padding under auto: as few transactions as duplication in less memory
 * wins; not where other references follow the work-item id (the
 * selector's rule for methods that move work-items), nor where A is
 * written, nor over the budget. */
static void test_auto_padding(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.jobswap_form = 0;
    f.padding_form = 1;
    f.tx_padding = 63;
    f.bytes_padding = 6000;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_PADDING, DL_METHOD_PADDING,
           "padding: fewest predicted transactions, 63 against 1000");
    f.bytes_padding = 9000;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "duplication: fewest predicted transactions");
    f.bytes_padding = 6000;
    f.others_disturbed = 1;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_DUPLICATION,
           "padding: moves work-items");
    f.others_disturbed = 0;
    f.budget = 5000;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_NONE,
           "padding: 6000 B over the budget");
}

static void test_remap_prediction(void **state)
{
    (void)state;
    rt_remap_costs c = quick_case();
    dl_tuner_prediction p = rt_remap_prediction(&c);
    /* Up front: the builds and the maps' upload (4 MiB at 4 bytes/ns). */
    assert_true(p.first_ns > 100 * MS && p.first_ns < 102 * MS);
    /* Applied and restored: A (1 MiB) read and written, P (8 MiB) read,
     * mapped and written, both ways: 2 * (2 + 8 * 3) MiB at 4 bytes/ns. */
    assert_true(p.conversion_ns > 13 * MS && p.conversion_ns < 14 * MS);
    assert_int_equal(p.past_horizon, 1);
    assert_true(p.transactions_before == 8 && p.transactions_after == 2);
    /* A calibrated bandwidth, and kernels already built. */
    c.bytes_per_ns = 8;
    c.build_ns = 0;
    p = rt_remap_prediction(&c);
    assert_true(p.first_ns > 0.5 * MS && p.first_ns < 0.6 * MS);
}

static void test_remap_tuned(void **state)
{
    (void)state;
    rt_remap_costs c = quick_case();
    /* A short program never pays ~130 ms up front at ~16 ms a launch. */
    assert_int_equal(permuted_from(&c, 3), 0);
    assert_int_equal(permuted_from(&c, 10), 0);
    /* A long loop does, once the launches run so far cover it twice. */
    int first = permuted_from(&c, 200);
    assert_true(first > 10 && first < 40);
    /* Little saved: never, however long. */
    c.after = 7.5;
    assert_int_equal(permuted_from(&c, 200), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_predicted),
        cmocka_unit_test(test_auto_measured),
        cmocka_unit_test(test_auto_remap),
        cmocka_unit_test(test_auto_remap_measured),
        cmocka_unit_test(test_forced),
        cmocka_unit_test(test_sharing),
        cmocka_unit_test(test_auto_padding),
        cmocka_unit_test(test_remap_prediction),
        cmocka_unit_test(test_remap_tuned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
