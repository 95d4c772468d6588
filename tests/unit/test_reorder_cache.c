/* test_reorder_cache.c - versioned caching of reordered data (runtime/
 * irregular/reorder_cache.c): hits only while the versions of A and P are
 * those an entry was built from, invalidations and evictions counted, the
 * budget, A' buffers released when entries go, and the whole flow with
 * dl_enqueue_gather: a changed A is gathered again, bit for bit. */
#include "dl_test.h"
#include "gather.h"
#include "gather_ref.h"
#include "reorder_cache.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef dl_test_fixture fixture;

static int setup(void **state)
{
    return dl_test_fixture_setup(state, "test_reorder_cache");
}

static int teardown(void **state)
{
    return dl_test_fixture_teardown(state);
}

static cl_mem new_buffer(fixture *fx, size_t bytes)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(fx->cl.context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static cl_uint refs(cl_mem m)
{
    cl_uint n = 0;
    assert_int_equal(
        clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL),
        CL_SUCCESS);
    return n;
}

static dl_reorder_key key_of(cl_mem a, cl_mem p, size_t threads)
{
    dl_reorder_key k = {a, p, {4, 0, 0, 0}, {threads, 1, 0, 1, 0}, 4};
    return k;
}

static void expect_stats(dl_reorder_cache *c, uint64_t hits, uint64_t misses,
                         uint64_t invalidations, uint64_t evictions,
                         size_t entries)
{
    dl_reorder_stats s;
    dl_reorder_cache_stats(c, &s);
    assert_int_equal(s.hits, hits);
    assert_int_equal(s.misses, misses);
    assert_int_equal(s.invalidations, invalidations);
    assert_int_equal(s.evictions, evictions);
    assert_int_equal(s.entries, entries);
}

/* miss, store, hit; a new version of A, then of P: stale, A' handed back. */
static void test_versions(void **state)
{
    fixture *fx = *state;
    cl_mem a = new_buffer(fx, 64), p = new_buffer(fx, 64);
    cl_mem prime = new_buffer(fx, 64), got;
    cl_event ready;
    dl_reorder_cache *c;
    assert_int_equal(dl_reorder_cache_create(1 << 20, &c), DL_SUCCESS);
    dl_reorder_key k = key_of(a, p, 16);
    assert_int_equal(dl_reorder_cache_lookup(c, &k, 1, 1, &got, &ready),
                     DL_REORDER_MISS);
    assert_null(got);
    cl_int err;
    cl_event gather = clCreateUserEvent(fx->cl.context, &err);
    assert_int_equal(dl_reorder_cache_store(c, &k, 1, 1, prime, gather),
                     DL_SUCCESS);
    assert_int_equal(dl_reorder_cache_lookup(c, &k, 1, 1, &got, &ready),
                     DL_REORDER_HIT);
    assert_ptr_equal(got, prime);
    assert_ptr_equal(ready, gather);
    clReleaseMemObject(got);
    clReleaseEvent(ready);

    dl_reorder_key other = key_of(a, p, 17); /* another range */
    assert_int_equal(dl_reorder_cache_lookup(c, &other, 1, 1, &got, NULL),
                     DL_REORDER_MISS);
    other = key_of(p, a, 16); /* A and P swapped */
    assert_int_equal(dl_reorder_cache_lookup(c, &other, 1, 1, &got, NULL),
                     DL_REORDER_MISS);
    other = k;
    other.ref.offset = 1;
    assert_int_equal(dl_reorder_cache_lookup(c, &other, 1, 1, &got, NULL),
                     DL_REORDER_MISS);
    expect_stats(c, 1, 4, 0, 0, 1);

    assert_int_equal(dl_reorder_cache_lookup(c, &k, 2, 1, &got, &ready),
                     DL_REORDER_STALE); /* A written */
    assert_ptr_equal(got, prime);
    assert_null(ready);
    expect_stats(c, 1, 4, 1, 0, 0);
    assert_int_equal(dl_reorder_cache_store(c, &k, 2, 1, got, NULL),
                     DL_SUCCESS);
    clReleaseMemObject(got);
    assert_int_equal(dl_reorder_cache_lookup(c, &k, 2, 1, &got, &ready),
                     DL_REORDER_HIT);
    assert_null(ready);
    clReleaseMemObject(got);
    assert_int_equal(dl_reorder_cache_lookup(c, &k, 2, 5, &got, NULL),
                     DL_REORDER_STALE); /* P written */
    clReleaseMemObject(got);
    expect_stats(c, 2, 4, 2, 0, 0);

    char line[200];
    dl_reorder_stats s;
    dl_reorder_cache_stats(c, &s);
    dl_reorder_stats_format(&s, line, sizeof line);
    assert_string_equal(line, "reorder cache: 2 hits, 4 misses, 2 "
                              "invalidations, 0 evictions, 0 refused, 0 "
                              "entries (0.0 MiB)");
    dl_reorder_cache_release(c);
    clSetUserEventStatus(gather, CL_COMPLETE);
    clReleaseEvent(gather);
    clReleaseMemObject(a);
    clReleaseMemObject(p);
}

