/* test_annot_jobs.c - the jobs key of `// DL:` annotations
 * (docs/annotations.md, "The jobs key"): its forms and canonical text,
 * its binding to the kernel's arguments, its evaluation at a launch, the
 * rejections with the source line, and random edits of an annotated
 * source. */
#include "test_annot_common.h"

/* The kernel every annotation below stands before. */
#define KERNEL                                                                 \
    "kernel void k(global const float *x, global const int *col,\n"            \
    "              global const int *rowptr, global const ushort *len,\n"      \
    "              global float *y, int n, global const float *w) { }\n"

static dl_annot_program *parse_with(const char *annotations)
{
    char src[4096];
    snprintf(src, sizeof src, "%s%s", annotations, KERNEL);
    return parse(src);
}

/* `line` is accepted and prints back as `canonical`, which reads back to
 * itself. */
static void accepted_as(const char *line, const char *canonical)
{
    char text[1024], out[1024];
    for (int again = 0; again < 2; again++) {
        snprintf(text, sizeof text, "%s\n", again ? canonical : line);
        dl_annot_program *prog = parse_with(text);
        const dl_annot_kernel *k = kernel(prog, "k");
        if (!k->ok || !k->njobs)
            fail_msg("'%s' rejected: %s", text,
                     prog->ndiags ? prog->diags[0].message : "(no message)");
        assert_int_equal(k->nargs + k->nindirect, 0);
        dl_annot_format_jobs(k, out, sizeof out);
        if (strcmp(out, canonical) != 0)
            fail_msg("'%s' printed as '%s', not '%s'", text, out, canonical);
        dl_annot_free(prog);
    }
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
    assert_int_equal(k->njobs, 0);
    expect_diag(prog, 1, part);
    dl_annot_free(prog);
}

static void test_forms(void **state)
{
    (void)state;
    accepted_as("//DL: jobs: by rowptr[gid + 1] - rowptr[gid]",
                "//DL: v1 jobs: by rowptr[gid + 1] - rowptr[gid]");
    accepted_as("// DL: v1 JOBS : BY len [ gid ]",
                "//DL: v1 jobs: by len[gid]");
    accepted_as("//DL: jobs: by len[2*gid + n] - rowptr[(gid)]",
                "//DL: v1 jobs: by len[2 * gid + n] - rowptr[gid]");
}

/* The key binds to the arguments, beside the kernel's references. */
static void test_binding(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse_with("//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. "
                   "rowptr[gid + 1])\n"
                   "//DL: jobs: by rowptr[gid + 1] - rowptr[gid]\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    assert_int_equal(k->nindirect, 1);
    assert_int_equal(k->njobs, 2);
    assert_int_equal(k->jobs_line, 2);
    assert_int_equal(k->jobs[0].array, 2);
    assert_int_equal(k->jobs[1].array, 2);
    assert_int_equal(k->jobs[0].type, DL_INT_I32);
    assert_string_equal(k->jobs[1].name, "rowptr");
    dl_annot_free(prog);
    prog = parse_with("//DL: jobs: by len[gid]\n");
    k = kernel(prog, "k");
    assert_int_equal(k->njobs, 1);
    assert_int_equal(k->jobs[0].type, DL_INT_U16);
    assert_null(k->jobs[1].index);
    dl_annot_free(prog);
}

static void test_rejections(void **state)
{
    (void)state;
    refused("//DL: jobs: rowptr[gid]", "expected by");
    refused("//DL: jobs by len[gid]", "':' after jobs");
    refused("//DL: jobs: by len[gid] + len[gid]", "'-' or the end");
    refused("//DL: jobs: by len[gid] - len[gid] - len[gid]", "the end");
    refused("//DL: jobs: by len[gid", "without a matching");
    refused("//DL: jobs: by lens[gid]", "no argument 'lens'");
    refused("//DL: jobs: by w[gid]", "not integers");
    refused("//DL: jobs: by n[gid]", "not a __global or __constant pointer");
    refused("//DL: jobs: by len[gid * gid]", "not affine");
    /* The first key stays; the second costs the kernel. */
    dl_annot_program *prog =
        parse_with("//DL: jobs: by len[gid]\n//DL: jobs: by len[gid]\n");
    assert_false(kernel(prog, "k")->ok);
    expect_diag(prog, 2, "second jobs key (first on line 1)");
    dl_annot_free(prog);
}

/* At a launch: each term's first entry and its stride in the range. */
static void test_eval(void **state)
{
    (void)state;
    dl_annot_program *prog =
        parse_with("//DL: jobs: by rowptr[gid + 1] - len[3 * gid + n]\n");
    const dl_annot_kernel *k = kernel(prog, "k");
    assert_true(k->ok);
    size_t global = 8, offset = 2;
    int32_t n = 5;
    dl_dims_raw_arg raw[7] = {0};
    raw[5] = (dl_dims_raw_arg){&n, sizeof n};
    dl_dims_env env = {.work_dim = 1,
                       .global_size = &global,
                       .global_offset = &offset,
                       .args = raw,
                       .nargs = 7};
    dl_annot_rows_range r;
    assert_int_equal(dl_annot_jobs_eval(k, &env, NULL, NULL, &r), DL_SUCCESS);
    assert_int_equal(r.base[0], 3);
    assert_int_equal(r.stride[0], 1);
    assert_int_equal(r.base[1], 11);
    assert_int_equal(r.stride[1], 3);
    dl_annot_free(prog);
    prog = parse_with("//DL: indirect: read x[col[gid]]\n");
    assert_int_not_equal(
        dl_annot_jobs_eval(kernel(prog, "k"), &env, NULL, NULL, &r),
        DL_SUCCESS);
    dl_annot_free(prog);
}

/* Random edits must not crash; an accepted key prints back to a form that
 * reads back the same. */
static void test_mutations(void **state)
{
    (void)state;
    static const char base[] =
        "//DL: jobs: by rowptr[gid + 1] - rowptr[gid]\n" KERNEL;
    static const char alphabet[] = "[]():;,-+*/% gidnjobsbylenrowptr0123456789";
    char src[sizeof base + 64];
    rng = 777u; /* this file's sequence */
    size_t klen = strlen(KERNEL);
    for (int iter = 0; iter < 20000; iter++) {
        memcpy(src, base, sizeof base - 1);
        size_t len = mutate(src, sizeof base - 1, sizeof src, alphabet,
                            sizeof alphabet - 1);
        dl_annot_program *prog = NULL;
        assert_int_equal(dl_annot_parse(src, len, "mut", &prog), DL_SUCCESS);
        int intact = len >= klen && !memcmp(src + len - klen, KERNEL, klen);
        const dl_annot_kernel *k = dl_annot_find(prog, "k");
        if (k && k->njobs) {
            assert_true(k->njobs <= 2);
            assert_true(k->jobs[0].array < k->nparams);
            assert_true(k->njobs == 1 || k->jobs[1].array < k->nparams);
        }
        if (k && k->njobs && intact) {
            char once[1024], twice[1024], text[2048];
            dl_annot_format_jobs(k, once, sizeof once);
            snprintf(text, sizeof text, "%s\n%s", once, KERNEL);
            dl_annot_program *again = parse(text);
            dl_annot_format_jobs(kernel(again, "k"), twice, sizeof twice);
            assert_string_equal(once, twice);
            dl_annot_free(again);
        }
        dl_annot_free(prog);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),      cmocka_unit_test(test_binding),
        cmocka_unit_test(test_rejections), cmocka_unit_test(test_eval),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
