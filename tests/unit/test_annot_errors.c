/* test_annot_errors.c - the rejection of bad `// DL:` annotations, one
 * kernel at a time, and the diagnostics that say why. */
#include "test_annot_common.h"

/* ----------------------------------------------------------------- errors */

static void test_syntax_errors(void **state)
{
    (void)state;
    rejected("//DL: AoS f[n]", "expected ':' after the layout");
    rejected("//DL: AoS:", "expected the argument name");
    rejected("//DL: AoS: f", "expected '[' and the record count");
    rejected("//DL: AoS: f[n", "'[' without a matching ']'");
    rejected("//DL: AoS: f[]", "empty dimension");
    rejected("//DL: AoS: f[n +]", "dimension 1");
    rejected("//DL: AoS: f[n][4 4]", "dimension 2");
    rejected("//DL: AoS: f[n][1][1][1][1][1][1][1][1]", "more than 8");
    rejected("//DL: SoA: f[n]", "expected a layout (aos, da or asta(T))");
    rejected("//DL: 3: f[n]", "expected a layout");
    rejected("//DL:", "expected a layout");
    rejected("//DL: asta: f[n]", "'(' and the tile size");
    rejected("//DL: asta(: f[n]", "expected a tile size");
    rejected("//DL: asta(4: f[n]", "')' after the tile size");
    rejected("//DL: asta(0): f[n]", "at least 1");
    rejected("//DL: asta(auto): f[n]", "only be a target");
    rejected("//DL: asta(99999999999): f[n]", "larger than");
    rejected("//DL: aos: f[n] -> ", "expected a layout");
    rejected("//DL: aos: f[n] -> asta(-1)", "tile size or auto");
    rejected("//DL: aos: f[n] -> asta(0)", "at least 1");
    rejected("//DL: aos: f[n] => da", "record(...), '->' or the end");
    rejected("//DL: AoS: f[global_size(0)] AOS2ASTA_foo",
             "found 'AOS2ASTA_foo'");
    rejected("//DL: aos: f[n] -> da da", "found 'da'");
    rejected("//DL: v2 aos: f[n]", "version v2 is not supported");
    rejected("//DL: v1", "expected a layout");
    rejected("//DL: aos: f[n] record", "'(' after record");
    rejected("//DL: aos: s[n] record()", "a field offset");
    rejected("//DL: aos: s[n] record(size=8)", "';' after the record size");
    rejected("//DL: aos: s[n] record(size=0; 0:4)", "must be positive");
    rejected("//DL: aos: s[n] record(size=; 0:4)", "the record size");
    rejected("//DL: aos: s[n] record(0:4 4:4)", "',' or ')'");
    rejected("//DL: aos: s[n] record(0:4,)", "a field offset");
    rejected("//DL: aos: s[n] record(0)", "':' between");
    rejected("//DL: aos: s[n] record(0:4, 4:4", "',' or ')'");
    rejected("//DL: aos: s[n] record(0:4) -> da record(0:4)", "found 'record");
    rejected("//DL: aos: s[n] record(0:99999999999)", "larger than");
    rejected("//DL: aos: f[n]\x01", "byte 0x01");
}

static void test_record_errors(void **state)
{
    (void)state;
    rejected("//DL: aos: s[n] record(0:8, 4:4)", "fields 0:8 and 4:4 overlap");
    rejected("//DL: aos: s[n] record(4:4, 0:8)", "overlap");
    rejected("//DL: aos: s[n] record(0:4, 0:4)", "overlap");
    rejected("//DL: aos: s[n] record(size=8; 0:4, 4:8)",
             "field 4:8 does not fit the record of 8 bytes");
    rejected("//DL: aos: s[n] record(0:0)", "1 to 4096 bytes");
    rejected("//DL: aos: s[n] record(0:5000)", "1 to 4096 bytes");
    rejected("//DL: aos: s[n] record(4294967295:4)", "beyond 4 GiB");
}

