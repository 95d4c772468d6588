/* test_annotations.c - the `// DL:` grammar, its binding to kernel
 * signatures, its formatting back to text and the launch flag.  Bad
 * annotations: test_annot_errors.c; whole sources: test_annot_source.c. */
#include "test_annot_common.h"

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

/* Whether the kernel can write through a pointer parameter: a pointer to
 * const (the qualifier before the '*', either side of the type) cannot; a
 * const pointer to writable data can.  Launches count the others as
 * writes of their buffers (runtime/rt/rt_reorder.c). */
static void test_pointee_const(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse("// DL: AoS: a[n]\n"
              "__kernel void k(__global const float *a,\n"
              "                __global float const *b,\n"
              "                const __global float *c,\n"
              "                __global float *const d,\n"
              "                __global float *e, const int n) { }\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_int_equal(k->nparams, 6);
    assert_true(k->params[0].pointee_const);
    assert_true(k->params[1].pointee_const);
    assert_true(k->params[2].pointee_const);
    assert_false(k->params[3].pointee_const);
    assert_false(k->params[4].pointee_const);
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
    dl_annot_program *prog =
        parse("//DL: aos: s[a + 1][b] record(size=8; 0:8) -> asta(4)\n"
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
    dl_annot_program *prog =
        parse("//DL: aos: f[n]\n"
              "__kernel void proto(__global int *f, int n);\n"
              "__kernel void none(void) {}\n"
              "__kernel void proto(__global int *f, int n) { f[0] = n; }\n");
    expect_no_diags(prog);
    const dl_annot_kernel *k = kernel(prog, "proto");
    assert_true(k->ok);
    assert_true(k->defined);                  /* the definition came later */
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
    dl_annot_program *prog =
        parse("__kernel void k(__global float *f, //DL: aos: f[n][3]\n"
              "                int n) {}\n");
    expect_no_diags(prog);
    assert_int_equal(kernel(prog, "k")->nargs, 1);
    dl_annot_free(prog);
}

/* ------------------------------------------------------------- formatting */

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
    dl_dims_raw_arg raw[5] = {
        {NULL, 0}, {NULL, 0}, {&args[0], 4}, {&args[1], 4}, {NULL, 0}};
    size_t g = 64;
    dl_dims_env env = {
        .work_dim = 1, .global_size = &g, .args = raw, .nargs = 5};
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

/* "launch: chunks" marks the kernel too, beside a tiled flag or not;
 * twice is an error. */
static void test_chunks_flag(void **state)
{
    (void)state;
    dl_annot_program *prog =
        one("//DL: launch: chunks\n//DL: V1 Launch : tiled");
    const dl_annot_kernel *k = kernel(prog, "k");
    expect_no_diags(prog);
    assert_true(k->ok && k->chunks && k->tiled);
    assert_int_equal(k->chunks_line, 2);
    assert_int_equal(k->nargs, 0);
    char buf[64];
    assert_int_equal(dl_annot_format_chunks(k, buf, sizeof buf),
                     (int)strlen("//DL: v1 launch: chunks"));
    assert_string_equal(buf, "//DL: v1 launch: chunks");
    dl_annot_free(prog);

    prog = one("//DL: aos: f[n][2]");
    k = kernel(prog, "k");
    assert_false(k->chunks);
    assert_int_equal(dl_annot_format_chunks(k, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    dl_annot_free(prog);

    prog = one("//DL: launch: chunks\n//DL: launch: chunks");
    k = kernel(prog, "k");
    assert_false(k->ok);
    expect_diag(prog, 3, "second chunks flag (first on line 2)");
    dl_annot_free(prog);
}

static void test_launch_flag_errors(void **state)
{
    (void)state;
    rejected("//DL: launch tiled", "expected ':' after launch");
    rejected("//DL: launch:", "expected tiled");
    rejected("//DL: launch: flat", "expected tiled or chunks");
    rejected("//DL: launch: chunks(2)", "expected the end, found '(2)'");
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
    expect_diag(prog, 2,
                "annotation of 'launch' is not followed by a "
                "kernel");
    assert_null(dl_annot_find(prog, "k"));
    dl_annot_free(prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_example),
        cmocka_unit_test(test_pointee_const),
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
        cmocka_unit_test(test_format_round_trip),
        cmocka_unit_test(test_launch_flag),
        cmocka_unit_test(test_chunks_flag),
        cmocka_unit_test(test_launch_flag_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
