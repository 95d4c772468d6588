/* test_dims.c - dimension expressions: parsing, canonical text, checked
 * evaluation against a launch, argument values, and random input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dims.h"
#include "error.h"

static dl_dims_expr *parse_ok(const char *text)
{
    dl_dims_expr *e = NULL;
    dl_status st = dl_dims_parse(text, strlen(text), &e);
    if (st != DL_SUCCESS)
        fail_msg("'%s' did not parse: %s", text, dl_last_error());
    assert_non_null(e);
    return e;
}

/* Parses, expects failure, and checks that the message mentions `part`. */
static void parse_fails(const char *text, const char *part)
{
    dl_dims_expr *e = (dl_dims_expr *)1;
    dl_status st = dl_dims_parse(text, strlen(text), &e);
    if (st == DL_SUCCESS)
        fail_msg("'%s' parsed but should not", text);
    assert_null(e);
    if (!strstr(dl_last_error(), part))
        fail_msg("'%s': message '%s' lacks '%s'", text, dl_last_error(), part);
}

static void check_format(const char *text, const char *want)
{
    dl_dims_expr *e = parse_ok(text);
    char buf[256];
    int n = dl_dims_format(e, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
    dl_dims_free(e);
}

static int64_t eval_env(const char *text, const dl_dims_env *env)
{
    dl_dims_expr *e = parse_ok(text);
    int64_t v = 0;
    dl_status st = dl_dims_eval(e, env, &v);
    if (st != DL_SUCCESS)
        fail_msg("'%s' did not evaluate: %s", text, dl_last_error());
    dl_dims_free(e);
    return v;
}

static int64_t eval(const char *text)
{
    return eval_env(text, NULL);
}

static void eval_fails(const char *text, const dl_dims_env *env, dl_status want,
                       const char *part)
{
    dl_dims_expr *e = parse_ok(text);
    int64_t v = 12345;
    dl_status st = dl_dims_eval(e, env, &v);
    if (st != want)
        fail_msg("'%s': status %s, wanted %s (%s)", text, dl_status_name(st),
                 dl_status_name(want), dl_last_error());
    assert_int_equal(v, 12345); /* untouched on failure */
    if (!strstr(dl_last_error(), part))
        fail_msg("'%s': message '%s' lacks '%s'", text, dl_last_error(), part);
    dl_dims_free(e);
}

/* ---------------------------------------------------------------- parsing */

static void test_format_canonical(void **state)
{
    (void)state;
    check_format("global_size(0)", "global_size(0)");
    check_format("  get_global_size ( 1 ) ", "global_size(1)");
    check_format("get_local_size(2)", "local_size(2)");
    check_format("num_groups(0)*get_num_groups(1)",
                 "num_groups(0) * num_groups(1)");
    check_format("global_offset(0)+get_global_offset(2)",
                 "global_offset(0) + global_offset(2)");
    check_format("1+2*3", "1 + 2 * 3");
    check_format("(1+2)*3", "(1 + 2) * 3");
    check_format("a-b-c", "a - b - c");
    check_format("a-(b-c)", "a - (b - c)");
    check_format("a/(b*c)", "a / (b * c)");
    check_format("(a/b)*c", "a / b * c");
    check_format("-x*2", "-x * 2");
    check_format("-(x+1)", "-(x + 1)");
    check_format("--x", "--x");
    check_format("((((n))))", "n");
    check_format("0x1F", "31");
    check_format("10u + 3UL", "10 + 3");
    check_format("n % 4", "n % 4");
    check_format("_a1 + B_2", "_a1 + B_2");
    check_format("9223372036854775807", "9223372036854775807");
}

static void test_nodes_postfix(void **state)
{
    (void)state;
    dl_dims_expr *e = parse_ok("n * 20 + global_size(1)");
    assert_int_equal(e->nnodes, 5);
    assert_int_equal(e->nodes[0].op, DL_DIMS_ARG);
    assert_string_equal(e->nodes[0].name, "n");
    assert_int_equal(e->nodes[0].arg_index, -1);
    assert_int_equal(e->nodes[1].op, DL_DIMS_CONST);
    assert_int_equal(e->nodes[1].value, 20);
    assert_int_equal(e->nodes[2].op, DL_DIMS_MUL);
    assert_int_equal(e->nodes[2].lhs, 0);
    assert_int_equal(e->nodes[2].rhs, 1);
    assert_int_equal(e->nodes[3].op, DL_DIMS_GLOBAL_SIZE);
    assert_int_equal(e->nodes[3].value, 1);
    assert_int_equal(e->nodes[4].op, DL_DIMS_ADD);
    assert_string_equal(e->text, "n * 20 + global_size(1)");
    assert_false(dl_dims_is_const(e));
    dl_dims_free(e);

    e = parse_ok("(4+4)*-2");
    assert_true(dl_dims_is_const(e));
    dl_dims_free(e);
}

static void test_parse_not_terminated(void **state)
{
    (void)state;
    /* The text is a slice of a longer line: only len bytes count. */
    const char *line = "N*2] record(...)";
    dl_dims_expr *e = NULL;
    assert_int_equal(dl_dims_parse(line, 3, &e), DL_SUCCESS);
    assert_string_equal(e->text, "N*2");
    dl_dims_free(e);
}

static void test_parse_errors(void **state)
{
    (void)state;
    parse_fails("", "empty");
    parse_fails("   \t", "empty");
    parse_fails("1+", "expected a number, a name or '('");
    parse_fails("(1", "expected ')'");
    parse_fails("1)", "expected an operator or the end");
    parse_fails("1 2", "column 3");
    parse_fails("a b", "expected an operator or the end");
    parse_fails("global_size(3)", "0, 1 or 2");
    parse_fails("global_size(10)", "0, 1 or 2");
    parse_fails("global_size(00)", "0, 1 or 2");
    parse_fails("global_size(x)", "dimension index");
    parse_fails("global_size()", "dimension index");
    parse_fails("global_size(0", "expected ')'");
    parse_fails("global_size(1+1)", "expected ')'");
    parse_fails("foo(1)", "unknown function");
    parse_fails("sizeof(int)", "unknown function");
    parse_fails("08", "octal");
    parse_fails("0x", "hexadecimal digits");
    parse_fails("12abc", "operator after the number");
    parse_fails("1.5", "expected an operator");
    parse_fails("9223372036854775808", "does not fit");
    parse_fails("0x8000000000000000", "does not fit");
    parse_fails("99999999999999999999999999", "does not fit");
    parse_fails("a[1]", "expected an operator");
    parse_fails("+1", "expected a number");
    parse_fails("1 ** 2", "expected a number");
    parse_fails("n == 2", "expected an operator");
    parse_fails("$", "found '$'");
    parse_fails("\x01", "byte 0x01");
}

static void test_parse_nul_byte(void **state)
{
    (void)state;
    dl_dims_expr *e = NULL;
    assert_int_equal(dl_dims_parse("1\0+2", 4, &e), DL_INVALID_ARGUMENT);
    assert_null(e);
    assert_non_null(strstr(dl_last_error(), "byte 0x00"));
    assert_int_equal(dl_dims_parse("\0", 1, &e), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_dims_parse(NULL, 0, &e), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_dims_parse("1", 1, NULL), DL_INVALID_ARGUMENT);
}

static void test_parse_limits(void **state)
{
    (void)state;
    char buf[4096];
    /* Deep nesting is refused, not a stack overflow. */
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        buf[n++] = '(';
    buf[n++] = '1';
    for (int i = 0; i < 100; i++)
        buf[n++] = ')';
    buf[n] = '\0';
    parse_fails(buf, "nested");
    memset(buf, '-', 100);
    strcpy(buf + 100, "1");
    parse_fails(buf, "nested");
    /* Just inside the depth limit. */
    n = 0;
    for (int i = 0; i < DL_DIMS_MAX_DEPTH; i++)
        buf[n++] = '(';
    buf[n++] = '7';
    for (int i = 0; i < DL_DIMS_MAX_DEPTH; i++)
        buf[n++] = ')';
    buf[n] = '\0';
    assert_int_equal(eval(buf), 7);
    /* Too many terms. */
    n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(buf + n, "1+");
    buf[n++] = '1';
    buf[n] = '\0';
    parse_fails(buf, "too long");
    /* 128 terms: 255 nodes, fits. */
    n = 0;
    for (int i = 0; i < 127; i++)
        n += (size_t)sprintf(buf + n, "1+");
    buf[n++] = '1';
    buf[n] = '\0';
    assert_int_equal(eval(buf), 128);
}

/* -------------------------------------------------------------- evaluation */

static void test_eval_arithmetic(void **state)
{
    (void)state;
    assert_int_equal(eval("1+2*3"), 7);
    assert_int_equal(eval("(1+2)*3"), 9);
    assert_int_equal(eval("10-4-3"), 3);
    assert_int_equal(eval("10-(4-3)"), 9);
    assert_int_equal(eval("100/10/5"), 2);
    assert_int_equal(eval("7/2"), 3);
    assert_int_equal(eval("-7/2"), -3); /* toward zero, as in C */
    assert_int_equal(eval("7/-2"), -3);
    assert_int_equal(eval("-7%2"), -1);
    assert_int_equal(eval("7%-2"), 1);
    assert_int_equal(eval("17%5*2"), 4);
    assert_int_equal(eval("--5"), 5);
    assert_int_equal(eval("-(2*3)+10"), 4);
    assert_int_equal(eval("0xff + 1"), 256);
    assert_int_equal(eval("9223372036854775807"), INT64_MAX);
    assert_int_equal(eval("-9223372036854775807-1"), INT64_MIN);
    assert_int_equal(eval("(-9223372036854775807-1) % -1"), 0);
    assert_int_equal(eval("(-9223372036854775807-1) / 1"), INT64_MIN);
    assert_int_equal(eval("5 / -1"), -5);
    assert_int_equal(eval("3037000499*3037000499"), 9223372030926249001LL);
}

static void test_eval_errors(void **state)
{
    (void)state;
    eval_fails("1/0", NULL, DL_INVALID_ARGUMENT, "division by zero");
    eval_fails("1%(2-2)", NULL, DL_INVALID_ARGUMENT, "division by zero");
    eval_fails("9223372036854775807+1", NULL, DL_SIZE_OVERFLOW, "overflow");
    eval_fails("-9223372036854775807-2", NULL, DL_SIZE_OVERFLOW, "overflow");
    eval_fails("3037000500*3037000500", NULL, DL_SIZE_OVERFLOW, "overflow");
    eval_fails("-(-9223372036854775807-1)", NULL, DL_SIZE_OVERFLOW, "overflow");
    eval_fails("(-9223372036854775807-1)/-1", NULL, DL_SIZE_OVERFLOW,
               "overflow");
    /* The message quotes the expression. */
    eval_fails("n_items / (a - a)", &(dl_dims_env){0}, DL_INVALID_ARGUMENT,
               "not bound");
}

static void test_eval_launch(void **state)
{
    (void)state;
    size_t global[3] = {1024, 64, 3};
    size_t local[3] = {128, 8, 1};
    size_t offset[3] = {16, 0, 5};
    dl_dims_env env = {.work_dim = 3,
                       .global_size = global,
                       .local_size = local,
                       .global_offset = offset};
    assert_int_equal(eval_env("global_size(0)", &env), 1024);
    assert_int_equal(eval_env("global_size(1)*global_size(2)", &env), 192);
    assert_int_equal(eval_env("local_size(1)", &env), 8);
    assert_int_equal(eval_env("num_groups(0)", &env), 8);
    assert_int_equal(eval_env("global_offset(2)", &env), 5);
    assert_int_equal(eval_env("global_size(0)*20 + global_offset(0)", &env),
                     20496);

    /* Non-uniform work-groups (OpenCL 2): the last group counts. */
    global[0] = 1000;
    assert_int_equal(eval_env("num_groups(0)", &env), 8);

    /* Dimensions beyond work_dim read as OpenCL defines them. */
    env.work_dim = 1;
    assert_int_equal(eval_env("global_size(2)", &env), 1);
    assert_int_equal(eval_env("local_size(1)", &env), 1);
    assert_int_equal(eval_env("num_groups(2)", &env), 1);
    assert_int_equal(eval_env("global_offset(1)", &env), 0);

    /* No offset given: zero.  No local size: unknown. */
    env.global_offset = NULL;
    env.local_size = NULL;
    assert_int_equal(eval_env("global_offset(0)", &env), 0);
    eval_fails("local_size(0)", &env, DL_INVALID_ARGUMENT,
               "choose the work-group size");
    eval_fails("2*num_groups(0)", &env, DL_INVALID_ARGUMENT,
               "num_groups(0) is unknown");
    assert_int_equal(eval_env("local_size(2)", &env), 1); /* beyond */

    /* A zero work-group size is reported, not divided by. */
    size_t zero[1] = {0};
    env.local_size = zero;
    eval_fails("num_groups(0)", &env, DL_INVALID_ARGUMENT, "is 0");

    /* No launch at all. */
    eval_fails("global_size(0)", NULL, DL_INVALID_ARGUMENT, "not known");

    /* A size that does not fit int64. */
    size_t huge[1] = {(size_t)INT64_MAX + 1};
    dl_dims_env big = {.work_dim = 1, .global_size = huge};
    eval_fails("global_size(0)", &big, DL_SIZE_OVERFLOW, "too large");
}

static void test_eval_count(void **state)
{
    (void)state;
    dl_dims_expr *e = parse_ok("10 - 13");
    size_t count = 7;
    assert_int_equal(dl_dims_eval_count(e, NULL, &count), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "negative (-3)"));
    assert_int_equal(count, 7);
    dl_dims_free(e);

    e = parse_ok("0");
    assert_int_equal(dl_dims_eval_count(e, NULL, &count), DL_SUCCESS);
    assert_int_equal(count, 0);
    dl_dims_free(e);

    e = parse_ok("-(-5)*4");
    assert_int_equal(dl_dims_eval_count(e, NULL, &count), DL_SUCCESS);
    assert_int_equal(count, 20);
    assert_int_equal(dl_dims_eval_count(e, NULL, NULL), DL_INVALID_ARGUMENT);
    dl_dims_free(e);

    int64_t v;
    assert_int_equal(dl_dims_eval(NULL, NULL, &v), DL_INVALID_ARGUMENT);
}

