/* test_remap.c - graph-partitioned remapping (runtime/irregular/remap.h):
 * a case whose best grouping is obvious, the permutation and the
 * redirected index, sampling, and the transactions saved on the shuffled
 * 3D stencil and an R-MAT graph at GPU-class W and S, and the degree
 * order of the graph loops' symmetric renumbering.  Skipped (77) in a
 * build without METIS, after checking that the method says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "coalesce.h"
#include "irr_count.h"
#include "remap.h"
#include "remap_inputs.h"

static const dl_coalesce_ref float_ref = {4, 0, 0, 0};

static dl_remap_params params_of(dl_remap_form form)
{
    dl_remap_params p = {form, 1.0, 0, 1, dl_metis_linked()};
    return p;
}

/* The inputs: dl-bench irregular's matrices (benchmarks/irr_gen_*.c). */
static int stencil(size_t n, remap_shuffle how, uint64_t seed, remap_ell *m)
{
    irr_csr csr;
    return irr_gen_stencil(n, &csr) && remap_ell_of(&csr, 0, how, seed, m);
}

static int rmat(unsigned scale, size_t max_width, remap_shuffle how,
                uint64_t seed, remap_ell *m)
{
    irr_csr csr;
    return irr_gen_rmat(scale, seed, &csr) &&
           remap_ell_of(&csr, max_width, how, seed, m);
}

/* Transactions of A[P[e] + c] (the analyser's `before`). */
static uint64_t transactions(dl_coalesce_geometry g, dl_coalesce_ref ref,
                             dl_coalesce_range r, const int32_t *p, size_t n)
{
    dl_coalesce_counts c;
    if (dl_coalesce_count(&g, &ref, &r, p, n, 4, &c) != DL_SUCCESS)
        fail_msg("count: %s", dl_last_error());
    return c.before;
}

static void assert_permutation(const size_t *perm, size_t n)
{
    unsigned char *seen = calloc(n, 1);
    assert_non_null(seen);
    for (size_t x = 0; x < n; x++) {
        assert_true(perm[x] < n);
        assert_false(seen[perm[x]]);
        seen[perm[x]] = 1;
    }
    free(seen);
}

/* Plans, checks pi and P' = pi o P, and returns the transactions before
 * and after remapping. */
static void remap_and_count(dl_coalesce_geometry g, dl_coalesce_ref ref,
                            dl_coalesce_range r, const int32_t *p, size_t n,
                            size_t a_count, dl_remap_params prm,
                            uint64_t *before, uint64_t *after,
                            dl_remap_stats *st)
{
    size_t *perm = malloc(a_count * sizeof *perm);
    int32_t *p2 = malloc(n * sizeof *p2);
    assert_true(perm && p2);
    if (dl_remap_plan(&g, &ref, &r, p, n, 4, a_count, &prm, perm, st) !=
        DL_SUCCESS)
        fail_msg("plan: %s", dl_last_error());
    assert_permutation(perm, a_count);
    assert_int_equal(dl_remap_redirect(&ref, perm, a_count, p, n, 4, p2),
                     DL_SUCCESS);
    for (size_t e = 0; e < n; e++) {
        long long x = (long long)p[e] + ref.offset;
        if (x >= 0 && x < (long long)a_count)
            assert_int_equal(p2[e] + ref.offset, perm[x]);
        else
            assert_int_equal(p2[e], p[e]);
    }
    *before = transactions(g, ref, r, p, n);
    *after = transactions(g, ref, r, p2, n);
    free(perm);
    free(p2);
}

/* 4 floats per 16-byte segment, 4 lanes per warp.  Each warp reads 4
 * elements from 4 different segments (a column of the 4x4 array), in
 * varying lane orders: 4 transactions each.  Grouping each column into a
 * segment makes every warp-access one transaction. */
static const int32_t columns[] = {
    0,  4, 8, 12, 1,  5, 9, 13, 2, 6,  10, 14, 3,  7,  11, 15,
    12, 8, 4, 0,  13, 1, 9, 5,  6, 14, 2,  10, 11, 15, 7,  3,
};
#define COLUMNS_N (sizeof columns / sizeof *columns)

