/* test_rt_select.c - the runtime's choice of a method for an annotated
 * kernel's indirect references (runtime/rt/rt_select.c): the facts it
 * gathers at a launch, measurements injected, go to the selector, and
 * the method maps to a path (the reordering path as before, as written,
 * or job-swapped); DL_IRREGULAR forces one, with a reason when it
 * cannot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

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
    assert_int_equal(rt_select_path(mode, f, &sel), path);
    assert_int_equal(sel.method, method);
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

static void test_remap_place(void **state)
{
    (void)state;
    rt_select_facts f = base();
    f.remap_wanted = 1;
    f.tx_remap = 40;
    expect(DL_IRREGULAR_AUTO, &f, RT_PATH_ASIS, DL_METHOD_REMAP,
           "remap: fewest predicted transactions, 40 against 1000");
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
    expect(DL_IRREGULAR_PADDING, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "padding is not built on the device");
    f.jobswap_form = 0;
    expect(DL_IRREGULAR_JOBSWAP, &f, RT_PATH_PLAIN, DL_METHOD_NONE,
           "the source has no job-swapped form");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_predicted),
        cmocka_unit_test(test_auto_measured),
        cmocka_unit_test(test_remap_place),
        cmocka_unit_test(test_forced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