/* ------------------------------------------------------ kernel arguments */

/* Signature of the pretend kernel: (global float *f, int n, uint m,
 * long big, ulong ubig, uchar c, short s). */
static dl_status lookup(void *user, const char *name, int32_t *index,
                        dl_int_type *type)
{
    (void)user;
    static const struct {
        const char *name;
        dl_int_type type;
    } params[] = {{"f", DL_INT_NONE},  {"n", DL_INT_I32},    {"m", DL_INT_U32},
                  {"big", DL_INT_I64}, {"ubig", DL_INT_U64}, {"c", DL_INT_U8},
                  {"s", DL_INT_I16}};
    for (int i = 0; i < 7; i++)
        if (strcmp(params[i].name, name) == 0) {
            *index = i;
            *type = params[i].type;
            return DL_SUCCESS;
        }
    return dl_fail(DL_INVALID_ARGUMENT, "no argument '%s'", name);
}

static void test_bind_and_raw_args(void **state)
{
    (void)state;
    int32_t n = -3;
    uint32_t m = 4000000000u;
    int64_t big = -5000000000LL;
    uint64_t ubig = 7;
    uint8_t c = 200;
    int16_t s = -2;
    dl_dims_raw_arg args[7] = {{NULL, 0},  {&n, 4}, {&m, 4}, {&big, 8},
                               {&ubig, 8}, {&c, 1}, {&s, 2}};
    dl_dims_env env = {.args = args, .nargs = 7};

    dl_dims_expr *e = parse_ok("n * m + big + ubig + c * s");
    assert_int_equal(dl_dims_bind(e, lookup, NULL), DL_SUCCESS);
    assert_int_equal(e->nodes[0].arg_index, 1);
    assert_int_equal(e->nodes[0].arg_type, DL_INT_I32);
    int64_t v;
    assert_int_equal(dl_dims_eval(e, &env, &v), DL_SUCCESS);
    assert_int_equal(v, -3LL * 4000000000LL - 5000000000LL + 7 - 400);
    dl_dims_free(e);

    /* Unknown name, and a pointer argument. */
    e = parse_ok("q + 1");
    assert_int_equal(dl_dims_bind(e, lookup, NULL), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "no argument 'q'"));
    dl_dims_free(e);
    e = parse_ok("f");
    assert_int_equal(dl_dims_bind(e, lookup, NULL), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "'f' is not an integer"));
    dl_dims_free(e);

    /* Argument not set, and set with the wrong size. */
    e = parse_ok("m");
    assert_int_equal(dl_dims_bind(e, lookup, NULL), DL_SUCCESS);
    args[2].value = NULL;
    assert_int_equal(dl_dims_eval(e, &env, &v), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "has not been set"));
    args[2] = (dl_dims_raw_arg){&big, 8};
    assert_int_equal(dl_dims_eval(e, &env, &v), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "8 bytes, not 4"));
    env.nargs = 2; /* index 2 beyond the table */
    assert_int_equal(dl_dims_eval(e, &env, &v), DL_INVALID_ARGUMENT);
    dl_dims_free(e);

    /* A ulong beyond int64. */
    env.nargs = 7;
    ubig = UINT64_MAX;
    e = parse_ok("ubig");
    assert_int_equal(dl_dims_bind(e, lookup, NULL), DL_SUCCESS);
    assert_int_equal(dl_dims_eval(e, &env, &v), DL_SIZE_OVERFLOW);
    dl_dims_free(e);

    assert_int_equal(dl_dims_bind(NULL, lookup, NULL), DL_INVALID_ARGUMENT);
}

