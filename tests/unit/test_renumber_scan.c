/* test_renumber_scan.c - which kernels may run on a renumbered graph
 * (runtime/rt/rt_renumber_scan.c, rt_source.c): the graph loops
 * of tests/integration/kernels/graph_loops.cl qualify, with dl-annotate's
 * DL_ACTIVE_ and DL_JOBSWAP_ branches left out as the program's build
 * leaves them; the global id used as a value, a vertex array indexed
 * otherwise, a written column array, a second work-item function, macros
 * naming the arguments and unknown DL_ conditionals decline. */
#include "rt_renumber_form.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#define SPMV_HEAD                                                              \
    "__kernel void k(__global const float *val, __global const int *col,\n"    \
    "                __global const int *rowptr, __global const float *x,\n"   \
    "                __global float *y, int rows, float mul)\n"

enum { SRC = 2048 };

/* The SpMV with `body` between its guard and its end, into src[SRC]. */
static const char *spmv_in(char *src, const char *body)
{
    snprintf(src, SRC,
             SPMV_HEAD "{\n  int row = get_global_id(0);\n"
                       "  if (row >= rows)\n    return;\n%s}\n",
             body);
    return src;
}

static const char *spmv(const char *body)
{
    static char src[SRC];
    return spmv_in(src, body);
}

static const char *scan(const char *src, rt_renum_form *f)
{
    return rt_renumber_scan(src, strlen(src), "k", f);
}

#define LOOP "  for (int k = rowptr[row]; k < rowptr[row + 1]; k++)\n"

static void test_spmv(void **state)
{
    (void)state;
    rt_renum_form f;
    assert_null(
        scan(spmv("  float s = 0.0f;\n" LOOP "    s += val[k] * x[col[k]];\n"
                  "  y[row] = mul * s;\n"),
             &f));
    assert_int_equal(f.rowptr, 2);
    assert_int_equal(f.col, 1);
    assert_int_equal(f.rows, 5);
    assert_int_equal(f.nedge, 1);
    assert_int_equal(f.edge[0], 0);
    assert_int_equal(f.edge_elem[0], 4);
    assert_int_equal(f.nvertex, 2);
    assert_int_equal(f.vertex[0], 3);
    assert_int_equal(f.vertex[1], 4);
    assert_int_equal(f.vertex_elem, 4);
}

/* graph_loops.cl's pagerank as dl-annotate wrote it. */
static const char pagerank[] =
    "//DL: v1 indirect: read rank[col[k]] for(k in rowptr[gid] .. "
    "rowptr[gid + 1])\n"
    "#ifdef DL_JOBSWAP_pagerank\n"
    "#define get_global_id(d) \\\n"
    "    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))\n"
    "#endif\n"
    "__kernel void pagerank(__global const int *col, __global const int "
    "*rowptr,\n"
    "                       __global const float *rank,\n"
    "                       __global const float *outdeg, __global float "
    "*next,\n"
    "                       int rows, float mul, float add\n"
    "#ifdef DL_ACTIVE_pagerank\n"
    ", __global const float *dl_gather_rank_col\n"
    "#endif\n"
    ")\n{\n"
    "#ifdef DL_ACTIVE_pagerank\n"
    "    int v = get_global_id(0);\n"
    "    if (v >= rows)\n        return;\n"
    "    float s = 0.0f;\n"
    "    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)\n"
    "        s += dl_gather_rank_col[k] / outdeg[col[k]];\n"
    "    next[v] = add + mul * s;\n"
    "#else\n"
    "    int v = get_global_id(0);\n"
    "    if (v >= rows)\n        return;\n"
    "    float s = 0.0f;\n"
    "    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)\n"
    "        s += rank[col[k]] / outdeg[col[k]];\n"
    "    next[v] = add + mul * s;\n"
    "#endif\n"
    "}\n"
    "#ifdef DL_JOBSWAP_pagerank\n#undef get_global_id\n#endif\n";

