/* test_annotations.c - the `// DL:` grammar, its binding to kernel
 * signatures, the rejection of bad annotations (one kernel at a time),
 * and robustness against whatever a program source may contain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "annotations.h"
#include "error.h"
#include "log.h"

/* ---------------------------------------------------------------- helpers */

static dl_annot_program *parse(const char *src)
{
    dl_annot_program *prog = NULL;
    dl_status st = dl_annot_parse(src, strlen(src), "prog.cl", &prog);
    if (st != DL_SUCCESS)
        fail_msg("parse failed: %s", dl_last_error());
    assert_non_null(prog);
    return prog;
}

static const dl_annot_kernel *kernel(const dl_annot_program *prog,
                                     const char *name)
{
    const dl_annot_kernel *k = dl_annot_find(prog, name);
    if (!k)
        fail_msg("kernel '%s' not found", name);
    return k;
}

static void print_diags(const dl_annot_program *prog)
{
    for (uint32_t i = 0; i < prog->ndiags; i++)
        print_message("  diag line %u: %s\n", prog->diags[i].line,
                      prog->diags[i].message);
}

/* A diagnostic on `line` mentioning `part` exists. */
static void expect_diag(const dl_annot_program *prog, unsigned line,
                        const char *part)
{
    for (uint32_t i = 0; i < prog->ndiags; i++)
        if (prog->diags[i].line == line &&
            strstr(prog->diags[i].message, part))
            return;
    print_diags(prog);
    fail_msg("no diagnostic on line %u with '%s'", line, part);
}

static void expect_no_diags(const dl_annot_program *prog)
{
    if (prog->ndiags) {
        print_diags(prog);
        fail_msg("unexpected diagnostics");
    }
}

static const char *count_text(const dl_annot_arg *a)
{
    static char buf[256];
    dl_dims_format(a->count, buf, sizeof buf);
    return buf;
}

/* One kernel `k(global float *f, global struct rec *s, int n, uint m,
 * float x)`, annotated with `annotation`; returns the parsed program. */
static dl_annot_program *one(const char *annotation)
{
    char src[2048];
    snprintf(src, sizeof src,
             "struct rec { float a; int b; };\n"
             "%s\n"
             "__kernel void k(__global float *f, __global struct rec *s,\n"
             "                int n, uint m, float x)\n"
             "{ f[get_global_id(0)] = x; }\n",
             annotation);
    return parse(src);
}

/* `annotation` on line 2 of one() is rejected with a message that
 * contains `part`, and costs kernel k. */
static void rejected(const char *annotation, const char *part)
{
    dl_annot_program *prog = one(annotation);
    const dl_annot_kernel *k = dl_annot_find(prog, "k");
    if (!k)
        fail_msg("'%s': no kernel entry", annotation);
    if (k->ok)
        fail_msg("'%s' was accepted", annotation);
    assert_int_equal(k->nargs, 0);
    expect_diag(prog, 2, part);
    expect_diag(prog, 2, "kernel 'k' will run untransformed");
    dl_annot_free(prog);
}

static void accepted(const char *annotation)
{
    dl_annot_program *prog = one(annotation);
    const dl_annot_kernel *k = kernel(prog, "k");
    if (!k->ok || k->nargs != 1) {
        print_diags(prog);
        fail_msg("'%s' was rejected", annotation);
    }
    dl_annot_free(prog);
}

static int setup(void **state)
{
    (void)state;
    dl_log_set_level(DL_LOG_LEVEL_ERROR); /* diagnostics are checked here */
    return 0;
}

/* -------------------------------------------------------------- the forms */

