/* test_srcmacros.c - counts that name the sizes a kernel #defines in its
 * own source (runtime/annot/srcmacros.h, dl_dims_define_src): the scan of
 * the #define lines, macros of macros, suffixes and C's operators, and
 * the definitions it declines rather than guess; a source wrapped whole
 * in an include guard, and headers found through -I. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dims.h"
#include "error.h"
#include "srcmacros.h"

/* Every name of a count is a macro here (no kernel arguments). */
static dl_status all_macros(void *user, const char *name, int32_t *index,
                            dl_int_type *type)
{
    (void)user;
    (void)name;
    *index = -1;
    *type = DL_INT_NONE;
    return DL_SUCCESS;
}

/* The value of `count` in a program of `source` built with `options`,
 * or -1 when dl_dims_define_src fails; then its message must hold
 * `part`. */
static int64_t count_of(const char *source, const char *options,
                        const char *count, const char *part)
{
    dl_srcmacros *src = NULL;
    assert_int_equal(
        dl_srcmacros_scan_opts(source, strlen(source), "k.cl", options, &src),
        DL_SUCCESS);
    dl_dims_expr *e = NULL;
    assert_int_equal(dl_dims_parse(count, strlen(count), &e), DL_SUCCESS);
    assert_int_equal(dl_dims_bind(e, all_macros, NULL), DL_SUCCESS);
    int64_t v = -1;
    dl_status st = dl_dims_define_src(e, options, src);
    if (st == DL_SUCCESS)
        assert_int_equal(dl_dims_eval(e, NULL, &v), DL_SUCCESS);
    else if (!strstr(dl_last_error(), part))
        fail_msg("'%s': message '%s' lacks '%s'", count, dl_last_error(), part);
    else
        assert_int_not_equal(dl_dims_eval(e, NULL, &v), DL_SUCCESS);
    dl_dims_free(e);
    dl_srcmacros_free(src);
    return st == DL_SUCCESS ? v : -1;
}

/* Parboil LBM's style: sizes defined from sizes. */
static const char lbm[] =
    "/* sizes */\n"
    "#define SIZE_X (120)\n"
    "#define SIZE_Y (120)\n"
    "#define SIZE_Z (150)\n"
    "#define PADDING_X (8)\n"
    "#  define PADDED_X (SIZE_X + PADDING_X) /* a comment */\n"
    "#define PADDED_Y SIZE_Y // another\n"
    "#define PADDED_Z \\\n"
    "        (SIZE_Z + 4)\n"
    "#define TOTAL_PADDED_CELLS (PADDED_X*PADDED_Y*PADDED_Z)\n"
    "#define N_CELL_ENTRIES 20\n"
    "#define OMEGA 1.95f\n"
    "__kernel void k(__global float *g) { g[0] = OMEGA; }\n";

static void test_nested_macros(void **state)
{
    (void)state;
    assert_int_equal(count_of(lbm, "", "TOTAL_PADDED_CELLS", ""),
                     128 * 120 * 154);
    assert_int_equal(count_of(lbm, NULL, "PADDED_X * 2 + N_CELL_ENTRIES", ""),
                     276);
    /* not an integer */
    assert_int_equal(count_of(lbm, "", "OMEGA",
                              "'OMEGA' is '1.95f' at k.cl:12, not an "
                              "integer constant"),
                     -1);
    /* not defined at all; the message says what was read */
    assert_int_equal(count_of(lbm, "", "SIZE_W",
                              "'SIZE_W' is neither a kernel argument nor "
                              "defined by the build options nor by a "
                              "#define of the program's source"),
                     -1);
}