static void obvious_case(dl_remap_form form)
{
    dl_coalesce_geometry g = {4, 16};
    dl_coalesce_range r = {COLUMNS_N, 1, 0, 1, 0};
    uint64_t before, after;
    dl_remap_stats st;
    remap_and_count(g, float_ref, r, columns, COLUMNS_N, 16, params_of(form),
                    &before, &after, &st);
    assert_int_equal(before, 32);
    assert_int_equal(after, 8); /* one per warp-access */
    assert_int_equal(st.accesses, 8);
    assert_int_equal(st.sampled, 8);
    assert_int_equal(st.patterns, 4); /* each column twice */
    assert_int_equal(st.referenced, 16);
    assert_int_equal(st.parts, 4);
    assert_int_equal(st.per_segment, 4);
}

static void test_obvious_clique(void **state)
{
    (void)state;
    obvious_case(DL_REMAP_CLIQUE);
}

static void test_obvious_hypergraph(void **state)
{
    (void)state;
    obvious_case(DL_REMAP_HYPERGRAPH);
}

/* Elements the range does not read follow those it reads, in their own
 * order; an offset c and entries outside A are redirected as remap.h
 * says. */
static void test_unread_and_offset(void **state)
{
    (void)state;
    /* A of 12, c = 1: the entries read elements 10 2 6 0 | 6 2 10 0 (in
     * segments 2 0 1 0); entry 50 lies outside A. */
    static const int32_t p[] = {9, 1, 5, -1, 5, 1, 9, -1, 50};
    dl_coalesce_ref ref = {4, 0, 0, 1};
    dl_coalesce_geometry g = {4, 16};
    dl_coalesce_range r = {8, 1, 0, 1, 0};
    size_t perm[12];
    int32_t p2[9];
    dl_remap_params prm = params_of(DL_REMAP_CLIQUE);
    assert_int_equal(dl_remap_plan(&g, &ref, &r, p, 9, 4, 12, &prm, perm, NULL),
                     DL_SUCCESS);
    assert_permutation(perm, 12);
    size_t unread[] = {1, 3, 4, 5, 7, 8, 9, 11};
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(perm[unread[i]], 4 + i);
    assert_int_equal(dl_remap_redirect(&ref, perm, 12, p, 9, 4, p2),
                     DL_SUCCESS);
    assert_int_equal(p2[8], 50);
    for (size_t e = 0; e < 8; e++)
        assert_int_equal(p2[e] + 1, perm[p[e] + 1]);
    /* The four elements read share one segment now. */
    assert_int_equal(transactions(g, ref, r, p, 8), 6);
    assert_int_equal(transactions(g, ref, r, p2, 8), 2);
}

/* Sampling keeps a share of the accesses; the threshold drops short
 * patterns; either way pi stays a permutation. */