static void test_binding_errors(void **state)
{
    (void)state;
    rejected("//DL: aos: g[n]", "kernel 'k' has no argument 'g'");
    rejected("//DL: aos: n[4]", "is not a __global or __constant pointer");
    rejected("//DL: aos: x[4]", "not a __global or __constant pointer");
    rejected("//DL: aos: f[n][Q]", "must be a constant"); /* a macro */
    accepted("//DL: aos: f[Q][4]"); /* a build-option macro, not an error */
    rejected("//DL: aos: f[s][4]", "'s' in a dimension is not an integer");
    rejected("//DL: aos: f[x][4]", "'x' in a dimension is not an integer");
    rejected("//DL: aos: f[n][m]", "must be a constant");
    rejected("//DL: aos: f[n][global_size(0)]", "must be a constant");
    rejected("//DL: aos: f[n][0]", "1 to 4096 elements");
    rejected("//DL: aos: f[n][5000]", "1 to 4096 elements");
    rejected("//DL: aos: f[n][4 - 5]", "1 to 4096 elements");
    rejected("//DL: aos: f[n][1/0]", "division by zero");
    rejected("//DL: aos: f[n][4] record(size=8; 0:4, 4:4)",
             "record size 8 does not match the 16 bytes of 4 float");
    rejected("//DL: aos: f[n] record(size=8; 0:4, 4:4)", "as a last dimension");
    rejected("//DL: aos: s[n] -> asta(4)",
             "'s' points to struct rec, whose layout the runtime does not "
             "know");
    /* Without a conversion the record may stay unknown. */
    accepted("//DL: aos: s[n]");
    accepted("//DL: aos: s[n] -> aos");
    accepted("//DL: asta(1): s[n] -> aos");
}

static void test_local_pointer_rejected(void **state)
{
    (void)state;
    dl_annot_program *prog = parse("//DL: aos: l[n]\n"
                                   "kernel void k(local float *l, int n) {}\n");
    assert_false(kernel(prog, "k")->ok);
    expect_diag(prog, 1, "not a __global or __constant pointer");
    dl_annot_free(prog);
}