static void test_pagerank(void **state)
{
    (void)state;
    rt_renum_form f;
    assert_null(rt_renumber_scan(pagerank, strlen(pagerank), "pagerank", &f));
    assert_int_equal(f.col, 0);
    assert_int_equal(f.rowptr, 1);
    assert_int_equal(f.rows, 5);
    assert_int_equal(f.nedge, 0);
    assert_int_equal(f.nvertex, 3);
    assert_int_equal(f.vertex[0], 2);
    assert_int_equal(f.vertex[1], 3);
    assert_int_equal(f.vertex[2], 4);
}

static void test_declines(void **state)
{
    (void)state;
    rt_renum_form f;
    const char *bad[] = {
        /* The global id as a value. */
        "  float s = (float)row;\n" LOOP "    s += val[k] * x[col[k]];\n"
        "  y[row] = s;\n",
        /* A vertex array indexed otherwise. */
        "  float s = x[row + 1];\n" LOOP "    s += val[k] * x[col[k]];\n"
        "  y[row] = s;\n",
        "  float s = 0.0f;\n" LOOP "    s += val[k] * x[k];\n  y[row] = s;\n",
        "  float s = 0.0f;\n" LOOP "    s += x[col[k] + 1];\n  y[row] = s;\n",
        /* The columns as a value, or k. */
        "  float s = 0.0f;\n" LOOP "    s += (float)col[k];\n  y[row] = s;\n",
        "  float s = 0.0f;\n" LOOP "    s += val[k] * k;\n  y[row] = s;\n",
        /* Another work-item function. */
        "  float s = (float)get_local_id(0);\n" LOOP
        "    s += val[k] * x[col[k]];\n  y[row] = s;\n",
        /* No row loop. */
        "  y[row] = x[row];\n",
        /* A buffer passed on. */
        "  __global const float *z = x;\n" LOOP "    y[row] += z[col[k]];\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_non_null(scan(spmv(bad[i]), &f));
    /* Written columns (not const). */
    const char *written =
        "__kernel void k(__global int *col, __global const int *rowptr,\n"
        "  __global float *x, int rows) {\n"
        "  int v = get_global_id(0);\n  if (v >= rows) return;\n"
        "  for (int k = rowptr[v]; k < rowptr[v + 1]; k++)\n"
        "    x[col[k]] += 1.0f;\n}\n";
    assert_non_null(scan(written, &f));
    /* The guard missing. */
    const char *unguarded =
        "__kernel void k(__global const int *col, __global const int "
        "*rowptr,\n  __global float *x, int rows) {\n"
        "  int v = get_global_id(0);\n"
        "  for (int k = rowptr[v]; k < rowptr[v + 1]; k++)\n"
        "    x[v] += x[col[k]];\n}\n";
    assert_non_null(scan(unguarded, &f));
}

static void test_preprocessor(void **state)
{
    (void)state;
    rt_renum_form f;
    char src[3 * SRC], a[SRC], b[SRC];
    const char *body = "  float s = 0.0f;\n" LOOP
                       "    s += val[k] * AT(col[k]);\n  y[row] = s;\n";
    snprintf(src, sizeof src, "#define AT(i) x[i]\n%s", spmv_in(a, body));
    assert_non_null(scan(src, &f));
    snprintf(src, sizeof src, "#if defined(DL_ACTIVE_k)\n#endif\n%s",
             spmv_in(a, "  y[row] = 0.0f;\n"));
    assert_non_null(scan(src, &f));
    /* An #ifndef DL_ keeps its first branch. */
    snprintf(src, sizeof src,
             "#ifndef DL_ACTIVE_k\n%s#else\nkernel void k() {}\n#endif\n",
             spmv_in(a, "  float s = 0.0f;\n" LOOP "    s += x[col[k]];\n"
                        "  y[row] = s;\n"));
    assert_null(scan(src, &f));
    /* Another conditional keeps both: two bodies. */
    snprintf(src, sizeof src, "#ifdef FAST\n%s#endif\n%s",
             spmv_in(a, LOOP "    y[row] += x[col[k]];\n"),
             spmv_in(b, LOOP "    y[row] += x[col[k]];\n"));
    assert_non_null(scan(src, &f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spmv),
        cmocka_unit_test(test_pagerank),
        cmocka_unit_test(test_declines),
        cmocka_unit_test(test_preprocessor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