/* Like lookup, but a name in capitals is no argument: a build macro. */
static dl_status lookup_or_macro(void *user, const char *name, int32_t *index,
                                 dl_int_type *type)
{
    if (*name >= 'A' && *name <= 'Z') {
        *index = -1;
        *type = DL_INT_NONE;
        return DL_SUCCESS;
    }
    return lookup(user, name, index, type);
}

/* A bound expression of build macros (and the argument n = 2), defined by
 * `options`: its value, or -1 when dl_dims_define or the evaluation
 * fails with a message that mentions `part`. */
static int64_t with_options(const char *text, const char *options,
                            const char *part)
{
    int32_t n = 2;
    dl_dims_raw_arg args[2] = {{NULL, 0}, {&n, 4}};
    dl_dims_env env = {.args = args, .nargs = 2};
    dl_dims_expr *e = parse_ok(text);
    assert_int_equal(dl_dims_bind(e, lookup_or_macro, NULL), DL_SUCCESS);
    int64_t v = -1;
    dl_status st = dl_dims_define(e, options);
    if (st != DL_SUCCESS && !strstr(dl_last_error(), part))
        fail_msg("'%s' with '%s': message '%s' lacks '%s'", text, options,
                 dl_last_error(), part);
    if (st == DL_SUCCESS)
        assert_int_equal(dl_dims_eval(e, &env, &v), DL_SUCCESS);
    else
        assert_int_not_equal(dl_dims_eval(e, &env, &v), DL_SUCCESS);
    dl_dims_free(e);
    return st == DL_SUCCESS ? v : -1;
}

