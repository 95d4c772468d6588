/* test_renumber_tune.c - the renumbering's prediction for the tuner
 * (runtime/rt/rt_renumber_tune.c): the cost up front grows with the
 * kernels' build, the copies and every vertex array permuted once; a
 * round trip of the vertex arrays is the conversion; the analyser's
 * transactions pass through; the past is the horizon. */
#include "rt_renumber_tune.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

static void test_prediction(void **state)
{
    (void)state;
    rt_renum_costs c = {.n = 1000000,
                        .elem = 4,
                        .nvertex = 2,
                        .copy_bytes = 32000000,
                        .moved = 999000,
                        .build_ns = 1e8,
                        .before = 13.7,
                        .after = 1.9};
    dl_tuner_prediction p = rt_renumber_prediction(&c);
    assert_true(p.past_horizon);
    assert_true(p.transactions_before == 13.7);
    assert_true(p.transactions_after == 1.9);
    assert_true(p.first_ns > c.build_ns);
    assert_true(p.conversion_ns > 0.0);
    /* More vertex arrays, bigger copies, a build: more up front; the
     * round trip is per array, not per launch's arrays. */
    rt_renum_costs more = c;
    more.nvertex = 3;
    assert_true(rt_renumber_prediction(&more).first_ns > p.first_ns);
    more = c;
    more.copy_bytes *= 2;
    assert_true(rt_renumber_prediction(&more).first_ns > p.first_ns);
    more = c;
    more.build_ns = 0.0;
    assert_true(rt_renumber_prediction(&more).first_ns < p.first_ns);
    assert_true(rt_renumber_prediction(&more).conversion_ns == p.conversion_ns);
    /* Unknown moves: every element counted. */
    more = c;
    more.moved = 0;
    assert_true(rt_renumber_prediction(&more).conversion_ns > p.conversion_ns);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prediction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