static void test_sampling(void **state)
{
    (void)state;
    remap_ell m;
    assert_true(stencil(8, REMAP_SHUFFLE_A, 7, &m));
    dl_coalesce_geometry g = dl_coalesce_geometry_gpu();
    dl_coalesce_range r = {m.rows, m.width, 0, 1, m.rows};
    size_t n = m.rows * m.width;
    uint64_t before, after;
    dl_remap_stats all, half, none;
    dl_remap_params prm = params_of(DL_REMAP_CLIQUE);
    remap_and_count(g, float_ref, r, m.col, n, m.rows, prm, &before, &after,
                    &all);
    assert_int_equal(all.sampled, all.accesses);
    prm.sample = 0.5;
    remap_and_count(g, float_ref, r, m.col, n, m.rows, prm, &before, &after,
                    &half);
    assert_int_equal(half.accesses, all.accesses);
    assert_true(half.sampled > all.sampled / 4);
    assert_true(half.sampled < all.sampled * 3 / 4);
    prm.sample = 1;
    prm.min_pattern = 33; /* longer than a warp: nothing is kept */
    remap_and_count(g, float_ref, r, m.col, n, m.rows, prm, &before, &after,
                    &none);
    assert_int_equal(none.sampled, 0);
    assert_int_equal(none.patterns, 0);
    assert_int_equal(none.edges, 0);
    remap_ell_free(&m);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    dl_coalesce_geometry g = {4, 16};
    dl_coalesce_range r = {4, 1, 0, 1, 0};
    size_t perm[16];
    dl_remap_params prm = params_of(DL_REMAP_CLIQUE);
    prm.sample = 1.5;
    assert_int_equal(
        dl_remap_plan(&g, &float_ref, &r, columns, 4, 4, 16, &prm, perm, NULL),
        DL_INVALID_ARGUMENT);
    prm = params_of((dl_remap_form)7);
    assert_int_equal(
        dl_remap_plan(&g, &float_ref, &r, columns, 4, 4, 16, &prm, perm, NULL),
        DL_INVALID_ARGUMENT);
    prm = params_of(DL_REMAP_CLIQUE);
    assert_int_equal(
        dl_remap_plan(&g, &float_ref, &r, columns, 4, 3, 16, &prm, perm, NULL),
        DL_INVALID_ARGUMENT);
    /* c = -INT32_MAX: entry INT32_MAX reads element 0, which moves to
     * 1, so P' would hold 1 - c = INT32_MAX + 1. */
    dl_coalesce_ref far = {4, 0, 0, -INT32_MAX};
    static const int32_t p[] = {INT32_MAX};
    size_t swap[2] = {1, 0}, id[2] = {0, 1};
    int32_t out[1];
    assert_int_equal(dl_remap_redirect(&far, swap, 2, p, 1, 4, out),
                     DL_INVALID_ARGUMENT);
    assert_int_equal(dl_remap_redirect(&far, id, 2, p, 1, 4, out), DL_SUCCESS);
    assert_int_equal(out[0], INT32_MAX);
    int64_t wide[1];
    static const int64_t p64[] = {INT32_MAX};
    assert_int_equal(dl_remap_redirect(&far, swap, 2, p64, 1, 8, wide),
                     DL_SUCCESS);
    assert_int_equal(wide[0], (int64_t)INT32_MAX + 1);
}

/* Percent fewer transactions after remapping, printed with its label. */
static double saving(const char *label, const remap_ell *m, dl_remap_params prm)
{
    dl_coalesce_geometry g = dl_coalesce_geometry_gpu();
    dl_coalesce_range r = {m->rows, m->width, 0, 1, m->rows};
    uint64_t before, after;
    dl_remap_stats st;
    remap_and_count(g, float_ref, r, m->col, m->rows * m->width, m->rows, prm,
                    &before, &after, &st);
    double pct = 100.0 * ((double)before - (double)after) / (double)before;
    printf("%s, %s: %llu -> %llu transactions (%.1f%% %s); %zu "
           "elements, %zu parts, %zu patterns, graph %zu vertices %zu "
           "edges, %zu moved; profile %.3f s, partition %.3f s\n",
           label, prm.form == DL_REMAP_CLIQUE ? "clique" : "hypergraph",
           (unsigned long long)before, (unsigned long long)after,
           pct < 0 ? -pct : pct, pct < 0 ? "more" : "fewer", st.referenced,
           st.parts, st.patterns, st.vertices, st.edges, st.moved, st.profile_s,
           st.partition_s);
    return pct;
}

/* The goal: at least 60% fewer on the shuffled 3D stencil (A's
 * numbering shuffled, the rows in grid order), W = 32, S = 128. */
static void test_stencil_goal(void **state)
{
    (void)state;
    remap_ell m;
    assert_true(stencil(16, REMAP_SHUFFLE_A, 11, &m));
    assert_true(saving("stencil 16^3", &m, params_of(DL_REMAP_CLIQUE)) >= 60.0);
    assert_true(saving("stencil 16^3", &m, params_of(DL_REMAP_HYPERGRAPH)) >=
                60.0);
    remap_ell_free(&m);
}

