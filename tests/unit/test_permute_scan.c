/* test_permute_scan.c - which kernels may run unchanged on a permuted
 * array (runtime/rt/rt_permute_scan.c): A only as A[P[...]], P only
 * there, neither in a preprocessor line, one body of the kernel; for a
 * set of arrays through one P, each of them so. */
#include "rt_permute.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

static int scan(const char *src)
{
    return rt_permute_scan(src, strlen(src), "k", "x", "col");
}

static void test_qualifies(void **state)
{
    (void)state;
    assert_true(scan("__kernel void k(__global float *x, __global int *col,"
                     " __global float *y) {\n"
                     "  int i = get_global_id(0);\n"
                     "  for (int j = 0; j < 4; j++)\n"
                     "    y[i] += x[col[j * 8 + i]];  /* x[i] in a comment */\n"
                     "  x[col[i]] = y[i] * 2.0f; /* a write through col */\n"
                     "}\n"));
    /* Another kernel of the source may use them as it likes. */
    assert_true(scan("kernel void other(global float *x, global int *col)"
                     " { x[0] = col[0]; }\n"
                     "kernel void k(global float *x, global int *col)"
                     " { x[col[get_global_id(0)]] += 1.0f; }\n"));
}

/* dl-annotate's shared form (docs/annotations.md, "The shared form"):
 * its branch is dlayout's own text and not read; the program's branches,
 * and a use after the form's branch, still are. */
#define SHARED_HEAD                                                            \
    "kernel void k(global const float *x, global const int *col,\n"            \
    "              global float *y\n"                                          \
    "#ifdef DL_SHARE_k\n"                                                      \
    ", global const uint *dl_block_pos, global const uint *dl_block_size\n"    \
    ", local float *dl_share\n"                                                \
    "#endif\n"                                                                 \
    ")\n{\n#ifdef DL_ACTIVE_k\n  y[0] = 0.0f;\n"                               \
    "#elif defined(DL_SHARE_k)\n"                                              \
    "  for (uint dl_i = get_local_id(0); dl_i < 4; dl_i++)\n"                  \
    "    dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];\n"          \
    "#if 1\n  y[0] = 1.0f;\n#else\n  y[0] = x[0];\n#endif\n"                   \
    "  y[get_global_id(0)] = dl_share[col[get_global_id(0)]];\n"

static void test_shared_form(void **state)
{
    (void)state;
    assert_true(scan(SHARED_HEAD
                     "#else\n  y[get_global_id(0)] = x[col[get_global_id(0)]];"
                     "\n#endif\n}\n"));
    assert_false(scan(SHARED_HEAD "#else\n  y[0] = col[0];\n#endif\n}\n"));
}

static void test_rejects(void **state)
{
    (void)state;
    /* x used directly. */
    assert_false(scan("kernel void k(global float *x, global int *col)"
                      " { x[get_global_id(0)] = x[col[0]]; }\n"));
    /* col's value used otherwise. */
    assert_false(scan("kernel void k(global float *x, global int *col,"
                      " global float *y) { int c = col[0]; y[0] = x[c]; }\n"));
    /* An offset after col[...]. */
    assert_false(scan("kernel void k(global float *x, global int *col)"
                      " { x[col[0] + 1] = 0.0f; }\n"));
    /* Nested: x's index names x. */
    assert_false(scan("kernel void k(global float *x, global int *col)"
                      " { x[col[(int)x[col[0]]]] = 0.0f; }\n"));
    /* x passed on, or aliased. */
    assert_false(scan("kernel void k(global float *x, global int *col)"
                      " { global float *q = x; q[col[0]] = 0.0f; }\n"));
    /* A macro names x. */
    assert_false(scan("#define AT(i) x[i]\n"
                      "kernel void k(global float *x, global int *col)"
                      " { x[col[0]] = AT(1); }\n"));
    /* Two bodies (#if branches): unsure. */
    assert_false(scan("#if A\nkernel void k(global float *x, global int *col)"
                      " { x[col[0]] = 0.0f; }\n#else\n"
                      "kernel void k(global float *x, global int *col)"
                      " { x[col[0]] = 1.0f; }\n#endif\n"));
    /* No such kernel, or no source. */
    assert_false(scan("kernel void other(global float *x, global int *col)"
                      " { x[col[0]] = 0.0f; }\n"));
    assert_false(rt_permute_scan(NULL, 0, "k", "x", "col"));
}

static int scan_set(const char *src)
{
    rt_permute_names n = {{"rank", "outdeg"}, 2, "col"};
    return rt_permute_scan_set(src, strlen(src), "k", &n);
}

/* A set: every array of it only as A[P[...]] (PageRank's pull loop). */
static void test_set(void **state)
{
    (void)state;
    assert_true(scan_set("kernel void k(global float *rank, global float "
                         "*outdeg, global int *col, global float *next) {\n"
                         "  float s = 0.0f;\n"
                         "  for (int k = 0; k < 4; k++)\n"
                         "    s += rank[col[k]] / outdeg[col[k]];\n"
                         "  next[get_global_id(0)] = s;\n"
                         "}\n"));
    /* The second array used directly. */
    assert_false(scan_set("kernel void k(global float *rank, global float "
                          "*outdeg, global int *col) {\n"
                          "  rank[col[0]] = outdeg[0];\n"
                          "}\n"));
    /* One array of the set inside another's index. */
    assert_false(scan_set("kernel void k(global float *rank, global float "
                          "*outdeg, global int *col) {\n"
                          "  rank[col[(int)outdeg[col[0]]]] = 0.0f;\n"
                          "}\n"));
    /* A macro names the second array. */
    assert_false(scan_set("#define D outdeg\n"
                          "kernel void k(global float *rank, global float "
                          "*outdeg, global int *col) {\n"
                          "  rank[col[0]] = D[col[0]];\n"
                          "}\n"));
    /* With one array, the other's use through col is a use of col. */
    assert_false(scan("kernel void k(global float *x, global float *w, "
                      "global int *col) { x[col[0]] = w[col[0]]; }\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qualifies),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_shared_form),
        cmocka_unit_test(test_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