static void test_paper_example(void **state)
{
    (void)state;
    dl_annot_program *prog = parse("struct foo{\n"
                                   "    float bar;\n"
                                   "    int baz;\n"
                                   "};\n"
                                   "//DL: AoS: f[global_size(0)]\n"
                                   "__kernel void AoS( __global foo* f) {\n"
                                   "    f[get_global_id(0)].bar*=2.0;\n"
                                   "}\n");
    expect_no_diags(prog);
    assert_int_equal(prog->nkernels, 1);
    const dl_annot_kernel *k = kernel(prog, "AoS");
    assert_true(k->ok);
    assert_true(k->defined);
    assert_int_equal(k->line, 6);
    assert_int_equal(k->nparams, 1);
    assert_string_equal(k->params[0].name, "f");
    assert_string_equal(k->params[0].type, "foo");
    assert_int_equal(k->params[0].pointer, 1);
    assert_int_equal(k->params[0].space, DL_SPACE_GLOBAL);
    assert_int_equal(k->params[0].elem_size, 0);
    assert_int_equal(k->nargs, 1);
    const dl_annot_arg *a = &k->args[0];
    assert_int_equal(a->line, 5);
    assert_int_equal(a->index, 0);
    assert_string_equal(a->name, "f");
    assert_int_equal(a->from.kind, DL_KIND_AOS);
    assert_int_equal(a->from.tile, 1);
    assert_int_equal(a->to.kind, DL_KIND_AOS);
    assert_int_equal(a->ndims, 1);
    assert_string_equal(count_text(a), "global_size(0)");
    /* The struct's layout is not known to the runtime: no record. */
    assert_int_equal(a->nfields, 0);
    assert_null(a->record);
    assert_ptr_equal(dl_annot_find_arg(k, 0), a);
    assert_null(dl_annot_find_arg(k, 1));
    assert_null(dl_annot_find(prog, "nope"));
    dl_annot_free(prog);
}

static void test_scalar_array(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("// DL: AoS: grid[N][20]\n"
              "__kernel void lbm(__global const float *grid, const int N,\n"
              "                  __global float *out) { }\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "lbm");
    assert_true(k->ok);
    const dl_annot_arg *a = &k->args[0];
    assert_string_equal(k->params[0].type, "float");
    assert_int_equal(k->params[0].elem_size, 4);
    assert_int_equal(k->params[1].int_type, DL_INT_I32);
    assert_int_equal(a->ndims, 2);
    assert_string_equal(count_text(a), "N");
    assert_int_equal(a->count->nodes[0].arg_index, 1);
    assert_int_equal(a->count->nodes[0].arg_type, DL_INT_I32);
    assert_int_equal(a->nfields, 20);
    assert_int_equal(a->record_size, 80);
    assert_false(a->explicit_record);
    for (uint32_t i = 0; i < 20; i++) {
        assert_int_equal(a->fields[i].offset, 4 * i);
        assert_int_equal(a->fields[i].size, 4);
    }
    assert_non_null(a->record);
    assert_int_equal(dl_record_size(a->record), 80);
    assert_int_equal(dl_record_nfields(a->record), 20);

    /* The count evaluates from the clSetKernelArg values. */
    int n = 1000;
    dl_dims_raw_arg args[3] = {{NULL, 0}, {&n, sizeof n}, {NULL, 0}};
    dl_dims_env env = {.args = args, .nargs = 3};
    size_t count;
    assert_int_equal(dl_dims_eval_count(a->count, &env, &count), DL_SUCCESS);
    assert_int_equal(count, 1000);
    dl_annot_free(prog);
}

static void test_full_form(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: v1 aos: f[global_size(0)] record(size=32; 0:16, 16:4, 24:8)"
        " -> asta(32)\n"
        "kernel void foo(global struct s *f) {}\n");
    expect_no_diags(prog);
    const dl_annot_arg *a = &kernel(prog, "foo")->args[0];
    assert_int_equal(a->from.kind, DL_KIND_AOS);
    assert_int_equal(a->to.kind, DL_KIND_ASTA);
    assert_int_equal(a->to.tile, 32);
    assert_true(a->explicit_record);
    assert_int_equal(a->nfields, 3);
    assert_int_equal(a->record_size, 32);
    assert_int_equal(a->fields[1].offset, 16);
    assert_int_equal(a->fields[1].size, 4);
    assert_int_equal(a->fields[2].offset, 24);
    assert_int_equal(a->fields[2].size, 8);
    assert_int_equal(dl_record_size(a->record), 32);
    /* Usable as-is for a dl_layout. */
    dl_layout to = dl_layout_asta(a->record, 1000, a->to.tile);
    assert_int_equal(dl_layout_check(&to), DL_SUCCESS);
    dl_annot_free(prog);
}

