/* test_layout.c - record descriptions (padding parts, overlap, word size),
 * layout kinds and the accessor dl_layout_offset. */
#include "dl_test.h"
#include "internal.h" /* record parts and the kernel specialisation */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

static dl_record *make(const dl_field *f, uint32_t n, uint32_t size)
{
    dl_record *r = NULL;
    dl_status st = dl_record_create(f, n, size, &r);
    if (st != DL_SUCCESS)
        print_error("dl_record_create: %s\n", dl_last_error());
    assert_int_equal(st, DL_SUCCESS);
    assert_non_null(r);
    return r;
}

static void expect_parts(const dl_record *r, const naive_part *want, uint32_t n)
{
    assert_int_equal(r->nparts, n);
    for (uint32_t i = 0; i < n; i++) {
        assert_int_equal(r->parts[i].offset, want[i].offset);
        assert_int_equal(r->parts[i].size, want[i].size);
    }
}

static void test_padding_parts(void **state)
{
    (void)state;
    /* struct { int a; double b; char c; } on x86-64: gaps at 4 and 17. */
    const dl_field f[3] = {{16, 1}, {0, 4}, {8, 8}};
    dl_record *r = make(f, 3, 24);
    const naive_part want[5] = {{0, 4}, {4, 4}, {8, 8}, {16, 1}, {17, 7}};
    expect_parts(r, want, 5);
    assert_int_equal(r->word, 1);
    assert_int_equal(r->rec_words, 24);
    assert_false(r->uniform);
    /* The user's fields keep the user's order. */
    assert_int_equal(dl_record_nfields(r), 3);
    assert_int_equal(dl_record_field(r, 0).offset, 16);
    assert_int_equal(dl_record_field(r, 2).size, 8);
    assert_int_equal(dl_record_field(r, 3).size, 0); /* out of range */
    dl_record_release(r);

    /* Size 0 means "end of the last field"; touching fields are fine. */
    const dl_field g[2] = {{4, 4}, {0, 4}};
    r = make(g, 2, 0);
    assert_int_equal(dl_record_size(r), 8);
    assert_int_equal(r->nparts, 2);
    assert_true(r->uniform);
    dl_record_release(r);

    /* A leading gap is a part too. */
    const dl_field h[1] = {{8, 8}};
    r = make(h, 1, 0);
    const naive_part want_h[2] = {{0, 8}, {8, 8}};
    expect_parts(r, want_h, 2);
    assert_int_equal(r->word, 8);
    assert_true(r->uniform);
    dl_record_release(r);
}

static void test_record_errors(void **state)
{
    (void)state;
    dl_record *r = (dl_record *)&r;
    const dl_field overlap[2] = {{0, 8}, {4, 4}};
    assert_int_equal(dl_record_create(overlap, 2, 0, &r), DL_INVALID_LAYOUT);
    assert_null(r);
    assert_true(strlen(dl_last_error()) > 0);
    const dl_field same[2] = {{4, 2}, {4, 2}};
    assert_int_equal(dl_record_create(same, 2, 0, &r), DL_INVALID_LAYOUT);
    const dl_field ok[2] = {{0, 4}, {4, 4}};
    assert_int_equal(dl_record_create(ok, 2, 7, &r), DL_INVALID_LAYOUT);
    assert_null(r);
    assert_int_equal(dl_record_create(ok, 0, 0, &r), DL_INVALID_LAYOUT);
    assert_int_equal(dl_record_create(NULL, 2, 0, &r), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_record_create(ok, 2, 0, NULL), DL_INVALID_ARGUMENT);
    const dl_field zero[1] = {{0, 0}};
    assert_int_equal(dl_record_create(zero, 1, 0, &r), DL_INVALID_LAYOUT);
    const dl_field huge[1] = {{0, DL_MAX_FIELD_SIZE + 1}};
    assert_int_equal(dl_record_create(huge, 1, 0, &r), DL_UNSUPPORTED);
    const dl_field max[1] = {{0, DL_MAX_FIELD_SIZE}};
    r = make(max, 1, 0);
    assert_int_equal(r->word, 16);
    dl_record_release(r);
    assert_int_equal(dl_record_create_uniform(DL_MAX_FIELDS + 1, 4, &r),
                     DL_UNSUPPORTED);
    assert_int_equal(dl_record_create_uniform(0, 4, &r), DL_INVALID_LAYOUT);
    assert_int_equal(dl_record_create_uniform(3, 0, &r), DL_INVALID_LAYOUT);
    assert_int_equal(dl_record_create_uniform(3, DL_MAX_FIELD_SIZE + 1, &r),
                     DL_UNSUPPORTED);
    /* NULL records are harmless to the getters and to release. */
    assert_int_equal(dl_record_size(NULL), 0);
    assert_int_equal(dl_record_nfields(NULL), 0);
    dl_record_release(NULL);
}

