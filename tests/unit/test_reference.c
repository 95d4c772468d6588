/* test_reference.c - the host reference dl_convert_host, checked against the
 * naive per-part model of dl_test.c over randomised shapes, plus a worked
 * example written out by hand.  Replay a run with DL_TEST_SEED=<seed>. */
#include "dl_test.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHAPES 1200

static const size_t primes[] = {2,   3,   5,   7,   11,  13,  31,  61,  97,
                                127, 131, 251, 257, 509, 521, 997, 1009};

/* A record of S = 1..64 equal fields of 1, 2, 4, 8 or 16 bytes. */
static dl_record *random_uniform_record(void)
{
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    dl_record *r = NULL;
    assert_int_equal(dl_record_create_uniform((uint32_t)dl_test_range(1, 64),
                                              sizes[dl_test_range(0, 4)], &r),
                     DL_SUCCESS);
    return r;
}

/* Fields of mixed sizes (multiples of a granule g, or odd sizes when g is
 * 1), with gaps and trailing padding, handed over in shuffled order. */
static dl_record *random_mixed_record(void)
{
    static const uint32_t granules[] = {1, 2, 4, 8, 16};
    dl_field f[16];
    uint32_t g = granules[dl_test_range(0, 4)];
    uint32_t n = (uint32_t)dl_test_range(1, 12), end = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (dl_test_range(0, 2) == 0)
            end += g * (uint32_t)dl_test_range(1, 2); /* a gap */
        uint32_t size = g * (uint32_t)dl_test_range(1, 4);
        if (g == 1 && dl_test_range(0, 3) == 0)
            size = (uint32_t)dl_test_range(1, 24);
        f[i] = (dl_field){end, size};
        end += size;
    }
    uint32_t pad = dl_test_range(0, 1) ? g * (uint32_t)dl_test_range(1, 3) : 0;
    for (uint32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)dl_test_range(0, i);
        dl_field t = f[i];
        f[i] = f[j];
        f[j] = t;
    }
    dl_record *r = NULL;
    assert_int_equal(dl_record_create(f, n, pad ? end + pad : 0, &r),
                     DL_SUCCESS);
    assert_int_equal(dl_record_size(r), end + pad);
    return r;
}

static size_t random_count(size_t tile)
{
    size_t t = tile;
    switch (dl_test_range(0, 7)) {
    case 0:
        return 0;
    case 1:
        return 1;
    case 2:
    case 3:
        return primes[dl_test_range(0, sizeof primes / sizeof *primes - 1)];
    case 4:
        return t * dl_test_range(1, 8);
    case 5:
        return t * dl_test_range(1, 8) + 1;
    case 6:
        return t * dl_test_range(1, 8) - 1;
    default:
        return dl_test_range(2, 600);
    }
}

/* Mostly `hint` (the T the count was drawn for), else 1..128, AoS or one
 * of the spellings of DA. */
static size_t random_tile(size_t count, size_t hint)
{
    switch (dl_test_range(0, 9)) {
    case 0:
        return DL_TILE_DA;
    case 1:
        return count ? count : 1;
    case 2:
        return count + dl_test_range(1, 50);
    case 3:
        return 1;
    case 4:
        return dl_test_range(2, 128);
    default:
        return hint;
    }
}

typedef struct shape {
    dl_record *rec;
    size_t count, bytes;
    unsigned char *aos; /* the original data, AoS */
} shape;

static shape random_shape(size_t tile_hint)
{
    shape s;
    s.rec =
        dl_test_range(0, 1) ? random_uniform_record() : random_mixed_record();
    s.count = random_count(tile_hint);
    s.bytes = s.count * dl_record_size(s.rec);
    s.aos = malloc(s.bytes + 1);
    assert_non_null(s.aos);
    dl_test_fill(s.aos, s.bytes);
    return s;
}

static void free_shape(shape *s)
{
    free(s->aos);
    dl_record_release(s->rec);
}