static void test_build_macros(void **state)
{
    (void)state;
    /* Names that are no argument are macros, not constants; they print
     * as written and fail to evaluate until a build defines them. */
    dl_dims_expr *e = parse_ok("NX * NY * (NZ + 4)");
    assert_int_equal(dl_dims_bind(e, lookup_or_macro, NULL), DL_SUCCESS);
    assert_int_equal(e->nodes[0].op, DL_DIMS_MACRO);
    assert_false(dl_dims_is_const(e));
    char buf[64];
    dl_dims_format(e, buf, sizeof buf);
    assert_string_equal(buf, "NX * NY * (NZ + 4)");
    int64_t v;
    assert_int_equal(dl_dims_eval(e, NULL, &v), DL_INVALID_ARGUMENT);
    assert_non_null(strstr(dl_last_error(), "'NX' is neither a kernel "
                                            "argument nor defined"));
    dl_dims_free(e);

    const char *cells = "NX * NY * (NZ + 4)";
    assert_int_equal(with_options(cells, "-DNX=4 -DNY=3 -DNZ=6", ""), 120);
    /* -D NAME=V, -DNAME (1), values that are expressions, other options */
    assert_int_equal(with_options(cells,
                                  "-cl-mad-enable -D NX=4 "
                                  "-DNY=(2*3)	-DNZ",
                                  ""),
                     120);
    /* the last definition wins; -U undefines */
    assert_int_equal(with_options(cells, "-DNX=1 -DNY=1 -DNZ=1 -DNX=7", ""),
                     35);
    assert_int_equal(with_options(cells, "-DNX=1 -DNY=1 -DNZ=1 -UNZ", "NZ"),
                     -1);
    assert_int_equal(
        with_options(cells, "-DNX=1 -DNY=1 -DNZ=1 -U NZ -DNZ=2", ""), 6);
    /* a longer name or a prefix is another macro */
    assert_int_equal(
        with_options(cells, "-DNXY=2 -DN=2 -DNY=1 -DNZ=1", "'NX' is neither"),
        -1);
    /* not an integer constant */
    assert_int_equal(with_options(cells, "-DNX=1.0f -DNY=1 -DNZ=1",
                                  "'NX' as '1.0f', not an integer"),
                     -1);
    /* a name in a value is another macro (the compiler expands it) */
    assert_int_equal(with_options(cells, "-DNX=n -DNY=1 -DNZ=1",
                                  "define 'NX' as 'n': 'n' is neither "
                                  "defined by the build options"),
                     -1);
    assert_int_equal(with_options(cells, "-DNX=NY*2 -DNY=3 -DNZ=1", ""), 90);
    assert_int_equal(with_options(cells, "-DNX=1 -DNY=1 -D", "'NZ'"), -1);
    assert_int_equal(with_options(cells, NULL, "'NX'"), -1);
    /* with an argument */
    assert_int_equal(with_options("n * NE + 1", "-DNE=20", ""), 41);
    /* a rebuild with other options reads them again */
    e = parse_ok("NE");
    assert_int_equal(dl_dims_bind(e, lookup_or_macro, NULL), DL_SUCCESS);
    assert_int_equal(dl_dims_define(e, "-DNE=3"), DL_SUCCESS);
    assert_int_equal(dl_dims_eval(e, NULL, &v), DL_SUCCESS);
    assert_int_equal(v, 3);
    assert_int_equal(dl_dims_define(e, "-DOTHER=3"), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_dims_eval(e, NULL, &v), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_dims_define(NULL, ""), DL_INVALID_ARGUMENT);
    dl_dims_free(e);
}