/* W is the largest of 16, 8, 4, 2, 1 dividing every part (gaps included). */
static void test_word_size(void **state)
{
    (void)state;
    static const struct {
        dl_field f[3];
        uint32_t n, size, word;
        int uniform;
    } cases[] = {
        {{{0, 1}}, 1, 0, 1, 1},
        {{{0, 3}}, 1, 0, 1, 0},
        {{{0, 2}, {2, 2}}, 2, 0, 2, 1},
        {{{0, 6}, {6, 2}}, 2, 0, 2, 0},
        {{{0, 4}}, 1, 0, 4, 1},
        {{{0, 12}}, 1, 0, 4, 0}, /* float3 */
        {{{0, 8}}, 1, 12, 4, 0}, /* 8-byte field, 4-byte tail gap */
        {{{0, 8}, {8, 8}}, 2, 0, 8, 1},
        {{{0, 24}}, 1, 0, 8, 0},
        {{{0, 16}}, 1, 0, 16, 1}, /* float4 */
        {{{0, 48}}, 1, 0, 16, 0},
        {{{0, 16}}, 1, 32, 16, 1}, /* 16-byte gap: still one word each */
        {{{0, 16}, {16, 4}}, 2, 0, 4, 0},
        {{{0, 16}, {17, 1}}, 2, 0, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dl_record *r = make(cases[i].f, cases[i].n, cases[i].size);
        if (r->word != cases[i].word || r->uniform != cases[i].uniform)
            print_error("case %zu: word %u uniform %d\n", i, r->word,
                        r->uniform);
        assert_int_equal(r->word, cases[i].word);
        assert_int_equal(r->uniform, cases[i].uniform);
        assert_int_equal(r->rec_words * r->word, r->size);
        dl_record_release(r);
    }
}

static void test_layout_kinds(void **state)
{
    (void)state;
    dl_record *r;
    assert_int_equal(dl_record_create_uniform(3, 4, &r), DL_SUCCESS);
    dl_layout l = dl_layout_aos(r, 100);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_AOS);
    assert_int_equal(dl_layout_tile(&l), 1);
    l = dl_layout_asta(r, 100, 8);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_ASTA);
    assert_int_equal(dl_layout_tile(&l), 8);
    l = dl_layout_asta(r, 100, 99);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_ASTA);
    l = dl_layout_asta(r, 100, 100);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_DA);
    l = dl_layout_asta(r, 100, 5000);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_DA);
    assert_int_equal(dl_layout_tile(&l), 100);
    l = dl_layout_da(r, 100);
    assert_int_equal(dl_layout_kind(&l), DL_KIND_DA);
    assert_int_equal(dl_layout_tile(&l), 100);
    assert_int_equal(dl_layout_bytes(&l), 1200);
    l = dl_layout_da(r, 0); /* empty: T is 1 */
    assert_int_equal(dl_layout_tile(&l), 1);
    assert_int_equal(dl_layout_bytes(&l), 0);
    assert_int_equal(dl_layout_check(&l), DL_SUCCESS);

    l = dl_layout_asta(r, 100, 0);
    assert_int_equal(dl_layout_check(&l), DL_INVALID_LAYOUT);
    assert_int_equal(dl_layout_bytes(&l), 0);
    l = dl_layout_aos(NULL, 100);
    assert_int_equal(dl_layout_check(&l), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_layout_check(NULL), DL_INVALID_ARGUMENT);
    l = dl_layout_aos(r, SIZE_MAX / 12 + 1);
    assert_int_equal(dl_layout_check(&l), DL_SIZE_OVERFLOW);
    l = dl_layout_aos(r, SIZE_MAX / 12);
    assert_int_equal(dl_layout_check(&l), DL_SUCCESS);
    dl_record_release(r);
}