static void test_layouts(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: DA: m[rows][8] -> ASTA(auto)\n"
        "//DL: asta(16): v[rows] -> da\n"
        "//DL: AsTa(4): w[rows][2] -> aos\n"
        "//DL: aos: z[rows] -> asta(1)\n"
        "__kernel void spmv(__global const float *m, __global float4 *v,\n"
        "                   __global double *w, __global int *z,\n"
        "                   unsigned int rows) {}\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "spmv");
    assert_int_equal(k->nargs, 4);
    assert_int_equal(k->args[0].from.kind, DL_KIND_DA);
    assert_int_equal(k->args[0].from.tile, DL_TILE_DA);
    assert_int_equal(k->args[0].to.kind, DL_KIND_ASTA);
    assert_int_equal(k->args[0].to.tile, 0); /* auto */
    assert_int_equal(k->args[0].record_size, 32);
    assert_int_equal(k->args[1].from.kind, DL_KIND_ASTA);
    assert_int_equal(k->args[1].from.tile, 16);
    assert_int_equal(k->args[1].to.kind, DL_KIND_DA);
    assert_int_equal(k->args[1].record_size, 16); /* one float4 */
    assert_int_equal(k->args[1].nfields, 1);
    assert_int_equal(k->args[2].record_size, 16);
    assert_int_equal(k->args[2].nfields, 2);
    assert_int_equal(k->args[2].to.kind, DL_KIND_AOS);
    assert_int_equal(k->args[3].to.kind, DL_KIND_ASTA);
    assert_int_equal(k->args[3].to.tile, 1);
    assert_int_equal(k->params[4].int_type, DL_INT_U32);
    assert_string_equal(k->params[4].type, "uint");
    assert_int_equal(k->args[0].count->nodes[0].arg_type, DL_INT_U32);
    dl_annot_free(prog);
}

static void test_accepted_variants(void **state)
{
    (void)state;
    accepted("//DL: AoS: f[n][4]");
    accepted("//DL:AoS:f[n][4]");
    accepted("//    DL:   aos  :  f [ n ] [ 4 ]   ");
    accepted("//\tDL:\taos:\tf[n][4]\t");
    accepted("//DL: aos: f[n * m + 2][2 + 2]");
    accepted("//DL: aos: f[global_size(0) / local_size(0) * 2][1]");
    accepted("//DL: aos: f[n][4] record(size=16; 0:4, 4:4, 8:8)");
    accepted("//DL: aos: f[n][4] record(size = 16 ; 0 : 4 , 8 : 8) -> "
             "asta(8)");
    accepted("//DL: aos: s[n] record(0:4, 4:4) -> da");
    accepted("//DL: aos: s[n] record(size=12; 8:4, 0:4) -> asta(auto)");
    accepted("//DL: aos: s[n][m] record(size=8; 0:4, 4:4) -> asta(64)");
    accepted("//DL: V1 AOS: s[n] RECORD(SIZE=8; 0:8) -> ASTA(AUTO)");
    accepted("//DL: aos: f[n]");
    accepted("//DL: aos: f[n][1]");
    accepted("//DL: aos: f[n][4] -> asta(2147483648)");
    accepted("//DL: aos: f[n]\r");
    accepted("//DL: aos: f[n] \\\n    [4]");
}

static void test_record_offsets_kept(void **state)
{
    (void)state;
    dl_annot_program *prog =
        one("//DL: aos: s[n] record(size=12; 8:4, 0:4) -> asta(4)");
    const dl_annot_arg *a = &kernel(prog, "k")->args[0];
    /* Fields stay in the order written; the record sorts its parts. */
    assert_int_equal(a->fields[0].offset, 8);
    assert_int_equal(a->fields[1].offset, 0);
    assert_int_equal(a->record_size, 12);
    assert_int_equal(dl_record_nfields(a->record), 2);
    dl_annot_free(prog);

    /* Without size=, the record ends with its last field. */
    prog = one("//DL: aos: s[n] record(4:4, 0:2)");
    a = &kernel(prog, "k")->args[0];
    assert_int_equal(a->record_size, 8);
    dl_annot_free(prog);
}

