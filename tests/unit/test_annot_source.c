/* test_annot_source.c - whole program sources: given in pieces, and
 * robustness against whatever a program source may contain (garbage,
 * mutations, unterminated constructs, NUL bytes, a large source). */
#include "test_annot_common.h"

/* -------------------------------------------------------- source strings */

static void test_parse_strings(void **state)
{
    (void)state;
    const char *parts[] = {"//DL: aos: a[n]\nker", "nel void k(global int",
                           " *a, int n) {}XXXX"};
    size_t lengths[] = {0, 0, 14};
    dl_annot_program *prog = NULL;
    assert_int_equal(dl_annot_parse_strings(3, parts, lengths, NULL, &prog),
                     DL_SUCCESS);
    expect_no_diags(prog);
    assert_string_equal(prog->source_name, "<source>");
    assert_true(kernel(prog, "k")->ok);
    dl_annot_free(prog);
    assert_int_equal(dl_annot_parse_strings(3, parts, NULL, "x", &prog),
                     DL_SUCCESS);
    dl_annot_free(prog);
    assert_int_equal(dl_annot_parse_strings(0, NULL, NULL, "x", &prog),
                     DL_SUCCESS);
    assert_int_equal(prog->nkernels, 0);
    dl_annot_free(prog);
    const char *bad[] = {"a", NULL};
    assert_int_equal(dl_annot_parse_strings(2, bad, NULL, "x", &prog),
                     DL_INVALID_ARGUMENT);
    assert_null(prog);
    assert_int_equal(dl_annot_parse(NULL, 5, "x", &prog), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_annot_parse("", 0, "x", NULL), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_annot_parse(NULL, 0, "x", &prog), DL_SUCCESS);
    dl_annot_free(prog);
    dl_annot_free(NULL);
}

/* -------------------------------------------------------------- robustness */

static void test_binary_garbage(void **state)
{
    (void)state;
    size_t len = 1 << 20;
    char *src = malloc(len);
    for (int round = 0; round < 8; round++) {
        for (size_t i = 0; i < len; i++)
            src[i] = (char)next_rand();
        /* Sprinkle the interesting bytes of the grammar. */
        static const char *const bits[] = {"//DL: aos: a[n]\n",
                                           "kernel ",
                                           "(",
                                           ")",
                                           "{",
                                           "}",
                                           "/*",
                                           "*/",
                                           "\"",
                                           "'",
                                           "\\\n",
                                           "#",
                                           "\n",
                                           "__attribute__((",
                                           ";",
                                           ","};
        for (int j = 0; j < 20000 * round; j++) {
            const char *b = bits[next_rand() % 16];
            size_t at = next_rand() % (len - 20);
            memcpy(src + at, b, strlen(b));
        }
        dl_annot_program *prog = NULL;
        assert_int_equal(dl_annot_parse(src, len, "garbage", &prog),
                         DL_SUCCESS);
        assert_true(prog->ndiags <= DL_ANNOT_MAX_DIAGS);
        dl_annot_free(prog);
    }
    free(src);
}

/* Random edits of a valid source must not crash, and a kernel entry is
 * either ok with sound arguments or marked. */
static void test_mutations(void **state)
{
    (void)state;
    static const char base[] =
        "struct rec { float a; int b; };\n"
        "//DL: v1 aos: s[global_size(0)] record(size=8; 0:4, 4:4) -> "
        "asta(32)\n"
        "//DL: AoS: g[n * 2][20]\n"
        "__kernel __attribute__((reqd_work_group_size(64,1,1)))\n"
        "void k(__global struct rec *s, __global const float *g, int n)\n"
        "{ /* body */ s[0].a = g[1]; }\n"
        "//DL: da: m[rows][8] -> asta(auto)\n"
        "kernel void spmv(global float *m, uint rows) { \"str\"; }\n";
    static const char alphabet[] = "[]():;,->/*\\\n\"' aosdaDL0123456789"
                                   "record size=v1 asta auto kernel{}\x00";
    char src[sizeof base + 64];
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(src, base, sizeof base - 1);
        size_t len = mutate(src, sizeof base - 1, sizeof src, alphabet,
                            sizeof alphabet - 1);
        dl_annot_program *prog = NULL;
        assert_int_equal(dl_annot_parse(src, len, "mut", &prog), DL_SUCCESS);
        for (uint32_t i = 0; i < prog->nkernels; i++) {
            const dl_annot_kernel *k = &prog->kernels[i];
            for (uint32_t j = 0; j < k->nargs; j++) {
                const dl_annot_arg *a = &k->args[j];
                assert_true(a->index < k->nparams);
                assert_non_null(a->count);
                assert_true(a->ndims >= 1);
                assert_true(!a->nfields || a->record);
                char buf[1024];
                dl_annot_format(a, buf, sizeof buf);
            }
        }
        dl_annot_free(prog);
    }
}

