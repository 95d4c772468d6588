/* test_annot_indirect.c - indirect references in `// DL:` annotations
 * (docs/annotations.md, "Indirect references"): every form, their
 * canonical text, their evaluation at a launch, the rejections with the
 * source line, and random edits of annotated sources. */
#include "test_annot_common.h"

/* The kernel every annotation below stands before. */
#define KERNEL                                                                 \
    "struct atom { float x, y, z; int type; };\n"                              \
    "kernel void k(global const float *x, global const int *col,\n"            \
    "              global const uint *perm, global struct atom *a,\n"          \
    "              global float *y, global const float4 *v, int n,\n"          \
    "              uint N, float w, global const int *rowptr,\n"               \
    "              global const ushort *len) { }\n"

static dl_annot_program *parse_with(const char *annotations)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", annotations, KERNEL);
    return parse(src);
}

/* `line` is accepted and prints back as `canonical`. */
static void accepted_as(const char *line, const char *canonical)
{
    char text[1024], out[1024];
    snprintf(text, sizeof text, "%s\n", line);
    dl_annot_program *prog = parse_with(text);
    const dl_annot_kernel *k = kernel(prog, "k");
    if (!k->ok || k->nindirect != 1)
        fail_msg("'%s' rejected: %s", line,
                 prog->ndiags ? prog->diags[0].message : "(no message)");
    assert_int_equal(k->nargs, 0);
    dl_annot_format_indirect(&k->indirect[0], out, sizeof out);
    if (strcmp(out, canonical) != 0)
        fail_msg("'%s' printed as '%s', not '%s'", line, out, canonical);
    dl_annot_free(prog);
    /* The canonical form reads back to itself. */
    snprintf(text, sizeof text, "%s\n", canonical);
    prog = parse_with(text);
    k = kernel(prog, "k");
    assert_true(k->ok);
    dl_annot_format_indirect(&k->indirect[0], out, sizeof out);
    assert_string_equal(out, canonical);
    dl_annot_free(prog);
}

/* `line` is rejected on line 1 of prog.cl, with `part` in the message. */
static void refused(const char *line, const char *part)
{
    char text[1024];
    snprintf(text, sizeof text, "%s\n", line);
    dl_annot_program *prog = parse_with(text);
    const dl_annot_kernel *k = kernel(prog, "k");
    if (k->ok)
        fail_msg("'%s' was accepted", line);
    assert_int_equal(k->nindirect, 0);
    assert_true(prog->ndiags >= 1);
    assert_int_equal(prog->diags[0].line, 1);
    if (!strstr(prog->diags[0].message, part))
        fail_msg("'%s': message '%s' lacks '%s'", line, prog->diags[0].message,
                 part);
    dl_annot_free(prog);
}

static void test_forms(void **state)
{
    (void)state;
    accepted_as("// DL: indirect: read x[col[gid]]",
                "//DL: v1 indirect: read x[col[gid]]");
    accepted_as("//DL: v1 Indirect : READ x [ col [ gid ] + 1 ]",
                "//DL: v1 indirect: read x[col[gid] + 1]");
    accepted_as("//DL: indirect: read x[col[gid] - N + 1]",
                "//DL: v1 indirect: read x[col[gid] - N + 1]");
    accepted_as("//DL: indirect: read x[col[gid] + (n - 2)]",
                "//DL: v1 indirect: read x[col[gid] + n - 2]");
    accepted_as("//DL: indirect: write y[perm[2*gid + 1]]",
                "//DL: v1 indirect: write y[perm[2 * gid + 1]]");
    /* A field of a record: its offset and size in record(...). */
    accepted_as("//DL: indirect: read a[perm[gid]] record(size=16; 4:4)",
                "//DL: v1 indirect: read a[perm[gid]] record(size=16; 4:4)");
    accepted_as("//DL: indirect: read v[col[gid]]",
                "//DL: v1 indirect: read v[col[gid]]");
    /* ELL: x[col[j*N + gid]] for j < K, K a build-option macro. */
    accepted_as("//DL: indirect: read x[col[j * N + gid]] for(j < K)",
                "//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)");
    accepted_as("//DL: indirect: read x[col[gid * n + j]] for ( j < n / 2 )",
                "//DL: v1 indirect: read x[col[gid * n + j]] for(j < n / 2)");
    accepted_as("//DL: indirect: read a[col[(gid + 3) * 4 - j]] "
                "record(size=16; 0:4, 8:4) for(j < 4)",
                "//DL: v1 indirect: read a[col[(gid + 3) * 4 - j]] "
                "record(size=16; 0:4, 8:4) for(j < 4)");
    /* CSR: k runs from rowptr[gid] to rowptr[gid + 1] - 1. */
    accepted_as("//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. "
                "rowptr[gid + 1])",
                "//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. "
                "rowptr[gid + 1])");
    accepted_as("//DL: indirect: read a[col[k + 1] - 1] record(size=16; 4:4) "
                "FOR ( k IN rowptr [ 2*gid ] .. len[2 * gid + n] )",
                "//DL: v1 indirect: read a[col[k + 1] - 1] record(size=16; "
                "4:4) for(k in rowptr[2 * gid] .. len[2 * gid + n])");
}