static void test_count_product(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: aos: s[a + 1][b] record(size=8; 0:8) -> asta(4)\n"
        "//DL: aos: g[a][b - 1][3]\n"
        "kernel void k(global struct r *s, global uchar *g, long a,\n"
        "              ushort b) {}\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_string_equal(count_text(&k->args[0]), "(a + 1) * b");
    assert_string_equal(count_text(&k->args[1]), "a * (b - 1)");
    assert_int_equal(k->args[1].record_size, 3);
    assert_int_equal(k->args[1].nfields, 3);
    assert_int_equal(k->args[1].ndims, 3);
    int64_t a = 9;
    uint16_t b = 4;
    dl_dims_raw_arg args[4] = {{NULL, 0}, {NULL, 0}, {&a, 8}, {&b, 2}};
    dl_dims_env env = {.args = args, .nargs = 4};
    size_t count;
    assert_int_equal(dl_dims_eval_count(k->args[0].count, &env, &count),
                     DL_SUCCESS);
    assert_int_equal(count, 40);
    assert_int_equal(dl_dims_eval_count(k->args[1].count, &env, &count),
                     DL_SUCCESS);
    assert_int_equal(count, 27);
    /* A negative count is an error at launch, not a crash. */
    a = -2;
    assert_int_equal(dl_dims_eval_count(k->args[0].count, &env, &count),
                     DL_INVALID_ARGUMENT);
    dl_annot_free(prog);
}

/* The examples of docs/annotations.md, as written there. */
static void test_doc_examples(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "struct foo { float bar; int baz; };\n"
        "//DL: AoS: f[global_size(0)]\n"
        "__kernel void scale(__global struct foo *f) "
        "{ f[get_global_id(0)].bar *= 2.0f; }\n"
        "// DL: AoS: grid[N][20]\n"
        "__kernel void lbm(__global const float *grid, __global float *out, "
        "int N) { }\n"
        "//DL: v1 aos: f[global_size(0)] record(size=32; 0:16, 16:4, 24:8) "
        "-> asta(32)\n"
        "__kernel void step(__global struct particle *f) { }\n"
        "/* m: an ELL matrix the host keeps column-major (DA), 8 entries a\n"
        " *    row; the kernel wants ASTA with a tile the tuner picks. */\n"
        "//DL: da: m[rows][8] -> asta(auto)\n"
        "//DL: aos: v[rows * 2][4] -> da\n"
        "//DL: asta(16): s[n] record(size=12; 0:4, 8:4) -> aos\n"
        "__kernel void k(__global const float *m, __global float *v,\n"
        "                __global struct s *s, uint rows, int n) { }\n");
    expect_no_diags(prog);
    assert_int_equal(prog->nkernels, 4);
    for (uint32_t i = 0; i < prog->nkernels; i++)
        assert_true(prog->kernels[i].ok);
    assert_int_equal(kernel(prog, "k")->nargs, 3);
    assert_int_equal(kernel(prog, "lbm")->args[0].record_size, 80);
    dl_annot_free(prog);

    /* A trailing comment is part of the annotation, hence an error. */
    rejected("//DL: aos: f[n][4] // four floats", "found '//'");
}

/* ------------------------------------------------------ kernel signatures */

static void test_signatures(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: aos: a[n]\n"
        "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n"
        "void k1(__global const float4 * restrict a,\n"
        "        __constant float *c, __local float *l,\n"
        "        unsigned n, unsigned char uc, signed char sc,\n"
        "        unsigned long ul, const short s, ulong8 v,\n"
        "        read_only image2d_t img, sampler_t smp,\n"
        "        global struct foo *sf, size_t z, float3 f3) { }\n"
        "//DL: aos: c[n]\n"
        "__attribute__((vec_type_hint(float4))) kernel void\n"
        "k2(constant half *c, int n) __attribute__((always_inline)) { }\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "k1");
    assert_int_equal(k->nparams, 14);
    static const struct {
        const char *name, *type;
        unsigned pointer;
        dl_addr_space space;
        uint32_t elem_size;
        dl_int_type int_type;
    } want[] = {
        {"a", "float4", 1, DL_SPACE_GLOBAL, 16, DL_INT_NONE},
        {"c", "float", 1, DL_SPACE_CONSTANT, 4, DL_INT_NONE},
        {"l", "float", 1, DL_SPACE_LOCAL, 4, DL_INT_NONE},
        {"n", "uint", 0, DL_SPACE_PRIVATE, 4, DL_INT_U32},
        {"uc", "uchar", 0, DL_SPACE_PRIVATE, 1, DL_INT_U8},
        {"sc", "char", 0, DL_SPACE_PRIVATE, 1, DL_INT_I8},
        {"ul", "ulong", 0, DL_SPACE_PRIVATE, 8, DL_INT_U64},
        {"s", "short", 0, DL_SPACE_PRIVATE, 2, DL_INT_I16},
        {"v", "ulong8", 0, DL_SPACE_PRIVATE, 64, DL_INT_NONE},
        {"img", "image2d_t", 0, DL_SPACE_PRIVATE, 0, DL_INT_NONE},
        {"smp", "sampler_t", 0, DL_SPACE_PRIVATE, 0, DL_INT_NONE},
        {"sf", "struct foo", 1, DL_SPACE_GLOBAL, 0, DL_INT_NONE},
        {"z", "size_t", 0, DL_SPACE_PRIVATE, 0, DL_INT_NONE},
        {"f3", "float3", 0, DL_SPACE_PRIVATE, 16, DL_INT_NONE},
    };
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++) {
        const dl_kernel_param *p = &k->params[i];
        assert_string_equal(p->name, want[i].name);
        assert_string_equal(p->type, want[i].type);
        assert_int_equal(p->pointer, want[i].pointer);
        assert_int_equal(p->space, want[i].space);
        assert_int_equal(p->elem_size, want[i].elem_size);
        assert_int_equal(p->int_type, want[i].int_type);
    }
    const dl_annot_kernel *k2 = kernel(prog, "k2");
    assert_int_equal(k2->nparams, 2);
    assert_string_equal(k2->params[0].type, "half");
    assert_int_equal(k2->params[0].elem_size, 2);
    assert_int_equal(k2->args[0].record_size, 2);
    dl_annot_free(prog);
}