/* Three A' of 1000 bytes in a budget of 2500: the least recently used
 * goes (its buffer released); one larger than the budget is refused. */
static void test_budget(void **state)
{
    fixture *fx = *state;
    cl_mem a = new_buffer(fx, 64), p = new_buffer(fx, 64), got;
    cl_mem prime[3];
    dl_reorder_key k[3];
    dl_reorder_cache *c;
    assert_int_equal(dl_reorder_cache_create(2500, &c), DL_SUCCESS);
    for (int i = 0; i < 3; i++) {
        prime[i] = new_buffer(fx, 1000);
        k[i] = key_of(a, p, 10 + (size_t)i);
        if (i == 2) { /* 0 used last: 1 is the least recently used */
            assert_int_equal(
                dl_reorder_cache_lookup(c, &k[0], 0, 0, &got, NULL),
                DL_REORDER_HIT);
            clReleaseMemObject(got);
        }
        assert_int_equal(dl_reorder_cache_store(c, &k[i], 0, 0, prime[i], NULL),
                         DL_SUCCESS);
        assert_int_equal(refs(prime[i]), 2); /* ours and the cache's */
    }
    assert_int_equal(refs(prime[1]), 1); /* evicted: released */
    assert_int_equal(refs(prime[0]), 2);
    expect_stats(c, 1, 0, 0, 1, 2);
    assert_int_equal(dl_reorder_cache_lookup(c, &k[1], 0, 0, &got, NULL),
                     DL_REORDER_MISS);

    cl_mem big = new_buffer(fx, 2501);
    dl_reorder_key kb = key_of(a, p, 99);
    assert_int_equal(dl_reorder_cache_store(c, &kb, 0, 0, big, NULL),
                     DL_UNSUPPORTED);
    assert_int_equal(refs(big), 1);
    dl_reorder_stats s;
    dl_reorder_cache_stats(c, &s);
    assert_int_equal(s.refused, 1);
    assert_int_equal(s.bytes, 2000);

    dl_reorder_cache_release(c);
    assert_int_equal(refs(prime[0]), 1);
    assert_int_equal(refs(prime[2]), 1);
    for (int i = 0; i < 3; i++)
        clReleaseMemObject(prime[i]);
    clReleaseMemObject(big);
    clReleaseMemObject(a);
    clReleaseMemObject(p);
}

/* A write to A or P drops its entries, counted; a released buffer's
 * entries go uncounted. */