static void test_suffixes_and_operators(void **state)
{
    (void)state;
    const char *s = "#define A 16u\n"
                    "#define B 0x10UL\n"
                    "#define C ((A << 2) | 1)\n"
                    "#define D (~0x0fL & 0xff)\n"
                    "#define E (C ^ 3)\n"
                    "#define F (1024 >> 3 % 4)\n"
                    "#define G (2 * (3 + (4 - 1)))\n"
                    "#define H (4u - 5)\n"
                    "#define I (1L << 70)\n";
    assert_int_equal(count_of(s, "", "A * B", ""), 256);
    assert_int_equal(count_of(s, "", "C", ""), 65);
    assert_int_equal(count_of(s, "", "D", ""), 0xf0);
    assert_int_equal(count_of(s, "", "E", ""), 66);
    assert_int_equal(count_of(s, "", "F", ""), 128); /* % binds tighter */
    assert_int_equal(count_of(s, "", "G", ""), 12);
    /* C computes 4u - 5 in unsigned int: a wrap-around, not -1 */
    assert_int_equal(count_of(s, "", "H", "which C would wrap around"), -1);
    assert_int_equal(count_of(s, "", "I", "a shift of 1 by 70"), -1);
    /* the annotation's own grammar does not grow: no << in a count */
    dl_dims_expr *e = (dl_dims_expr *)1;
    assert_int_not_equal(dl_dims_parse("A << 2", 6, &e), DL_SUCCESS);
}

static void test_duplicate_declined(void **state)
{
    (void)state;
    const char *twice = "#define N 64\n"
                        "__kernel void a(__global float *g) {}\n"
                        "#define N 128\n";
    assert_int_equal(count_of(twice, "", "N",
                              "'N' is defined more than once (k.cl:1 and "
                              "line 3)"),
                     -1);
    const char *undef = "#define N 64\n#undef N\n";
    assert_int_equal(count_of(undef, "", "N", "'N' is #undef'd at k.cl:2"), -1);
    /* through another macro */
    const char *inner = "#define M (N * 2)\n#define N 1\n#define N 2\n";
    assert_int_equal(count_of(inner, "", "M",
                              "'M' is '(N * 2)' at k.cl:1: "
                              "'N' is defined more than "
                              "once"),
                     -1);
    /* a name that names itself */
    assert_int_equal(
        count_of("#define L (L + 1)\n", "", "L", "nested more than 16 deep"),
        -1);
    assert_int_equal(count_of("#define F(x) (x * 2)\n", "", "F",
                              "'F' is a function-like macro (k.cl:1)"),
                     -1);
}

static void test_conditional_declined(void **state)
{
    (void)state;
    const char *ifdef = "#ifdef BIG\n"
                        "#define N 256\n"
                        "#else\n"
                        "#define M 64\n"
                        "#endif\n"
                        "#if 1\n"
                        "#define P 8\n"
                        "#endif\n"
                        "#define Q 4\n";
    assert_int_equal(count_of(ifdef, "", "N",
                              "'N' is defined at k.cl:2 inside the "
                              "conditional block of line 1"),
                     -1);
    assert_int_equal(count_of(ifdef, "-DBIG", "M", "block of line 1"), -1);
    assert_int_equal(count_of(ifdef, "", "P", "block of line 6"), -1);
    /* after #endif the definitions count again */
    assert_int_equal(count_of(ifdef, "", "Q", ""), 4);
    /* `#ifndef N` around N's own default: the one form resolved */
    const char *guard = "#ifndef N\n#define N 64\n#endif\n"
                        "#ifndef N\n#define R 3\n#endif\n";
    assert_int_equal(count_of(guard, "", "N", ""), 64);
    assert_int_equal(count_of(guard, "", "R", "block of line 4"), -1);
    /* a #define in a comment or a string is none; a '#' after code on
     * its line is no directive */
    const char *quoted = "/*\n#define N 1\n*/\n"
                         "const char *s = \"\\\n#define N 2\";\n"
                         "int x; #define N 3\n"
                         "#define N 4\n";
    assert_int_equal(count_of(quoted, "", "N", ""), 4);
}