static void test_unterminated(void **state)
{
    (void)state;
    static const char *const srcs[] = {
        "//DL: aos: a[n]\nkernel void k(global int *a, int n) { /* never",
        "//DL: aos: a[n]\nkernel void k(global int *a, int n) { \"never",
        "//DL: aos: a[n]\nkernel void k(global int *a, int n",
        "//DL: aos: a[n]\nkernel void k(global int *a, __attribute__((x",
        "//DL: aos: a[n]\nkernel void k",
        "//DL: aos: a[n]\nkernel",
        "//DL: aos: a[n",
        "//DL: aos: s[n] record(0:4,",
        "/*",
        "\"",
        "'",
        "\\",
        "#",
        "//",
        "//DL:",
        "kernel void k(",
        "kernel void k() __attribute__((",
        "}}}}kernel void k(global int *a) {}",
    };
    for (unsigned i = 0; i < sizeof srcs / sizeof *srcs; i++) {
        dl_annot_program *prog = NULL;
        /* Parse exactly strlen bytes from a heap copy (no terminator),
         * so that valgrind sees any read beyond the end. */
        size_t len = strlen(srcs[i]);
        char *copy = malloc(len ? len : 1);
        memcpy(copy, srcs[i], len);
        assert_int_equal(dl_annot_parse(copy, len, "u", &prog), DL_SUCCESS);
        dl_annot_free(prog);
        free(copy);
    }
    /* A string literal that runs to the end of its line does not hide the
     * next line. */
    dl_annot_program *prog = parse("constant char *s = \"oops\n"
                                   "//DL: aos: a[n]\n"
                                   "kernel void k(global int *a, int n) {}\n");
    assert_true(kernel(prog, "k")->ok);
    dl_annot_free(prog);
}

static void test_nul_bytes(void **state)
{
    (void)state;
    static const char src[] = "//DL: aos: a[n]\0\n"
                              "kernel void k(global int *a, int n) {}\0\n"
                              "//DL: aos: a\0[n]\n"
                              "kernel void j(global int *a, int n) {}\n";
    dl_annot_program *prog = NULL;
    assert_int_equal(dl_annot_parse(src, sizeof src - 1, "nul", &prog),
                     DL_SUCCESS);
    assert_false(kernel(prog, "k")->ok);
    expect_diag(prog, 1, "byte 0x00");
    assert_false(kernel(prog, "j")->ok);
    dl_annot_free(prog);
}

static void test_large_source(void **state)
{
    (void)state;
    static const char block[] =
        "/* a block comment with // DL: inside */\n"
        "//DL: aos: a[n * 2][4] -> asta(16)\n"
        "__kernel void k%06d(__global float *a, int n) {\n"
        "    a[get_global_id(0)] += 1.0f; /* \"x\" */ \n"
        "}\n";
    size_t cap = 10u << 20, n = 0;
    char *src = malloc(cap + 256);
    int kernels = 0;
    while (n < cap)
        n += (size_t)snprintf(src + n, 256, block, kernels++);
    clock_t t0 = clock();
    dl_annot_program *prog = NULL;
    assert_int_equal(dl_annot_parse(src, n, "big", &prog), DL_SUCCESS);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    expect_no_diags(prog);
    assert_int_equal(prog->nkernels, (uint32_t)kernels);
    assert_true(prog->kernels[kernels - 1].ok);
    print_message("  %zu bytes, %d kernels: %.2f s\n", n, kernels, secs);
    assert_true(secs < 20.0); /* linear, even under valgrind */
    dl_annot_free(prog);

    /* 10 MB without a single newline or kernel. */
    memset(src, 'x', cap);
    assert_int_equal(dl_annot_parse(src, cap, "flat", &prog), DL_SUCCESS);
    dl_annot_free(prog);
    /* 10 MB of open parentheses after a kernel keyword. */
    memcpy(src, "kernel void k", 13);
    memset(src + 13, '(', cap - 13);
    assert_int_equal(dl_annot_parse(src, cap, "parens", &prog), DL_SUCCESS);
    dl_annot_free(prog);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_strings),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_unterminated),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_large_source),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