static void test_invalidate_and_forget(void **state)
{
    fixture *fx = *state;
    cl_mem a = new_buffer(fx, 64), b = new_buffer(fx, 64);
    cl_mem p = new_buffer(fx, 64), q = new_buffer(fx, 64);
    dl_reorder_cache *c;
    assert_int_equal(dl_reorder_cache_create(1 << 20, &c), DL_SUCCESS);
    dl_reorder_key keys[] = {key_of(a, p, 1), key_of(a, q, 1), key_of(b, p, 1),
                             key_of(b, q, 1)};
    cl_mem primes[4];
    for (int i = 0; i < 4; i++) {
        primes[i] = new_buffer(fx, 64);
        assert_int_equal(
            dl_reorder_cache_store(c, &keys[i], 0, 0, primes[i], NULL),
            DL_SUCCESS);
    }
    assert_int_equal(dl_reorder_cache_invalidate(c, p), 2);
    assert_int_equal(refs(primes[0]), 1);
    assert_int_equal(refs(primes[2]), 1);
    expect_stats(c, 0, 0, 2, 0, 2);
    assert_int_equal(dl_reorder_cache_invalidate(c, p), 0);
    assert_int_equal(dl_reorder_cache_forget(c, a), 1);
    expect_stats(c, 0, 0, 2, 0, 1);
    cl_mem got;
    assert_int_equal(dl_reorder_cache_lookup(c, &keys[3], 0, 0, &got, NULL),
                     DL_REORDER_HIT);
    clReleaseMemObject(got);
    dl_reorder_cache_release(c);
    for (int i = 0; i < 4; i++)
        clReleaseMemObject(primes[i]);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(p);
    clReleaseMemObject(q);
}

/* What a launch does: look up, gather on a miss or a stale entry, store;
 * then read A'.  A rewritten between launches must show in A'. */
static void launch_once(fixture *fx, dl_reorder_cache *c,
                        const dl_reorder_key *k, uint64_t va,
                        size_t prime_bytes, dl_reorder_found expect,
                        unsigned char *out)
{
    cl_mem prime;
    cl_event ready = NULL;
    dl_reorder_found f = dl_reorder_cache_lookup(c, k, va, 0, &prime, &ready);
    assert_int_equal(f, expect);
    if (f != DL_REORDER_HIT) {
        if (!prime)
            prime = new_buffer(fx, prime_bytes);
        assert_int_equal(dl_enqueue_gather(fx->engine, fx->cl.queue, k->a, k->p,
                                           &k->ref, &k->range, k->index_bytes,
                                           prime, 0, NULL, &ready),
                         DL_SUCCESS);
        assert_int_equal(dl_reorder_cache_store(c, k, va, 0, prime, ready),
                         DL_SUCCESS);
    }
    assert_int_equal(clEnqueueReadBuffer(fx->cl.queue, prime, CL_TRUE, 0,
                                         prime_bytes, out, ready ? 1 : 0,
                                         ready ? &ready : NULL, NULL),
                     CL_SUCCESS);
    if (ready)
        clReleaseEvent(ready);
    clReleaseMemObject(prime);
}

static void test_with_gather(void **state)
{
    fixture *fx = *state;
    enum { N = 1000, A = 300 };
    float x[A];
    int32_t col[N];
    unsigned char want[N * 4], got[N * 4];
    dl_test_fill(x, sizeof x);
    for (int i = 0; i < N; i++)
        col[i] = (int32_t)dl_test_range(0, A - 1);
    cl_mem dx = dl_test_buffer(&fx->cl, x, sizeof x);
    cl_mem dcol = dl_test_buffer(&fx->cl, col, sizeof col);
    dl_reorder_cache *c;
    assert_int_equal(dl_reorder_cache_create(1 << 20, &c), DL_SUCCESS);
    dl_reorder_key k = key_of(dx, dcol, N);
    uint64_t version = 0;
    for (int launch = 0; launch < 4; launch++) {
        if (launch == 2) { /* the program writes x: a new version */
            dl_test_fill(x, sizeof x);
            assert_int_equal(clEnqueueWriteBuffer(fx->cl.queue, dx, CL_TRUE, 0,
                                                  sizeof x, x, 0, NULL, NULL),
                             CL_SUCCESS);
            version++;
        }
        dl_reorder_found expect = launch == 0   ? DL_REORDER_MISS
                                  : launch == 2 ? DL_REORDER_STALE
                                                : DL_REORDER_HIT;
        launch_once(fx, c, &k, version, sizeof want, expect, got);
        gather_ref((unsigned char *)x, A, col, N, 4, &k.ref, &k.range, want);
        assert_memory_equal(got, want, sizeof want);
    }
    expect_stats(c, 2, 1, 1, 0, 1);
    dl_reorder_cache_release(c);
    clReleaseMemObject(dx);
    clReleaseMemObject(dcol);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_invalidate_and_forget),
        cmocka_unit_test(test_with_gather),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