/* ... and at least 30% on the power-law graph: the ELL part (8 entries
 * per row, the mean degree) of its HYB form, and the whole ELL. */
static void test_rmat_goal(void **state)
{
    (void)state;
    remap_ell m;
    assert_true(rmat(12, 8, REMAP_SHUFFLE_A, 13, &m));
    assert_true(saving("R-MAT 2^12 HYB's ELL (8)", &m,
                       params_of(DL_REMAP_CLIQUE)) >= 30.0);
    assert_true(saving("R-MAT 2^12 HYB's ELL (8)", &m,
                       params_of(DL_REMAP_HYPERGRAPH)) >= 30.0);
    remap_ell_free(&m);
    assert_true(rmat(12, 0, REMAP_SHUFFLE_A, 13, &m));
    printf("(width %zu)\n", m.width);
    assert_true(saving("R-MAT 2^12 ELL", &m, params_of(DL_REMAP_CLIQUE)) >=
                30.0);
    remap_ell_free(&m);
}

/* No goal where the rows are shuffled too (dl-bench irregular's shuffled
 * matrices): a warp's rows are then random vertices, and at most one of
 * its seven patterns can share a segment, which the row's own column
 * already does (docs/irregular.md).  The plans must be valid; their
 * figures are printed for the record. */
static void test_rows_shuffled(void **state)
{
    (void)state;
    remap_ell m;
    assert_true(stencil(16, REMAP_SHUFFLE_ALL, 11, &m));
    saving("stencil 16^3, rows shuffled", &m, params_of(DL_REMAP_CLIQUE));
    remap_ell_free(&m);
    assert_true(rmat(12, 8, REMAP_SHUFFLE_ALL, 13, &m));
    saving("R-MAT 2^12 HYB's ELL (8), rows shuffled", &m,
           params_of(DL_REMAP_CLIQUE));
    remap_ell_free(&m);
}

/* The graph loops' renumbering (benchmarks/irr_loop.c): rows and columns
 * of the R-MAT graph alike, CSR with a work-item per row, x via col.  The
 * transactions of the matrix renumbered by perm, at W = 32, S = 128. */
static uint64_t renumbered_transactions(const irr_csr *m, const size_t *perm)
{
    int32_t *pi = malloc(m->rows * sizeof *pi);
    irr_csr mp;
    assert_true(pi && irr_csr_alloc(&mp, m->rows, m->nnz));
    for (size_t v = 0; v < m->rows; v++)
        pi[v] = (int32_t)perm[v];
    irr_csr_permute(m, pi, &mp);
    dl_coalesce_geometry g = dl_coalesce_geometry_gpu();
    irr_ref ref = {.ref = float_ref, .rowptr = mp.rowptr};
    dl_coalesce_counts c;
    assert_true(irr_count_index(&g, &ref, mp.col, mp.nnz, mp.rows, &c));
    irr_csr_free(&mp);
    free(pi);
    return c.before;
}

/* METIS's plan of the loops before the degree order: each row's columns
 * one pattern (a "warp" of one row, padded with -1). */
static void metis_rows_plan(const irr_csr *m, size_t *perm)
{
    size_t width = 1;
    for (size_t r = 0; r < m->rows; r++)
        if ((size_t)(m->rowptr[r + 1] - m->rowptr[r]) > width)
            width = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
    int32_t *p = malloc(m->rows * width * sizeof *p);
    assert_non_null(p);
    for (size_t r = 0; r < m->rows; r++)
        for (size_t j = 0; j < width; j++)
            p[r * width + j] = (int32_t)j < m->rowptr[r + 1] - m->rowptr[r]
                                   ? m->col[m->rowptr[r] + j]
                                   : -1;
    dl_coalesce_geometry g = {(unsigned)width, 128};
    dl_coalesce_range r = {m->rows * width, 1, 0, 1, 0};
    dl_remap_params prm = params_of(DL_REMAP_CLIQUE);
    assert_int_equal(dl_remap_plan(&g, &float_ref, &r, p, m->rows * width, 4,
                                   m->rows, &prm, perm, NULL),
                     DL_SUCCESS);
    free(p);
}