/* A row-bounded loop: its bounds bound to the kernel's arguments, and no
 * affine range at a launch (its entries depend on rowptr's contents). */
static void test_rows(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse_with("//DL: indirect: read x[col[k] + 2] for(k in rowptr[gid] .. "
                   "rowptr[gid + 1])\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    const dl_annot_indirect *r = &k->indirect[0];
    assert_null(r->trips);
    assert_string_equal(r->loop_var, "k");
    assert_int_equal(r->rows[0].array, 9);
    assert_int_equal(r->rows[1].array, 9);
    assert_int_equal(r->rows[0].type, DL_INT_I32);
    assert_string_equal(r->rows[1].name, "rowptr");
    size_t global = 8;
    dl_dims_raw_arg raw[11] = {0};
    dl_dims_env env = {
        .work_dim = 1, .global_size = &global, .args = raw, .nargs = 11};
    dl_annot_indirect_range range;
    assert_int_not_equal(
        dl_annot_indirect_eval(r, k->nparams, &env, NULL, NULL, &range),
        DL_SUCCESS);
    assert_non_null(strstr(dl_last_error(), "contents of 'rowptr'"));
    int64_t offset = 0;
    assert_int_equal(
        dl_annot_indirect_offset(r, k->nparams, &env, NULL, NULL, &offset),
        DL_SUCCESS);
    assert_int_equal(offset, 2);
    dl_annot_free(prog);
}

static void test_field_span(void **state)
{
    (void)state;
    dl_annot_program *prog = parse_with(
        "//DL: indirect: read a[perm[gid]] record(size=16; 12:4, 4:4)\n"
        "//DL: indirect: read v[col[gid] + 2]\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    assert_int_equal(k->nindirect, 2);
    const dl_annot_indirect *r = &k->indirect[0];
    assert_int_equal(r->array, 3);
    assert_int_equal(r->via, 2);
    assert_int_equal(r->via_type, DL_INT_U32);
    assert_int_equal(r->elem_size, 16);
    assert_int_equal(r->field_offset, 4);
    assert_int_equal(r->field_size, 12);
    assert_int_equal(r->line, 1);
    r = &k->indirect[1];
    assert_int_equal(r->elem_size, 16); /* float4 */
    assert_int_equal(r->field_offset, 0);
    assert_int_equal(r->field_size, 16);
    assert_int_equal(r->via_type, DL_INT_I32);
    assert_int_equal(r->line, 2);
    dl_annot_free(prog);
}

/* Several references to one array, one index buffer for several arrays,
 * and indirect references beside an argument's layout annotation. */
static void test_several(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse_with("//DL: indirect: read x[col[gid]]\n"
                   "//DL: indirect: read x[perm[gid]]\n"
                   "//DL: indirect: read x[col[gid] + 1]\n"
                   "//DL: indirect: write y[col[gid]]\n"
                   "//DL: aos: a[n] record(size=16; 0:4, 4:4, 8:4, 12:4)\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    assert_int_equal(k->nindirect, 4);
    assert_int_equal(k->nargs, 1);
    assert_int_equal(k->indirect[3].write, 1);
    assert_int_equal(k->indirect[3].array, 4);
    assert_int_equal(k->indirect[3].via, 1);
    dl_annot_free(prog);
}

static void test_rejections(void **state)
{
    (void)state;
    refused("//DL: indirect: x[col[gid]]", "expected read or write");
    refused("//DL: indirect: read x(col[gid])", "expected '['");
    refused("//DL: indirect: read x[col[gid]", "found the end of the line");
    refused("//DL: indirect: read x[col[gid", "without a matching ']'");
    refused("//DL: indirect: read x[col[gid]]]", "expected record(...)");
    refused("//DL: indirect: read x[col gid]", "expected '['");
    refused("//DL: indirect: read x[col[gid +]]", "the index at column");
    refused("//DL: indirect: read x[col[gid] * 2]", "expected ']', '+'");
    refused("//DL: indirect: read x[col[gid]] for(j < K",
            "without a matching ')'");
    refused("//DL: indirect: read x[col[gid]] for j < K", "expected '('");
    refused("//DL: indirect: read x[col[gid]] for(j < K) x",
            "expected the end");
    refused("//DL: indirect: read z[col[gid]]", "no argument 'z'");
    refused("//DL: indirect: read x[w[gid]]", "not a __global");
    refused("//DL: indirect: read x[y[gid]]", "holds float, not integers");
    refused("//DL: indirect: read col[col[gid]]", "both the array");
    refused("//DL: indirect: read a[perm[gid]]", "is unknown");
    refused("//DL: indirect: read x[col[gid]] record(size=8; 0:4)",
            "not the 4 bytes");
    refused("//DL: indirect: read x[col[gid * gid]]", "not affine");
    refused("//DL: indirect: read x[col[gid * j]] for(j < 4)", "not affine");
    refused("//DL: indirect: read x[col[gid / 2]]", "not affine");
    refused("//DL: indirect: read x[col[n % gid]]", "not affine");
    refused("//DL: indirect: read x[col[gid + w]]", "not an integer");
    refused("//DL: indirect: read x[col[gid + y]]", "not an integer");
    refused("//DL: indirect: read x[col[gid] + gid]", "only appear in");
    refused("//DL: indirect: read x[col[gid + j]] for(j < j)",
            "only appear in");
    refused("//DL: indirect: read x[col[gid]] for(j < 4)",
            "does not appear in the index");
    refused("//DL: indirect: read x[col[gid + n]] for(n < 4)",
            "an argument of the kernel");
    refused("//DL: indirect: read x[col[gid]] for(gid < 4)", "the global id");
    refused("//DL: indirect: read x[col[gid + 1]] record(size=4; 0:4, 2:2)",
            "overlap");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr[gid])",
            "expected '..'");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. )",
            "the bounds array's name");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr gid .. r[gid])",
            "expected '['");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. "
            "rowptr[gid + 1]",
            "expected ')'");
    refused("//DL: indirect: read x[col[k]] for(k on rowptr[gid])",
            "'<' or in");
    refused("//DL: indirect: read x[col[k]] for(k in rows[gid] .. "
            "rowptr[gid + 1])",
            "no argument 'rows'");
    refused("//DL: indirect: read x[col[k]] for(k in y[gid] .. y[gid + 1])",
            "holds float, not integers");
    refused("//DL: indirect: read x[col[k]] for(k in n[gid] .. n[gid + 1])",
            "not a __global");
    refused("//DL: indirect: read x[col[k]] for(k in col[gid] .. "
            "col[gid + 1])",
            "also the array or the index buffer");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr[gid * gid] .. "
            "rowptr[gid + 1])",
            "not affine");
    refused("//DL: indirect: read x[col[k]] for(k in rowptr[k] .. "
            "rowptr[gid + 1])",
            "names the loop variable");
    refused("//DL: indirect: read x[col[gid]] for(k in rowptr[gid] .. "
            "rowptr[gid + 1])",
            "does not appear in the index");
}

