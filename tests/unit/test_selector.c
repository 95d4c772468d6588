/* test_selector.c - the selector's decision table (runtime/irregular/
 * selector.c, docs/irregular.md "Choosing a method"), table-driven: each
 * row changes a base input (Figure 4's numbers: 11 transactions as
 * written, 6 after duplication, padding or sharing) and names the method
 * and a piece of the reason it must give.  Measurements are injected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "selector.h"

#define NONE  DL_METHOD_NONE
#define DUP   DL_METHOD_DUPLICATION
#define PAD   DL_METHOD_PADDING
#define SHARE DL_METHOD_SHARING
#define REMAP DL_METHOD_REMAP
#define SWAP  DL_METHOD_JOB_SWAP

static void set(dl_selector_input *in, int m, uint64_t tx, size_t bytes)
{
    in->method[m] = (dl_method_estimate){1, tx, bytes, -1.0, -1.0, NULL};
}

/* Figure 4: duplication 24 four-byte elements, padding 12 slots, sharing
 * 12 slots and its block table, remap in place, job swap R alone. */
static dl_selector_input base(void)
{
    dl_selector_input in;
    memset(&in, 0, sizeof in);
    set(&in, NONE, 11, 0);
    set(&in, DUP, 6, 96);
    set(&in, PAD, 6, 48);
    set(&in, SHARE, 6, 64);
    set(&in, REMAP, 8, 0);
    set(&in, SWAP, 9, 96);
    in.budget_bytes = 1000;
    in.reuse = 1;
    return in;
}

static void measure(dl_selector_input *in, int m, double reorg, double kernel)
{
    in->method[m].reorg_s = reorg;
    in->method[m].kernel_s = kernel;
}

static void nothing(dl_selector_input *in)
{
    (void)in;
}
static void written(dl_selector_input *in)
{
    in->a_written = 1;
}
static void disturbed(dl_selector_input *in)
{
    in->others_disturbed = 1;
}
static void budget_50(dl_selector_input *in)
{
    in->budget_bytes = 50;
}
static void budget_40(dl_selector_input *in)
{
    in->budget_bytes = 40;
}

static void written_no_metis(dl_selector_input *in)
{
    in->a_written = 1;
    in->method[REMAP].available = 0;
}

static void written_disturbed_no_metis(dl_selector_input *in)
{
    written_no_metis(in);
    in->others_disturbed = 1;
}

static void no_gain(dl_selector_input *in)
{
    for (int m = DUP; m < DL_METHOD_COUNT; m++)
        in->method[m].transactions = 11 + (uint64_t)m;
}

static void none_planned(dl_selector_input *in)
{
    for (int m = DUP; m < DL_METHOD_COUNT; m++)
        in->method[m].available = 0;
}

/* Padding measured slower than the kernel as written; duplication wins. */
static void measured_padding_loses(dl_selector_input *in)
{
    in->method[NONE].kernel_s = 1.0;
    measure(in, PAD, 0.5, 0.9);
    measure(in, DUP, 0.2, 0.7);
}

/* The same, its reorganisation shared by 10 launches: padding 0.65 s. */
static void measured_reused(dl_selector_input *in)
{
    in->method[NONE].kernel_s = 1.0;
    measure(in, PAD, 0.5, 0.6);
    measure(in, DUP, 0.2, 0.7);
    in->reuse = 10;
}

static void measured_once(dl_selector_input *in)
{
    measured_reused(in);
    in->reuse = 1;
}

/* Measured methods without the baseline's time: predictions decide. */
static void measured_no_baseline(dl_selector_input *in)
{
    measure(in, DUP, 0.0, 0.1);
}

/* Every method measured slower than the kernel as written. */
static void measured_all_lose(dl_selector_input *in)
{
    in->method[NONE].kernel_s = 1.0;
    for (int m = DUP; m < DL_METHOD_COUNT; m++)
        measure(in, m, 1.0, 1.0);
}

static void tie_swap_remap(dl_selector_input *in)
{
    in->a_written = 1;
    set(in, REMAP, 5, 0);
    set(in, SWAP, 5, 0);
}

static void tie_dup_pad(dl_selector_input *in)
{
    in->method[PAD].bytes = 96;
    in->method[SHARE].bytes = 96;
}

typedef struct row {
    const char *name;
    void (*change)(dl_selector_input *);
    dl_irregular_method want;
    const char *reason; /* must appear in the reason */
} row;

static const row table[] = {
    {"fewest transactions, then least memory", nothing, PAD,
     "padding: fewest predicted transactions, 6 against 11 as written, "
     "48 B of the 1000 B budget"},
    {"A written: no copies", written, REMAP,
     "duplication: A is written, a copy would go stale"},
    {"others disturbed: work-items stay", disturbed, SHARE,
     "padding: moves work-items, other references would turn irregular"},
    {"budget: the copies that fit", budget_50, PAD,
     "duplication: 96 B over the budget of 50 B"},
    {"budget: nothing but remap fits", budget_40, REMAP,
     "padding: 48 B over the budget of 40 B"},
    {"written, no METIS: job swap", written_no_metis, SWAP,
     "remap: not planned"},
    {"written, disturbed, no METIS: none", written_disturbed_no_metis, NONE,
     "none: job swap: moves work-items"},
    {"no method gains", no_gain, NONE,
     "no fewer transactions (12, 11 as written)"},
    {"nothing planned", none_planned, NONE, "none: job swap: not planned"},
    {"measured loss excludes padding", measured_padding_loses, DUP,
     "duplication: measured 0.9 s a launch, reorganisation included, "
     "against 1 s as written"},
    {"reuse shares the reorganisation", measured_reused, PAD,
     "padding: measured 0.65 s a launch"},
    {"no reuse: the cheaper reorganisation", measured_once, DUP,
     "padding: measured 1.1 s a launch, not below 1 s as written"},
    {"no baseline time: predictions decide", measured_no_baseline, PAD,
     "padding: fewest predicted"},
    {"every method measured slower", measured_all_lose, NONE,
     "sharing: measured 2 s a launch, not below 1 s"},
    {"ties: least reorganisation", tie_swap_remap, SWAP,
     "job swap: fewest predicted transactions, 5"},
    {"ties: duplication before padding", tie_dup_pad, DUP,
     "duplication: fewest"},
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        dl_selector_input in = base();
        table[i].change(&in);
        dl_selection out, again;
        dl_select_method(&in, &out);
        printf("%-42s %s\n", table[i].name, out.reason);
        if (out.method != table[i].want || !strstr(out.reason, table[i].reason))
            fail_msg("%s: got %s (%s), want %s with \"%s\"", table[i].name,
                     dl_irregular_method_name(out.method), out.reason,
                     dl_irregular_method_name(table[i].want), table[i].reason);
        dl_select_method(&in, &again); /* deterministic */
        assert_int_equal(again.method, out.method);
        assert_string_equal(again.reason, out.reason);
    }
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(dl_irregular_method_name(DL_METHOD_NONE), "none");
    assert_string_equal(dl_irregular_method_name(DL_METHOD_JOB_SWAP),
                        "job swap");
    assert_string_equal(dl_irregular_method_name(DL_METHOD_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