static dl_status by_callback(void *user, const dl_dims_node *arg,
                             int64_t *value)
{
    int *calls = user;
    ++*calls;
    if (strcmp(arg->name, "bad") == 0)
        return dl_fail(DL_INVALID_ARGUMENT, "callback refuses '%s'", arg->name);
    *value = (int64_t)strlen(arg->name);
    return DL_SUCCESS;
}

static void test_callback_args(void **state)
{
    (void)state;
    int calls = 0;
    dl_dims_env env = {.arg_value = by_callback, .user = &calls};
    /* Unbound names reach the callback by name. */
    assert_int_equal(eval_env("abc * abcd", &env), 12);
    assert_int_equal(calls, 2);
    eval_fails("1 + bad", &env, DL_INVALID_ARGUMENT, "callback refuses");
}

static void test_int_decode(void **state)
{
    (void)state;
    int64_t v;
    int8_t i8 = -100;
    uint16_t u16 = 65535;
    int16_t i16 = -32768;
    uint32_t u32 = UINT32_MAX;
    int32_t i32 = INT32_MIN;
    assert_int_equal(dl_int_decode(&i8, 1, DL_INT_I8, &v), DL_SUCCESS);
    assert_int_equal(v, -100);
    assert_int_equal(dl_int_decode(&i8, 1, DL_INT_U8, &v), DL_SUCCESS);
    assert_int_equal(v, 156);
    assert_int_equal(dl_int_decode(&u16, 2, DL_INT_U16, &v), DL_SUCCESS);
    assert_int_equal(v, 65535);
    assert_int_equal(dl_int_decode(&i16, 2, DL_INT_I16, &v), DL_SUCCESS);
    assert_int_equal(v, -32768);
    assert_int_equal(dl_int_decode(&u32, 4, DL_INT_U32, &v), DL_SUCCESS);
    assert_int_equal(v, 4294967295LL);
    assert_int_equal(dl_int_decode(&i32, 4, DL_INT_I32, &v), DL_SUCCESS);
    assert_int_equal(v, INT32_MIN);
    /* Unaligned bytes are fine. */
    unsigned char raw[9] = {0, 1, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(dl_int_decode(raw + 1, 8, DL_INT_I64, &v), DL_SUCCESS);
    assert_int_equal(v, 1);
    assert_int_equal(dl_int_decode(raw, 4, DL_INT_NONE, &v),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_int_decode(NULL, 4, DL_INT_I32, &v),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_int_type_size(DL_INT_U64), 8);
    assert_int_equal(dl_int_type_size(DL_INT_NONE), 0);
    assert_string_equal(dl_int_type_name(DL_INT_U16), "ushort");
    assert_string_equal(dl_int_type_name((dl_int_type)99), "?");
}

static void test_format_small_buffer(void **state)
{
    (void)state;
    dl_dims_expr *e = parse_ok("global_size(0) * 20");
    char buf[8];
    int n = dl_dims_format(e, buf, sizeof buf);
    assert_int_equal(n, 19);
    assert_string_equal(buf, "global_");
    assert_int_equal(dl_dims_format(e, NULL, 0), 19);
    dl_dims_free(e);
    dl_dims_free(NULL);
}

/* ------------------------------------------------------------------ fuzz */

/* Random text over the expression alphabet (and a few bytes that are
 * not): must never crash; whatever parses must print and reparse to the
 * same canonical text and evaluate (or fail) cleanly. */
static void test_fuzz(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789+-*/%() \t_abnxglobal_size"
                                   "(0)(1)(2)local_sizenum_groups\x01\xff]";
    size_t global[3] = {64, 3, 1}, local[3] = {8, 1, 1};
    int32_t a = 7;
    dl_dims_raw_arg args[1] = {{&a, 4}};
    dl_dims_env env = {.work_dim = 2,
                       .global_size = global,
                       .local_size = local,
                       .args = args,
                       .nargs = 1};
    srand(12345);
    unsigned parsed = 0;
    for (int iter = 0; iter < 200000; iter++) {
        char text[48];
        size_t len = (size_t)(rand() % 40);
        for (size_t i = 0; i < len; i++)
            text[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        /* Sometimes a builtin or a number, to get past the first token. */
        if (iter % 3 == 0 && len > 16)
            memcpy(text, "global_size(0)*", 15);
        dl_dims_expr *e = NULL;
        if (dl_dims_parse(text, len, &e) != DL_SUCCESS) {
            assert_null(e);
            continue;
        }
        parsed++;
        char canon[1024], again[1024];
        dl_dims_format(e, canon, sizeof canon);
        dl_dims_expr *e2 = NULL;
        if (dl_dims_parse(canon, strlen(canon), &e2) != DL_SUCCESS)
            fail_msg("canonical '%s' of '%.*s' does not parse: %s", canon,
                     (int)len, text, dl_last_error());
        dl_dims_format(e2, again, sizeof again);
        assert_string_equal(canon, again);
        int64_t v1 = 0, v2 = 0;
        dl_status s1 = dl_dims_eval(e, &env, &v1);
        dl_status s2 = dl_dims_eval(e2, &env, &v2);
        assert_int_equal(s1, s2);
        if (s1 == DL_SUCCESS)
            assert_int_equal(v1, v2);
        dl_dims_free(e);
        dl_dims_free(e2);
    }
    assert_true(parsed > 1000); /* the fuzz reaches the evaluator */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_canonical),
        cmocka_unit_test(test_nodes_postfix),
        cmocka_unit_test(test_parse_not_terminated),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_parse_nul_byte),
        cmocka_unit_test(test_parse_limits),
        cmocka_unit_test(test_eval_arithmetic),
        cmocka_unit_test(test_eval_errors),
        cmocka_unit_test(test_eval_launch),
        cmocka_unit_test(test_eval_count),
        cmocka_unit_test(test_bind_and_raw_args),
        cmocka_unit_test(test_callback_args),
        cmocka_unit_test(test_build_macros),
        cmocka_unit_test(test_int_decode),
        cmocka_unit_test(test_format_small_buffer),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