static void test_void_and_prototypes(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: aos: f[n]\n"
        "__kernel void proto(__global int *f, int n);\n"
        "__kernel void none(void) {}\n"
        "__kernel void proto(__global int *f, int n) { f[0] = n; }\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "proto");
    assert_true(k->ok);
    assert_true(k->defined); /* the definition came later */
    assert_null(dl_annot_find(prog, "none")); /* not annotated */
    dl_annot_free(prog);
}

static void test_next_kernel_and_order(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "//DL: aos: p[n][2]\n"
        "float helper(float x) { return x * 2; }\n"
        "struct s { int a; };\n"
        "__kernel void first(__global float *p, int n) {\n"
        "    if (n) { p[0] = helper(p[1]); }\n"
        "}\n"
        "__kernel void plain(__global float *q) {}\n"
        "//DL: aos: b[n]\n"
        "//DL: aos: a[n * 2]\n"
        "__kernel void second(__global int *a, __global int *b, int n) {}\n");
    expect_no_diags(prog);
    assert_int_equal(prog->nkernels, 2);
    assert_string_equal(prog->kernels[0].name, "first");
    assert_string_equal(prog->kernels[1].name, "second");
    const dl_annot_kernel *k = kernel(prog, "second");
    assert_int_equal(k->nargs, 2);
    assert_int_equal(k->args[0].index, 1); /* annotation order */
    assert_int_equal(k->args[0].line, 8);
    assert_int_equal(k->args[1].index, 0);
    assert_int_equal(k->args[1].line, 9);
    assert_string_equal(dl_annot_find_arg(k, 0)->name, "a");
    dl_annot_free(prog);
}