static void test_options_override(void **state)
{
    (void)state;
    const char *guard = "#ifndef NX\n#define NX 64\n#endif\n"
                        "#define SIZE (NX * NY)\n#define NY 2\n";
    /* the build options override a default under #ifndef */
    assert_int_equal(count_of(guard, "-DNX=10", "SIZE", ""), 20);
    assert_int_equal(count_of(guard, "", "SIZE", ""), 128);
    /* an option's value may name the source's macros */
    assert_int_equal(count_of(guard, "-DNX=NY*3", "SIZE", ""), 12);
    /* the options define a macro the source defines unconditionally: the
     * compiler takes the source's, with a warning; declined */
    assert_int_equal(count_of(guard, "-DNY=5", "SIZE",
                              "'NY' is defined both by the build options "
                              "and at k.cl:5"),
                     -1);
    /* not in the source but in the options */
    assert_int_equal(count_of(guard, "-DNZ=7", "NZ + 1", ""), 8);
}

static void test_include_named(void **state)
{
    (void)state;
    const char *s = "#include \"layout_config.h\"\n#define A 1\n";
    assert_int_equal(count_of(s, "", "PADDED_X",
                              "k.cl:1 includes \"layout_config.h\", which "
                              "dlayout does not read"),
                     -1);
}

/* Include guards: an #ifndef of a name surely undefined there is entered
 * by the program's build, around a whole source or a header pasted in. */
static void test_file_guard(void **state)
{
    (void)state;
    const char *whole = "/* k.cl */\n"
                        "#ifndef K_CL\n"
                        "#define K_CL\n"
                        "#define N 64\n"
                        "#ifndef M\n#define M 8\n#endif\n"
                        "__kernel void k(__global float *g) { g[0] = 1; }\n"
                        "#endif // K_CL\n"
                        "\n/* end */\n";
    assert_int_equal(count_of(whole, "", "N * M", ""), 512);
    assert_int_equal(count_of(whole, "-DM=2", "N * M", ""), 128);
    /* the build options define the guard: the file is empty */
    assert_int_equal(count_of(whole, "-DK_CL", "N",
                              "'N' is defined at k.cl:4 inside the "
                              "conditional block of line 2"),
                     -1);
    /* headers pasted in, each with its own guard, inside the source's */
    const char *pasted = "#ifndef K_CL\n#define K_CL\n"
                         "#ifndef SIZES_H\n#define SIZES_H\n"
                         "#define NX (12)\n#endif\n"
                         "#ifndef MORE_H\n#define MORE_H\n"
                         "#define CELLS (NX * 3)\n#endif\n"
                         "int x;\n#endif\nint y;\n";
    assert_int_equal(count_of(pasted, "", "CELLS", ""), 36);
    /* the guard's name defined before, its #else part, a header not read
     * before it: blocks as any other */
    const char *before = "#define G 1\n#ifndef G\n#define N 64\n#endif\n";
    assert_int_equal(count_of(before, "", "N", "block of line 2"), -1);
    const char *other = "#ifndef G\n#define N 64\n#else\n#define P 2\n"
                        "#endif\n";
    assert_int_equal(count_of(other, "", "N", ""), 64);
    assert_int_equal(count_of(other, "", "P", "block of line 1"), -1);
    const char *unread = "#include \"nowhere.h\"\n"
                         "#ifndef G\n#define N 64\n#endif\n";
    assert_int_equal(count_of(unread, "", "N", "block of line 2"), -1);
}

/* Writes `text` to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Sizes in a header found where compilers look: the build options' -I
 * directories, and for #include "h" the including file's directory (the
 * current directory for the source). */