static void test_duplicate_argument(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("//DL: aos: f[n][2]\n"
              "//DL: aos: f[n * 2][1]\n"
              "kernel void k(global float *f, int n) {}\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_false(k->ok);
    assert_int_equal(k->nargs, 1); /* the first one stays, for reference */
    expect_diag(prog, 2, "annotated twice (first on line 1)");
    assert_int_equal(prog->ndiags, 1);
    dl_annot_free(prog);
}

/* A bad annotation costs its kernel only; parsing goes on. */
static void test_error_isolated_to_kernel(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("//DL: aos: a[n][2]\n"
              "kernel void good1(global int *a, int n) {}\n"
              "//DL: aos: a[n][2]\n"
              "//DL: aos: b[n] oops\n"
              "kernel void bad(global int *a, global int *b, int n) {}\n"
              "//DL: aos: a[n][2]\n"
              "kernel void good2(global int *a, int n) {}\n");
    assert_int_equal(prog->nkernels, 3);
    assert_true(kernel(prog, "good1")->ok);
    assert_true(kernel(prog, "good2")->ok);
    const dl_annot_kernel *bad = kernel(prog, "bad");
    assert_false(bad->ok);
    assert_int_equal(bad->nargs, 1);
    assert_int_equal(prog->ndiags, 1);
    expect_diag(prog, 4,
                "kernel 'bad' will run untransformed: column 17: "
                "expected record(...), '->' or the end, found "
                "'oops'");
    dl_annot_free(prog);
}

static void test_misplaced_annotations(void **state)
{
    (void)state;
    dl_annot_program *prog = parse("kernel void k(global int *a, int n) {\n"
                                   "    //DL: aos: a[n]\n"
                                   "    a[0] = 1;\n"
                                   "}\n"
                                   "struct s {\n"
                                   "    //DL: aos: a[n]\n"
                                   "    int x;\n"
                                   "};\n"
                                   "//DL: aos: a[n]\n"
                                   "//DL: bogus\n");
    assert_int_equal(prog->nkernels, 0);
    expect_diag(prog, 2, "inside braces");
    expect_diag(prog, 6, "inside braces");
    expect_diag(prog, 9, "annotation of 'a' is not followed by a kernel");
    expect_diag(prog, 10, "no kernel function follows it");
    assert_int_equal(prog->ndiags, 4);
    dl_annot_free(prog);
}

static void test_kernel_defined_twice(void **state)
{
    (void)state;
    /* Under #if branches: which one is compiled is not known here. */
    dl_annot_program *prog = parse("#ifdef FAST\n"
                                   "//DL: aos: a[n] -> asta(4)\n"
                                   "kernel void k(global int *a, int n) {}\n"
                                   "#else\n"
                                   "kernel void k(global int *a, int n) {}\n"
                                   "#endif\n"
                                   "//DL: aos: a[n]\n"
                                   "kernel void j(global int *a, int n) {}\n"
                                   "//DL: aos: a[n]\n"
                                   "kernel void j(global int *a, int n) {}\n");
    assert_false(kernel(prog, "k")->ok);
    expect_diag(prog, 5, "kernel 'k' is defined again (first on line 3)");
    assert_false(kernel(prog, "j")->ok);
    expect_diag(prog, 10, "kernel 'j' is annotated again (first on line 8)");
    assert_int_equal(prog->nkernels, 2);
    dl_annot_free(prog);
}

/* A conversion whose kernel never selects the transformed indexing
 * would run the original code on converted data: refused (issue 17). */
static void test_unselected_conversion_refused(void **state)
{
    (void)state;
    const char *src = "//DL: aos: a[n][2] -> da\n"
                      "kernel void hand(global int *a, int n) { a[0] = 1; }\n"
                      "//DL: aos: a[n][2] -> da\n"
                      "kernel void picked(global int *a, int n) {\n"
                      "#ifdef DL_ACTIVE_picked\n"
                      "#endif\n"
                      "}\n"
                      "//DL: aos: a[n][2] -> da\n"
                      "kernel void pick(global int *a, int n) {\n"
                      "#ifdef DL_ACTIVE_picked2\n"
                      "#endif\n"
                      "}\n"
                      "//DL: aos: a[n][2]\n"
                      "kernel void stays(global int *a, int n) {}\n";
    dl_annot_program *prog = parse(src);
    expect_no_diags(prog);
    assert_int_equal(dl_annot_refuse_unselected(prog, src, strlen(src)),
                     DL_SUCCESS);
    assert_false(kernel(prog, "hand")->ok);
    expect_diag(prog, 1,
                "kernel 'hand' will run untransformed: it asks for "
                "a conversion of 'a', but the source has no "
                "transformed indexing under #ifdef DL_ACTIVE_hand");
    assert_true(kernel(prog, "picked")->ok);
    /* DL_ACTIVE_picked2 is another macro, not DL_ACTIVE_pick */
    assert_false(kernel(prog, "pick")->ok);
    expect_diag(prog, 8, "#ifdef DL_ACTIVE_pick ");
    assert_true(kernel(prog, "stays")->ok);
    assert_int_equal(prog->ndiags, 2);
    dl_annot_free(prog);
}

/* lavaMD style: a C++ linkage block that OpenCL C never compiles is no
 * body, so the kernels inside it are seen and annotated. */
static void test_extern_c_block(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("#ifdef __cplusplus\n"
              "extern \"C\" {\n"
              "#endif\n"
              "struct s { int x; };\n"
              "//DL: aos: a[n][2]\n"
              "kernel void k(global int *a, int n) { if (n) { a[0] = 1; } }\n"
              "//DL: aos: a[n][2]\n"
              "kernel void j(global int *a, int n) {}\n"
              "#ifdef __cplusplus\n"
              "}\n"
              "#endif\n"
              "//DL: aos: a[n][2]\n"
              "kernel void after(global int *a, int n) {}\n"
              "void f(void) {\n"
              "    //DL: aos: a[n]\n"
              "}\n");
    assert_int_equal(prog->nkernels, 3);
    assert_true(kernel(prog, "k")->ok);
    assert_true(kernel(prog, "j")->ok);
    assert_true(kernel(prog, "after")->ok);
    expect_diag(prog, 15, "inside braces");
    assert_int_equal(prog->ndiags, 1);
    dl_annot_free(prog);
}

static void test_ignored_places(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("/* //DL: aos: a[n]\n"
              "   //DL: aos: b[n] */\n"
              "constant char *s1 = \"//DL: aos: a[n]\";\n"
              "constant char *s2 = \"esc \\\" //DL: aos: a[n]\";\n"
              "constant char c = '\"'; // \" not a string start\n"
              "#define X \"//DL: aos: a[n]\"\n"
              "/* // DL: aos: a[n] */ kernel void k(global int *a, int n) {}\n"
              "//DLX: aos: a[n]\n"
              "// dl: aos: a[n]\n"
              "/// DL: aos: a[n]\n"
              "kernel void j(global int *a, int n) {}\n");
    expect_no_diags(prog);
    assert_int_equal(prog->nkernels, 0);
    dl_annot_free(prog);
}

static void test_line_numbers(void **state)
{
    (void)state;
    dl_annot_program *prog = parse("/* a\n"
                                   "   b */\r\n"
                                   "#define LONG \\\n"
                                   "   1\n"
                                   "constant char *s = \"x\\\n"
                                   "y\";\n"
                                   "// comment \\\n"
                                   "   continued\n"
                                   "//DL: aos: a[n][n + 1]\n" /* line 9 */
                                   "kernel void k(global int *a, int n) {}\n");
    expect_diag(prog, 9, "must be a constant");
    assert_int_equal(kernel(prog, "k")->line, 10);
    dl_annot_free(prog);
}

static void test_spliced_line_comment_is_not_code(void **state)
{
    (void)state;
    /* The second line belongs to the comment: no kernel there. */
    dl_annot_program *prog = parse("//DL: aos: a[n]\n"
                                   "// hidden \\\n"
                                   "kernel void k(global int *a, int n) {}\n");
    assert_int_equal(prog->nkernels, 0);
    expect_diag(prog, 1, "not followed by a kernel");
    dl_annot_free(prog);
}

static void test_diag_limit(void **state)
{
    (void)state;
    size_t cap = 200 * 80, n = 0;
    char *src = malloc(cap);
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(src + n, cap - n,
                              "//DL: aos: a[n] junk\n"
                              "kernel void k%d(global int *a, int n) {}\n",
                              i);
    dl_annot_program *prog = parse(src);
    assert_int_equal(prog->nkernels, 200);
    assert_int_equal(prog->ndiags, DL_ANNOT_MAX_DIAGS);
    assert_int_equal(prog->suppressed, 200 - DL_ANNOT_MAX_DIAGS);
    for (uint32_t i = 0; i < prog->nkernels; i++)
        assert_false(prog->kernels[i].ok);
    dl_annot_free(prog);
    free(src);
}

static void test_pending_limit(void **state)
{
    (void)state;
    size_t cap = 400 * 24 + 200, n = 0;
    char *src = malloc(cap);
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(src + n, cap - n, "//DL: aos: a[n]\n");
    snprintf(src + n, cap - n, "kernel void k(global int *a, int n) {}\n");
    dl_annot_program *prog = parse(src);
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_false(k->ok);
    expect_diag(prog, 257, "more than 256 annotations");
    dl_annot_free(prog);
    free(src);
}

/* ---------------------------------------------------------------- logging */

static void test_log_names_source_line(void **state)
{
    (void)state;
    char path[] = "/tmp/dl_annot_logXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, path), DL_SUCCESS);
    dl_annot_program *prog = NULL;
    const char *src = "\n//DL: aos: g[n]\nkernel void k(global int *a) {}\n";
    assert_int_equal(dl_annot_parse(src, strlen(src), "app/kern.cl", &prog),
                     DL_SUCCESS);
    dl_log_configure(DL_LOG_LEVEL_ERROR, NULL);
    dl_annot_free(prog);
    FILE *f = fdopen(fd, "r");
    char line[512] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    unlink(path);
    assert_string_equal(line, "dlayout: warning: app/kern.cl:2: annotation "
                              "rejected, kernel 'k' will run untransformed: "
                              "kernel 'k' has no argument 'g'\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_record_errors),
        cmocka_unit_test(test_binding_errors),
        cmocka_unit_test(test_local_pointer_rejected),
        cmocka_unit_test(test_duplicate_argument),
        cmocka_unit_test(test_error_isolated_to_kernel),
        cmocka_unit_test(test_misplaced_annotations),
        cmocka_unit_test(test_kernel_defined_twice),
        cmocka_unit_test(test_ignored_places),
        cmocka_unit_test(test_line_numbers),
        cmocka_unit_test(test_spliced_line_comment_is_not_code),
        cmocka_unit_test(test_diag_limit),
        cmocka_unit_test(test_pending_limit),
        cmocka_unit_test(test_log_names_source_line),
        cmocka_unit_test(test_unselected_conversion_refused),
        cmocka_unit_test(test_extern_c_block),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
