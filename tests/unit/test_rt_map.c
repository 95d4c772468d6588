/* test_rt_map.c - the runtime's pointer-keyed hash table against a
 * simple array model: inserts, overwrites, deletes, tombstone reuse,
 * growth and iteration; the fast paths' inline probe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "dl_test.h"
#include "rt_internal.h"

#define KEYS 5000

static void test_against_model(void **state)
{
    (void)state;
    dl_test_seed("rt_map");
    static void *model[KEYS]; /* value of key i+1, or NULL */
    rt_map map = {0};
    size_t live = 0;
    for (int round = 0; round < 200000; round++) {
        size_t i = dl_test_range(0, KEYS - 1);
        const void *key = (const void *)(uintptr_t)((i + 1) * 64);
        switch (dl_test_range(0, 2)) {
        case 0:
        case 1: {
            void *val = (void *)(uintptr_t)dl_test_range(1, 1u << 30);
            assert_int_equal(rt_map_put(&map, key, val), DL_SUCCESS);
            live += model[i] == NULL;
            model[i] = val;
            break;
        }
        default:
            assert_ptr_equal(rt_map_del(&map, key), model[i]);
            live -= model[i] != NULL;
            model[i] = NULL;
        }
        assert_int_equal(map.live, live);
        assert_ptr_equal(rt_map_get(&map, key), model[i]);
        void *val = NULL;
        int found = rt_map_probe(&map, key, &val);
        if (found == 1)
            assert_ptr_equal(val, model[i]);
        else if (found == 0)
            assert_null(model[i]);
    }
    size_t seen = 0;
    for (size_t s = 0; s < rt_map_cap(&map); s++)
        seen += rt_map_at(&map, s) != NULL;
    assert_int_equal(seen, live);
    for (size_t i = 0; i < KEYS; i++)
        assert_ptr_equal(
            rt_map_get(&map, (const void *)(uintptr_t)((i + 1) * 64)),
            model[i]);
    /* Deleting everything leaves a table that still works. */
    for (size_t i = 0; i < KEYS; i++)
        rt_map_del(&map, (const void *)(uintptr_t)((i + 1) * 64));
    assert_int_equal(map.live, 0);
    assert_null(rt_map_get(&map, (const void *)64));
    assert_int_equal(rt_map_put(&map, (const void *)64, (void *)1), DL_SUCCESS);
    assert_ptr_equal(rt_map_get(&map, (const void *)64), (void *)1);
    assert_true(rt_map_cap(&map) <= 4 * KEYS * 2);
    rt_map_free(&map);
    assert_null(rt_map_get(&map, (const void *)64));
}

/* A key absent from the table whose own slot holds another key: the
 * probe goes on to the next slot, empty, and says absent, so that the
 * fast paths do not take the slow one for it. */
static void test_probe_past_a_collision(void **state)
{
    (void)state;
    rt_map map = {0};
    const void *a = (const void *)(uintptr_t)64;
    assert_int_equal(rt_map_put(&map, a, (void *)1), DL_SUCCESS);
    size_t mask = rt_map_cap(&map) - 1;
    uintptr_t j = 2;
    while (rt_map_slot((const void *)(j * 64), mask) != rt_map_slot(a, mask))
        j++;
    const void *b = (const void *)(j * 64);
    void *val = NULL;
    assert_int_equal(rt_map_probe(&map, b, &val), 0);
    assert_int_equal(rt_map_probe(&map, a, &val), 1);
    assert_ptr_equal(val, (void *)1);
    /* Found past the collision too. */
    assert_int_equal(rt_map_put(&map, b, (void *)2), DL_SUCCESS);
    assert_int_equal(rt_map_probe(&map, b, &val), 1);
    assert_ptr_equal(val, (void *)2);
    /* A tombstone in the way is passed, not taken for an empty slot. */
    rt_map_del(&map, a);
    assert_int_equal(rt_map_probe(&map, b, &val), 1);
    assert_ptr_equal(val, (void *)2);
    rt_map_free(&map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_model),
        cmocka_unit_test(test_probe_past_a_collision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