static void print_shape(const shape *s, size_t t1, size_t t2)
{
    print_error("failing shape: M=%zu S=%u bytes (%u fields) T1=%zu T2=%zu\n",
                s->count, dl_record_size(s->rec), dl_record_nfields(s->rec), t1,
                t2);
}

/* Converts `in` (ASTA(from)) to ASTA(to) with the library and checks the
 * result against the naive model.  Returns the converted copy. */
static unsigned char *check_convert(const shape *s, const unsigned char *in,
                                    size_t from, size_t to)
{
    unsigned char *got = malloc(s->bytes + 1), *want = malloc(s->bytes + 1);
    assert_true(got && want);
    memcpy(got, in, s->bytes);
    dl_layout a = dl_layout_asta(s->rec, s->count, from);
    dl_layout b = dl_layout_asta(s->rec, s->count, to);
    dl_status st = dl_convert_host(got, s->bytes, &a, &b);
    if (st != DL_SUCCESS)
        print_error("dl_convert_host: %s\n", dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    naive_convert(want, in, s->rec, s->count, from, to);
    if (memcmp(got, want, s->bytes) != 0)
        print_shape(s, from, to);
    assert_memory_equal(got, want, s->bytes);
    free(want);
    return got;
}

/* dl_layout_offset agrees with the definition for every field. */
static void check_offsets(const shape *s, size_t tile)
{
    dl_layout l = dl_layout_asta(s->rec, s->count, tile);
    uint32_t size = dl_record_size(s->rec), nf = dl_record_nfields(s->rec);
    for (size_t i = 0; i < s->count; i++)
        for (uint32_t f = 0; f < nf; f++) {
            dl_field fd = dl_record_field(s->rec, f);
            size_t off = 0;
            assert_int_equal(dl_layout_offset(&l, i, f, &off), DL_SUCCESS);
            size_t want =
                naive_offset(s->count, tile, size, i, fd.offset, fd.size);
            if (off != want)
                print_shape(s, tile, tile);
            assert_int_equal(off, want);
        }
}

static void test_random_shapes(void **state)
{
    (void)state;
    dl_test_seed("test_reference");
    size_t tails = 0, empties = 0, das = 0;
    for (int n = 0; n < SHAPES; n++) {
        size_t h1 = dl_test_range(1, 128), h2 = dl_test_range(1, 128);
        shape s = random_shape(h1);
        size_t t1 = random_tile(s.count, h1), t2 = random_tile(s.count, h2);
        size_t e1 = naive_tile(s.count, t1);
        tails += s.count % e1 != 0;
        empties += s.count == 0;
        das += e1 == (s.count ? s.count : 1);

        unsigned char *x = check_convert(&s, s.aos, 1, t1); /* forward */
        unsigned char *y = check_convert(&s, x, t1, t2);    /* across  */
        unsigned char *z = check_convert(&s, y, t2, 1);     /* back    */
        if (memcmp(z, s.aos, s.bytes) != 0)
            print_shape(&s, t1, t2);
        assert_memory_equal(z, s.aos, s.bytes);
        check_offsets(&s, t1);
        free(x);
        free(y);
        free(z);
        free_shape(&s);
    }
    /* The generator must really cover what this test claims to cover. */
    printf("%d shapes: %zu with a partial tile, %zu empty, %zu DA\n", SHAPES,
           tails, empties, das);
    assert_true(tails > SHAPES / 5 && empties > 10 && das > 50);
}

/* AoS is ASTA(1); DA is ASTA(M), whatever tile >= M spells it. */
static void test_family_ends(void **state)
{
    (void)state;
    dl_test_seed("test_family_ends");
    for (int n = 0; n < 300; n++) {
        shape s = random_shape(dl_test_range(1, 128));
        size_t m = s.count;
        dl_layout aos = dl_layout_aos(s.rec, m),
                  t1 = dl_layout_asta(s.rec, m, 1);
        dl_layout da = dl_layout_da(s.rec, m);
        dl_layout spellings[3] = {dl_layout_asta(s.rec, m, m ? m : 1),
                                  dl_layout_asta(s.rec, m, m + 13),
                                  dl_layout_asta(s.rec, m, DL_TILE_DA)};
        unsigned char *ref = malloc(s.bytes + 1), *alt = malloc(s.bytes + 1);
        assert_true(ref && alt);
        memcpy(ref, s.aos, s.bytes);
        assert_int_equal(dl_convert_host(ref, s.bytes, &aos, &da), DL_SUCCESS);
        for (int k = 0; k < 3; k++) {
            memcpy(alt, s.aos, s.bytes);
            assert_int_equal(dl_convert_host(alt, s.bytes, &t1, &spellings[k]),
                             DL_SUCCESS);
            assert_memory_equal(alt, ref, s.bytes);
            assert_int_equal(dl_layout_tile(&spellings[k]), m ? m : 1);
        }
        /* AoS -> ASTA(1) moves nothing. */
        memcpy(alt, s.aos, s.bytes);
        assert_int_equal(dl_convert_host(alt, s.bytes, &aos, &t1), DL_SUCCESS);
        assert_memory_equal(alt, s.aos, s.bytes);
        free(ref);
        free(alt);
        free_shape(&s);
    }
}

/* A worked example, written out by hand from the definition:
 * record {a: 1 byte @0, (gap 1 byte), b: 2 bytes @2}, M = 5, T = 2. */
static void test_worked_example(void **state)
{
    (void)state;
    const dl_field f[2] = {{2, 2}, {0, 1}}; /* given out of order */
    dl_record *r;
    assert_int_equal(dl_record_create(f, 2, 4, &r), DL_SUCCESS);
    unsigned char aos[20], buf[20];
    for (int i = 0; i < 5; i++) {
        aos[4 * i + 0] = (unsigned char)(0xa0 + i); /* a      */
        aos[4 * i + 1] = (unsigned char)(0xe0 + i); /* gap    */
        aos[4 * i + 2] = (unsigned char)(0xb0 + i); /* b lo   */
        aos[4 * i + 3] = (unsigned char)(0xc0 + i); /* b hi   */
    }
    const unsigned char asta2[20] = {
        0xa0, 0xa1, 0xe0, 0xe1, 0xb0, 0xc0, 0xb1, 0xc1, /* tile 0 */
        0xa2, 0xa3, 0xe2, 0xe3, 0xb2, 0xc2, 0xb3, 0xc3, /* tile 1 */
        0xa4, 0xe4, 0xb4, 0xc4,                         /* tail R=1 */
    };
    const unsigned char da[20] = {
        0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4,
        0xb0, 0xc0, 0xb1, 0xc1, 0xb2, 0xc2, 0xb3, 0xc3, 0xb4, 0xc4,
    };
    dl_layout l_aos = dl_layout_aos(r, 5), l_2 = dl_layout_asta(r, 5, 2);
    dl_layout l_da = dl_layout_da(r, 5);
    memcpy(buf, aos, 20);
    assert_int_equal(dl_convert_host(buf, 20, &l_aos, &l_2), DL_SUCCESS);
    assert_memory_equal(buf, asta2, 20);
    assert_int_equal(dl_convert_host(buf, 20, &l_2, &l_da), DL_SUCCESS);
    assert_memory_equal(buf, da, 20);
    /* The naive model agrees with the hand-written bytes too. */
    naive_convert(buf, aos, r, 5, 1, 2);
    assert_memory_equal(buf, asta2, 20);
    naive_convert(buf, aos, r, 5, 1, DL_TILE_DA);
    assert_memory_equal(buf, da, 20);
    /* Field 0 is b: record 4 lives in the tail tile at 16 + 2*1 + 0. */
    size_t off;
    assert_int_equal(dl_layout_offset(&l_2, 4, 0, &off), DL_SUCCESS);
    assert_int_equal(off, 18);
    assert_int_equal(dl_layout_offset(&l_2, 3, 1, &off), DL_SUCCESS);
    assert_int_equal(off, 9);
    dl_record_release(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example),
        cmocka_unit_test(test_random_shapes),
        cmocka_unit_test(test_family_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