static void test_annotation_in_parameter_list(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "__kernel void k(__global float *f, //DL: aos: f[n][3]\n"
        "                int n) {}\n");
    expect_no_diags(prog);
    assert_int_equal(kernel(prog, "k")->nargs, 1);
    dl_annot_free(prog);
}

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
    rejected("//DL: aos: s[n] record(0:4) -> da record(0:4)",
             "found 'record");
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
    rejected("//DL: aos: f[n] record(size=8; 0:4, 4:4)",
             "as a last dimension");
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
    dl_annot_program *prog =
        parse("//DL: aos: l[n]\n"
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
    dl_annot_program *prog = parse(
        "//DL: aos: a[n][2]\n"
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
    expect_diag(prog, 4, "kernel 'bad' will run untransformed: column 17: "
                         "expected record(...), '->' or the end, found "
                         "'oops'");
    dl_annot_free(prog);
}

static void test_misplaced_annotations(void **state)
{
    (void)state;
    dl_annot_program *prog = parse(
        "kernel void k(global int *a, int n) {\n"
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
    dl_annot_program *prog = parse(
        "#ifdef FAST\n"
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
    const char *src =
        "//DL: aos: a[n][2] -> da\n"
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
    expect_diag(prog, 1, "kernel 'hand' will run untransformed: it asks for "
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
    dl_annot_program *prog = parse(
        "#ifdef __cplusplus\n"
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
    dl_annot_program *prog = parse(
        "/* //DL: aos: a[n]\n"
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
    dl_annot_program *prog = parse(
        "/* a\n"
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

/* ----------------------------------------------------- logging, utilities */

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
    assert_int_equal(dl_annot_parse(NULL, 5, "x", &prog),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_annot_parse("", 0, "x", NULL), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_annot_parse(NULL, 0, "x", &prog), DL_SUCCESS);
    dl_annot_free(prog);
    dl_annot_free(NULL);
}

static void test_format_round_trip(void **state)
{
    (void)state;
    static const char *const forms[] = {
        "//DL: v1 aos: f[n][4]",
        "//DL: v1 aos: f[n * m + 2][4] -> asta(32)",
        "//DL: v1 da: f[global_size(0) / 2][2] -> asta(auto)",
        "//DL: v1 asta(8): s[n] record(size=16; 8:8, 0:4) -> da",
        "//DL: v1 aos: s[n][m] record(size=32; 0:16, 16:4, 24:8) -> asta(4)",
        "//DL: v1 aos: s[-(n - 1) % 3]",
    };
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++) {
        dl_annot_program *prog = one(forms[i]);
        const dl_annot_kernel *k = kernel(prog, "k");
        if (!k->ok)
            print_diags(prog);
        assert_true(k->ok);
        char buf[512];
        int n = dl_annot_format(&k->args[0], buf, sizeof buf);
        assert_string_equal(buf, forms[i]);
        assert_int_equal(n, (int)strlen(forms[i]));
        dl_annot_free(prog);
    }
    /* The user form prints in the full form. */
    dl_annot_program *prog = one("//DL:AoS:f[ n ][ 2*2 ]");
    char buf[128];
    dl_annot_format(&kernel(prog, "k")->args[0], buf, sizeof buf);
    assert_string_equal(buf, "//DL: v1 aos: f[n][2 * 2]");
    dl_annot_free(prog);

    char small[6];
    dl_annot_layout l = {DL_KIND_ASTA, 0};
    assert_int_equal(dl_annot_layout_format(l, small, sizeof small), 10);
    assert_string_equal(small, "asta(");
}

/* ------------------------------------------------------- the launch flag */

/* "launch: tiled" marks the kernel, not an argument; "tiled(bound)" keeps
 * the bound, bound to the kernel's integer arguments. */
static void test_launch_flag(void **state)
{
    (void)state;
    dl_annot_program *prog =
        one("//DL: launch: tiled\n//DL: aos: f[n][2] -> asta(8)");
    const dl_annot_kernel *k = kernel(prog, "k");
    expect_no_diags(prog);
    assert_true(k->ok);
    assert_true(k->tiled);
    assert_int_equal(k->tiled_line, 2);
    assert_null(k->tiled_bound);
    assert_int_equal(k->nargs, 1);
    assert_string_equal(k->args[0].name, "f");
    char buf[128];
    assert_int_equal(dl_annot_format_launch(k, buf, sizeof buf),
                     (int)strlen("//DL: v1 launch: tiled"));
    assert_string_equal(buf, "//DL: v1 launch: tiled");
    dl_annot_free(prog);

    /* The bound, after the argument's annotation and with a version. */
    prog = one("//DL: aos: f[n][2] -> asta(8)\n"
               "// DL: V1 LAUNCH : Tiled ( (n + m) * 1 )");
    k = kernel(prog, "k");
    expect_no_diags(prog);
    assert_true(k->ok && k->tiled);
    assert_int_equal(k->tiled_line, 3);
    assert_non_null(k->tiled_bound);
    dl_annot_format_launch(k, buf, sizeof buf);
    assert_string_equal(buf, "//DL: v1 launch: tiled((n + m) * 1)");
    int32_t args[] = {7, 5};
    dl_dims_raw_arg raw[5] = {{NULL, 0}, {NULL, 0}, {&args[0], 4},
                              {&args[1], 4}, {NULL, 0}};
    size_t g = 64;
    dl_dims_env env = {.work_dim = 1, .global_size = &g, .args = raw,
                       .nargs = 5};
    int64_t bound = 0;
    assert_int_equal(dl_dims_eval(k->tiled_bound, &env, &bound), DL_SUCCESS);
    assert_int_equal(bound, 12);
    dl_annot_free(prog);

    /* A kernel without the flag, and a flag on its own. */
    prog = one("//DL: aos: f[n][2] -> asta(8)");
    k = kernel(prog, "k");
    assert_false(k->tiled);
    assert_int_equal(dl_annot_format_launch(k, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    dl_annot_free(prog);
    prog = one("//DL: launch: tiled(global_size(0))");
    k = kernel(prog, "k");
    expect_no_diags(prog);
    assert_true(k->ok && k->tiled);
    assert_int_equal(k->nargs, 0);
    dl_annot_free(prog);

    /* Round trip through the canonical form. */
    static const char *const forms[] = {
        "//DL: v1 launch: tiled",
        "//DL: v1 launch: tiled(n)",
        "//DL: v1 launch: tiled(global_offset(0) + global_size(0))",
    };
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++) {
        prog = one(forms[i]);
        k = kernel(prog, "k");
        assert_true(k->ok && k->tiled);
        dl_annot_format_launch(k, buf, sizeof buf);
        assert_string_equal(buf, forms[i]);
        dl_annot_free(prog);
    }
}

static void test_launch_flag_errors(void **state)
{
    (void)state;
    rejected("//DL: launch tiled", "expected ':' after launch");
    rejected("//DL: launch:", "expected tiled");
    rejected("//DL: launch: flat", "expected tiled (the only launch flag");
    rejected("//DL: launch: tiled(n", "without a matching ')'");
    rejected("//DL: launch: tiled()", "the bound of tiled(...)");
    rejected("//DL: launch: tiled(n +)", "the bound of tiled(...)");
    rejected("//DL: launch: tiled(n) x", "expected the end, found 'x'");
    rejected("//DL: launch: tiled x", "expected '(' or the end");
    rejected("//DL: launch: tiled(x)", "'x' in a dimension is not an "
                                       "integer");
    rejected("//DL: v2 launch: tiled", "version v2 is not supported");

    /* Twice for one kernel: the second costs the kernel. */
    dl_annot_program *prog = one("//DL: launch: tiled\n//DL: launch: tiled");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_false(k->ok);
    expect_diag(prog, 3, "second launch flag (first on line 2)");
    dl_annot_free(prog);

    /* A flag with no kernel after it is reported and costs nothing. */
    prog = parse("__kernel void k(__global float *f) { }\n"
                 "//DL: launch: tiled\n");
    expect_diag(prog, 2, "annotation of 'launch' is not followed by a "
                         "kernel");
    assert_null(dl_annot_find(prog, "k"));
    dl_annot_free(prog);
}

/* -------------------------------------------------------------- robustness */

static uint32_t rng = 2463534242u;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void test_binary_garbage(void **state)
{
    (void)state;
    size_t len = 1 << 20;
    char *src = malloc(len);
    for (int round = 0; round < 8; round++) {
        for (size_t i = 0; i < len; i++)
            src[i] = (char)next_rand();
        /* Sprinkle the interesting bytes of the grammar. */
        static const char *const bits[] = {"//DL: aos: a[n]\n", "kernel ",
                                           "(", ")", "{", "}", "/*", "*/",
                                           "\"", "'", "\\\n", "#", "\n",
                                           "__attribute__((", ";", ","};
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
        size_t len = sizeof base - 1;
        memcpy(src, base, len);
        int edits = 1 + (int)(next_rand() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = next_rand() % len;
            char c = alphabet[next_rand() % (sizeof alphabet - 1)];
            switch (next_rand() % 3) {
            case 0: src[at] = c; break;
            case 1:
                if (len + 1 < sizeof src) {
                    memmove(src + at + 1, src + at, len - at);
                    src[at] = c;
                    len++;
                }
                break;
            default:
                memmove(src + at, src + at + 1, len - at - 1);
                len--;
                break;
            }
        }
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
        cmocka_unit_test(test_paper_example),
        cmocka_unit_test(test_scalar_array),
        cmocka_unit_test(test_full_form),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_accepted_variants),
        cmocka_unit_test(test_record_offsets_kept),
        cmocka_unit_test(test_count_product),
        cmocka_unit_test(test_doc_examples),
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_void_and_prototypes),
        cmocka_unit_test(test_next_kernel_and_order),
        cmocka_unit_test(test_annotation_in_parameter_list),
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
        cmocka_unit_test(test_parse_strings),
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_launch_flag),
        cmocka_unit_test(test_launch_flag_errors),
        cmocka_unit_test(test_unselected_conversion_refused),
        cmocka_unit_test(test_extern_c_block),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_unterminated),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_large_source),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