static void test_offsets(void **state)
{
    (void)state;
    /* {float x; double y} padded to 16: parts x(0,4) gap(4,4) y(8,8). */
    const dl_field f[2] = {{0, 4}, {8, 8}};
    dl_record *r = make(f, 2, 16);
    dl_layout l = dl_layout_asta(r, 10, 4); /* tiles of 4, tail R = 2 */
    size_t off = 0;
    struct {
        size_t i;
        uint32_t field;
        size_t want;
    } cases[] = {
        {0, 0, 0},     /* tile 0, x[0]                  */
        {3, 0, 12},    /* x[3]                          */
        {0, 1, 8 * 4}, /* y[0] after x[4] and gap[4]     */
        {3, 1, 32 + 3 * 8},
        {5, 1, 64 + 32 + 8}, /* tile 1, slot 1                 */
        {8, 0, 128},         /* tail tile of width 2 at 128    */
        {9, 0, 128 + 4},
        {9, 1, 128 + 8 * 2 + 8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        assert_int_equal(dl_layout_offset(&l, cases[c].i, cases[c].field, &off),
                         DL_SUCCESS);
        assert_int_equal(off, cases[c].want);
    }
    l = dl_layout_aos(r, 10);
    assert_int_equal(dl_layout_offset(&l, 7, 1, &off), DL_SUCCESS);
    assert_int_equal(off, 7 * 16 + 8);
    l = dl_layout_da(r, 10);
    assert_int_equal(dl_layout_offset(&l, 7, 1, &off), DL_SUCCESS);
    assert_int_equal(off, 8 * 10 + 7 * 8);

    assert_int_equal(dl_layout_offset(&l, 10, 0, &off), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_layout_offset(&l, 0, 2, &off), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_layout_offset(&l, 0, 0, NULL), DL_INVALID_ARGUMENT);
    l = dl_layout_asta(r, 10, 0);
    assert_int_equal(dl_layout_offset(&l, 0, 0, &off), DL_INVALID_LAYOUT);
    dl_record_release(r);
}

/* An ELL-style M x K matrix: AoS of K scalars, ASTA(T) is the tiled
 * transpose (element (row, col) at tile*T*K + col*T + slot). */
static void test_tall(void **state)
{
    (void)state;
    dl_record *r = NULL;
    dl_layout l;
    assert_int_equal(dl_layout_tall(4, 10, 3, 4, &r, &l), DL_SUCCESS);
    assert_int_equal(dl_record_nfields(r), 3);
    assert_int_equal(dl_record_size(r), 12);
    assert_int_equal(l.count, 10);
    assert_int_equal(dl_layout_tile(&l), 4);
    size_t off;
    assert_int_equal(dl_layout_offset(&l, 5, 2, &off), DL_SUCCESS);
    assert_int_equal(off, (1 * 4 * 3 + 2 * 4 + 1) * 4);
    assert_int_equal(dl_layout_offset(&l, 9, 1, &off), DL_SUCCESS);
    assert_int_equal(off, (2 * 4 * 3 + 1 * 2 + 1) * 4); /* tail R = 2 */
    dl_record_release(r);
    assert_int_equal(dl_layout_tall(4, 10, 3, 4, NULL, &l),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_layout_tall(0, 10, 3, 4, &r, &l), DL_INVALID_LAYOUT);
    assert_int_equal(dl_layout_tall(4, 10, 0, 4, &r, &l), DL_INVALID_LAYOUT);
}

static void test_names(void **state)
{
    (void)state;
    for (int s = DL_BUILD_ERROR; s <= DL_SUCCESS; s++)
        assert_string_not_equal(dl_status_name((dl_status)s),
                                "DL_UNKNOWN_STATUS");
    assert_string_equal(dl_status_name(DL_BUFFER_TOO_SMALL),
                        "DL_BUFFER_TOO_SMALL");
    assert_string_equal(dl_status_name((dl_status)42), "DL_UNKNOWN_STATUS");
    const dl_algo all[] = {DL_ALGO_AUTO, DL_ALGO_BS, DL_ALGO_PTTWAC,
                           DL_ALGO_PIPT, DL_ALGO_OOP};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        dl_algo back = (dl_algo)-1;
        assert_int_equal(dl_algo_parse(dl_algo_name(all[i]), &back),
                         DL_SUCCESS);
        assert_int_equal(back, all[i]);
    }
    assert_string_equal(dl_algo_name(DL_ALGO_PTTWAC), "pttwac");
}

/* The kernels see a non-uniform record through two unit tables. */
static void test_spec_tables(void **state)
{
    (void)state;
    const dl_field f[2] = {{0, 4}, {8, 8}}; /* parts 4, gap 4, 8: W = 4 */
    dl_record *r = make(f, 2, 0);
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, r);
    assert_false(spec.failed);
    assert_non_null(strstr(spec.text, "#define DL_RW 4u\n"));
    assert_non_null(strstr(spec.text, "#define DL_UNIFORM 0\n"));
    assert_non_null(strstr(spec.text, "#define DL_WORD uint\n"));
    assert_non_null(
        strstr(spec.text, "__constant uint dl_unit_start[4] = {0,1,2,2,};"));
    assert_non_null(
        strstr(spec.text, "__constant uint dl_unit_len[4] = {1,1,2,2,};"));
    dl_spec_free(&spec);
    dl_record_release(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_padding_parts),
        cmocka_unit_test(test_record_errors),
        cmocka_unit_test(test_word_size),
        cmocka_unit_test(test_layout_kinds),
        cmocka_unit_test(test_offsets),
        cmocka_unit_test(test_tall),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_spec_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