static void test_include_read(void **state)
{
    (void)state;
    char dir[] = "/tmp/dl-srcmacros-XXXXXX",
         other[] = "/tmp/dl-srcmacros-XXXXXX";
    assert_non_null(mkdtemp(dir));
    assert_non_null(mkdtemp(other));
    write_file(dir, "sizes.h",
               "#ifndef SIZES_H\n#define SIZES_H\n"
               "#include \"inner.h\"\n"
               "#define NX (BASE * 4)\n#endif\n");
    write_file(dir, "inner.h", "#pragma once\n#define BASE 5\n");
    write_file(dir, "twice.h", "#define NY 3\n#define NY 4\n");
    write_file(other, "sizes.h", "#define NX 7\n");
    const char *s = "#include \"sizes.h\"\n#include <sizes.h>\n"
                    "#define CELLS (NX + 1)\n";
    char opts[128];
    snprintf(opts, sizeof opts, "-DA=1 -I %s", dir);
    assert_int_equal(count_of(s, opts, "CELLS", ""), 21);
    snprintf(opts, sizeof opts, "-I/nonexistent -I%s", dir);
    assert_int_equal(count_of(s, opts, "CELLS * 2", ""), 42);
    /* found nowhere: not read */
    assert_int_equal(count_of(s, "", "CELLS",
                              "k.cl:1 includes \"sizes.h\", which dlayout "
                              "does not read: it is neither in the current "
                              "directory nor in a -I directory"),
                     -1);
    /* a header's messages name the header */
    char want[128];
    snprintf(want, sizeof want, "(%s/twice.h:1 and line 2)", dir);
    snprintf(opts, sizeof opts, "-I %s", dir);
    assert_int_equal(count_of("#include \"twice.h\"\n", opts, "NY", want), -1);
    /* a header included inside a conditional block is inside it */
    const char *cond = "#ifdef BIG\n#include \"sizes.h\"\n#endif\n";
    assert_int_equal(count_of(cond, opts, "NX", "block of line 1"), -1);
    /* "sizes.h" in the current directory, as POCL finds it */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(count_of(s, "", "CELLS", ""), 21);
    /* two different sizes.h where a compiler may look: not read */
    snprintf(opts, sizeof opts, "-I %s", other);
    assert_int_equal(count_of("#include \"sizes.h\"\n#define CELLS (NX + 1)\n",
                              opts, "CELLS", "differs between them"),
                     -1);
    assert_int_equal(chdir(cwd), 0);
    char path[512];
    const char *names[] = {"sizes.h", "inner.h", "twice.h"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/sizes.h", other);
    unlink(path);
    rmdir(dir);
    rmdir(other);
}

/* Garbage and cut-off sources scan safely. */
static void test_scan_garbage(void **state)
{
    (void)state;
    const char *cuts[] = {
        "#define",        "#define N (1",
        "/* #define N 1", "#if\n#define N 1\n#endif\n#endif\n#endif",
        "\"#define N 1",  "#define N 1 \\"};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        dl_srcmacros *m = NULL;
        assert_int_equal(dl_srcmacros_scan(cuts[i], strlen(cuts[i]), NULL, &m),
                         DL_SUCCESS);
        const dl_srcmacro *d;
        (void)dl_srcmacros_find(m, "N", &d);
        dl_srcmacros_free(m);
    }
    uint64_t x = 99;
    char buf[4096];
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i < sizeof buf; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            buf[i] = "#define N()\\\n/*\"' 1<"[(x >> 33) % 19];
        }
        dl_srcmacros *m = NULL;
        assert_int_equal(dl_srcmacros_scan(buf, sizeof buf, "r", &m),
                         DL_SUCCESS);
        const dl_srcmacro *d;
        (void)dl_srcmacros_find(m, "N", &d);
        dl_srcmacros_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_macros),
        cmocka_unit_test(test_suffixes_and_operators),
        cmocka_unit_test(test_duplicate_declined),
        cmocka_unit_test(test_conditional_declined),
        cmocka_unit_test(test_options_override),
        cmocka_unit_test(test_include_named),
        cmocka_unit_test(test_file_guard),
        cmocka_unit_test(test_include_read),
        cmocka_unit_test(test_scan_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