/* The degree order's saving on m, in percent; METIS's printed. */
static double loop_saving(const char *label, const irr_csr *m)
{
    size_t *perm = malloc(m->rows * sizeof *perm);
    assert_non_null(perm);
    for (size_t v = 0; v < m->rows; v++)
        perm[v] = v;
    uint64_t before = renumbered_transactions(m, perm);
    metis_rows_plan(m, perm);
    uint64_t metis = renumbered_transactions(m, perm);
    assert_int_equal(dl_remap_degree_order(m->rowptr, m->col, m->rows, perm),
                     DL_SUCCESS);
    assert_permutation(perm, m->rows);
    uint64_t after = renumbered_transactions(m, perm);
    free(perm);
    double pct = 100.0 * ((double)before - (double)after) / (double)before;
    printf("%s, rows and columns renumbered: %llu -> %llu transactions "
           "(%.1f%% fewer) by the degree order, %llu (%.1f%%) by METIS's "
           "plan of the rows\n",
           label, (unsigned long long)before, (unsigned long long)after, pct,
           (unsigned long long)metis,
           100.0 * ((double)before - (double)metis) / (double)before);
    return pct;
}

/* The goal on the loops' power-law graph (PageRank's matrix): at least
 * 30% fewer, as generated and with its vertices shuffled. */
static void test_rmat_loop_goal(void **state)
{
    (void)state;
    irr_csr m;
    assert_true(irr_gen_rmat(10, 13, &m));
    assert_true(loop_saving("R-MAT 2^10 CSR", &m) >= 30.0);
    assert_true(irr_csr_shuffle(&m, 14));
    assert_true(loop_saving("R-MAT 2^10 CSR, shuffled", &m) >= 30.0);
    irr_csr_free(&m);
}

/* A malformed matrix is refused. */
static void test_degree_order_arguments(void **state)
{
    (void)state;
    static const int32_t rowptr[] = {0, 2, 3}, bad_col[] = {1, 2, 0};
    size_t perm[2];
    assert_int_equal(dl_remap_degree_order(rowptr, bad_col, 2, perm),
                     DL_INVALID_ARGUMENT);
    static const int32_t col[] = {1, 1, 0};
    assert_int_equal(dl_remap_degree_order(rowptr, col, 2, perm), DL_SUCCESS);
    /* Row 0 is the longer. */
    assert_int_equal(perm[0], 0);
    assert_int_equal(perm[1], 1);
}

/* Without METIS the method must say why, and fail cleanly. */
static int unavailable(void)
{
    const char *why = dl_remap_unavailable();
    if (!why)
        return 0;
    dl_coalesce_geometry g = {4, 16};
    dl_coalesce_range r = {4, 1, 0, 1, 0};
    size_t perm[16];
    dl_remap_params prm = params_of(DL_REMAP_CLIQUE);
    dl_status st =
        dl_remap_plan(&g, &float_ref, &r, columns, 4, 4, 16, &prm, perm, NULL);
    printf("remap unavailable: %s\n", dl_last_error());
    return st == DL_UNSUPPORTED && strstr(why, "METIS") &&
                   strstr(dl_last_error(), "METIS")
               ? 77
               : 1;
}

int main(void)
{
    int skip = unavailable();
    if (skip)
        return skip;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obvious_clique),
        cmocka_unit_test(test_obvious_hypergraph),
        cmocka_unit_test(test_unread_and_offset),
        cmocka_unit_test(test_sampling),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_stencil_goal),
        cmocka_unit_test(test_rmat_goal),
        cmocka_unit_test(test_rows_shuffled),
        cmocka_unit_test(test_rmat_loop_goal),
        cmocka_unit_test(test_degree_order_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