static void test_twice(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse_with("//DL: indirect: read x[col[gid]]\n"
                   "//DL: v1 indirect: read x[ col[gid] ]\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_false(k->ok);
    assert_int_equal(k->nindirect, 1);
    assert_int_equal(prog->diags[0].line, 2);
    assert_non_null(strstr(prog->diags[0].message, "twice (first on line 1)"));
    dl_annot_free(prog);
}

/* The message names the source file and line, as for other annotations. */
static void test_message_names_line(void **state)
{
    (void)state;
    dl_annot_program *prog = parse_with(
        "/* two\n lines */\n//DL: indirect: read x[col[gid] ++ 1]\n");
    assert_int_equal(prog->ndiags, 1);
    assert_int_equal(prog->diags[0].line, 3);
    assert_non_null(strstr(prog->diags[0].message,
                           "annotation rejected, kernel 'k' will run "
                           "untransformed: the offset at column "));
    dl_annot_free(prog);
}

static dl_status macro_k(void *user, const char *name, int64_t *value)
{
    (void)user;
    DL_RETURN_ERROR_ON(strcmp(name, "K") != 0, DL_INVALID_ARGUMENT,
                       "no macro %s", name);
    *value = 7;
    return DL_SUCCESS;
}

/* The affine coefficients at a launch: ELL's j*N + gid with N = 100 and
 * K = 7 from a macro, on the range from global offset 5. */
static void test_eval(void **state)
{
    (void)state;
    dl_annot_program *prog = parse_with(
        "//DL: indirect: read x[col[3 + j * N + 2 * gid] - n] for(j < K)\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    uint32_t N = 100;
    int n = 9;
    dl_dims_raw_arg raw[9] = {0};
    raw[6] = (dl_dims_raw_arg){&n, sizeof n};
    raw[7] = (dl_dims_raw_arg){&N, sizeof N};
    size_t global = 64, offset = 5;
    dl_dims_env env = {.work_dim = 1,
                       .global_size = &global,
                       .global_offset = &offset,
                       .args = raw,
                       .nargs = 9};
    dl_annot_indirect_range r;
    assert_int_equal(dl_annot_indirect_eval(&k->indirect[0], k->nparams, &env,
                                            macro_k, NULL, &r),
                     DL_SUCCESS);
    assert_int_equal(r.base, 3 + 2 * 5);
    assert_int_equal(r.t_stride, 2);
    assert_int_equal(r.j_stride, 100);
    assert_int_equal(r.offset, -9);
    assert_int_equal(r.steps, 7);
    /* Without the macro's value the reference cannot be evaluated. */
    assert_int_not_equal(dl_annot_indirect_eval(&k->indirect[0], k->nparams,
                                                &env, NULL, NULL, &r),
                         DL_SUCCESS);
    /* Nor without an argument's value. */
    raw[7].value = NULL;
    assert_int_not_equal(dl_annot_indirect_eval(&k->indirect[0], k->nparams,
                                                &env, macro_k, NULL, &r),
                         DL_SUCCESS);
    dl_annot_free(prog);
}

/* Random edits of a source with indirect references must not crash; a
 * kernel is either ok with sound references or marked; every accepted
 * reference prints back to a form that reads back the same. */
static void test_mutations(void **state)
{
    (void)state;
    static const char base[] =
        "//DL: indirect: read x[col[j * N + gid] + 1] for(j < K)\n"
        "//DL: v1 indirect: write a[perm[2 * gid]] record(size=16; 4:4)\n"
        "//DL: indirect: read x[perm[gid] - (n - 1)]\n"
        "//DL: indirect: read x[col[k] + 1] for(k in rowptr[gid] .. "
        "rowptr[gid + 1])\n" KERNEL;
    static const char alphabet[] = "[]():;,-+<*/%\\\n\" gidjnNKxcolperm"
                                   "readwriteindirectforrecord0123456789"
                                   ".inrowptrlenk";
    char src[sizeof base + 64];
    rng = 12345u; /* this file's sequence */
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(src, base, sizeof base - 1);
        size_t len = mutate(src, sizeof base - 1, sizeof src, alphabet,
                            sizeof alphabet - 1);
        dl_annot_program *prog = NULL;
        assert_int_equal(dl_annot_parse(src, len, "mut", &prog), DL_SUCCESS);
        /* A reference reads back against KERNEL where no edit changed
         * the kernel (else its names may differ). */
        size_t klen = strlen(KERNEL);
        int intact = len >= klen && !memcmp(src + len - klen, KERNEL, klen);
        for (uint32_t i = 0; i < prog->nkernels; i++) {
            const dl_annot_kernel *k = &prog->kernels[i];
            for (uint32_t j = 0; j < k->nindirect; j++) {
                const dl_annot_indirect *r = &k->indirect[j];
                assert_true(r->array < k->nparams && r->via < k->nparams);
                assert_non_null(r->index);
                assert_true(r->elem_size > 0);
                assert_true(!r->loop_var == !(r->trips || r->rows[0].index));
                assert_true(!r->trips || !r->rows[0].index);
                assert_true(!r->rows[0].index == !r->rows[1].index);
                char once[1024], twice[1024], text[2048];
                if (!intact)
                    continue;
                dl_annot_format_indirect(r, once, sizeof once);
                snprintf(text, sizeof text, "%s\n%s", once, KERNEL);
                dl_annot_program *again = NULL;
                assert_int_equal(
                    dl_annot_parse(text, strlen(text), "again", &again),
                    DL_SUCCESS);
                const dl_annot_kernel *k2 = kernel(again, "k");
                if (!k2->ok || k2->nindirect != 1)
                    fail_msg("'%s' does not read back", once);
                dl_annot_format_indirect(&k2->indirect[0], twice, sizeof twice);
                assert_string_equal(once, twice);
                dl_annot_free(again);
            }
        }
        dl_annot_free(prog);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_field_span),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_several),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_twice),
        cmocka_unit_test(test_message_names_line),
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
