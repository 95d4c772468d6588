/* test_rcm.c - the Reverse Cuthill-McKee order (runtime/irregular/rcm.c):
 * a shuffled path comes back with bandwidth 1, a shuffled grid with the
 * bandwidth of its shorter side; a graph with isolated vertices, several
 * components and one-way edges still gets a permutation; malformed
 * matrices are refused. */
#include "csr_renumber.h"
#include "rcm.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

/* A CSR matrix built from an edge list (u lists v). */
typedef struct graph {
    size_t n;
    int32_t *rowptr, *col;
} graph;

static graph from_edges(size_t n, const size_t (*e)[2], size_t m)
{
    graph g = {n, calloc(n + 1, sizeof(int32_t)),
               malloc((m ? m : 1) * sizeof(int32_t))};
    assert_non_null(g.rowptr);
    assert_non_null(g.col);
    for (size_t i = 0; i < m; i++)
        g.rowptr[e[i][0] + 1]++;
    for (size_t v = 0; v < n; v++)
        g.rowptr[v + 1] += g.rowptr[v];
    int32_t *at = calloc(n + 1, sizeof *at);
    assert_non_null(at);
    for (size_t i = 0; i < m; i++) {
        size_t u = e[i][0];
        g.col[g.rowptr[u] + at[u]++] = (int32_t)e[i][1];
    }
    free(at);
    return g;
}

static void graph_free(graph *g)
{
    free(g->rowptr);
    free(g->col);
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random numbering of n vertices. */
static size_t *shuffled(size_t n, uint64_t seed)
{
    size_t *num = malloc(n * sizeof *num);
    assert_non_null(num);
    for (size_t i = 0; i < n; i++)
        num[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next_random(&seed) % i), t = num[i - 1];
        num[i - 1] = num[j];
        num[j] = t;
    }
    return num;
}

/* The largest |perm[u] - perm[v]| over the edges. */
static size_t bandwidth(const graph *g, const size_t *perm)
{
    size_t b = 0;
    for (size_t u = 0; u < g->n; u++)
        for (int32_t k = g->rowptr[u]; k < g->rowptr[u + 1]; k++) {
            size_t a = perm[u], c = perm[g->col[k]];
            size_t d = a > c ? a - c : c - a;
            b = d > b ? d : b;
        }
    return b;
}

static size_t *rcm(const graph *g)
{
    size_t *perm = malloc((g->n ? g->n : 1) * sizeof *perm);
    size_t *inv = malloc((g->n ? g->n : 1) * sizeof *inv);
    assert_non_null(perm);
    assert_non_null(inv);
    assert_int_equal(dl_rcm_order(g->rowptr, g->col, g->n, perm), DL_SUCCESS);
    assert_int_equal(dl_csr_invert(perm, g->n, inv), DL_SUCCESS);
    free(inv);
    return perm;
}

/* Both directions of the edge (num[a], num[b]). */
static void both(size_t (*e)[2], size_t *m, const size_t *num, size_t a,
                 size_t b)
{
    e[*m][0] = num[a];
    e[(*m)++][1] = num[b];
    e[*m][0] = num[b];
    e[(*m)++][1] = num[a];
}

static void test_path(void **state)
{
    (void)state;
    enum { N = 50 };
    size_t *num = shuffled(N, 7), e[2 * N][2], m = 0;
    for (size_t i = 0; i + 1 < N; i++)
        both(e, &m, num, i, i + 1);
    graph g = from_edges(N, e, m);
    size_t *ident = malloc(N * sizeof *ident), *perm = rcm(&g);
    assert_non_null(ident);
    for (size_t i = 0; i < N; i++)
        ident[i] = i;
    assert_true(bandwidth(&g, ident) > 10); /* shuffled */
    assert_int_equal(bandwidth(&g, perm), 1);
    free(ident);
    free(perm);
    free(num);
    graph_free(&g);
}

static void test_grid(void **state)
{
    (void)state;
    enum { W = 12, H = 30, N = W * H };
    size_t *num = shuffled(N, 11), (*e)[2] = malloc(4 * N * sizeof *e), m = 0;
    assert_non_null(e);
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            if (x + 1 < W)
                both(e, &m, num, y * W + x, y * W + x + 1);
            if (y + 1 < H)
                both(e, &m, num, y * W + x, (y + 1) * W + x);
        }
    graph g = from_edges(N, e, m);
    size_t *perm = rcm(&g);
    /* Levels of the walk from a corner are diagonals of at most W. */
    assert_true(bandwidth(&g, perm) <= 2 * W);
    free(perm);
    free(num);
    free(e);
    graph_free(&g);
}

static void test_components(void **state)
{
    (void)state;
    /* 0 -> 1 one way, 2 - 3 - 4 both ways, 5 and 6 isolated, 7 -> 7. */
    const size_t e[][2] = {{0, 1}, {2, 3}, {3, 2}, {3, 4},
                           {4, 3}, {7, 7}, {1, 1}};
    graph g = from_edges(8, e, sizeof e / sizeof *e);
    size_t *perm = rcm(&g);
    /* 2, 3, 4 consecutive (one walk), in either direction. */
    size_t lo = perm[2] < perm[4] ? perm[2] : perm[4];
    size_t hi = perm[2] < perm[4] ? perm[4] : perm[2];
    assert_int_equal(hi - lo, 2);
    assert_int_equal(perm[3], lo + 1);
    free(perm);
    graph_free(&g);
    /* No vertices at all. */
    int32_t rowptr0[1] = {0};
    size_t none[1];
    assert_int_equal(dl_rcm_order(rowptr0, NULL, 0, none), DL_SUCCESS);
}

static void test_malformed(void **state)
{
    (void)state;
    size_t perm[3];
    int32_t col[3] = {0, 3, 1};
    int32_t rowptr[4] = {0, 1, 2, 3};
    assert_int_equal(dl_rcm_order(rowptr, col, 3, perm), DL_INVALID_ARGUMENT);
    col[1] = 2;
    int32_t backwards[4] = {0, 2, 1, 3};
    assert_int_equal(dl_rcm_order(backwards, col, 3, perm),
                     DL_INVALID_ARGUMENT);
    int32_t late[4] = {1, 1, 2, 3};
    assert_int_equal(dl_rcm_order(late, col, 3, perm), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_rcm_order(rowptr, col, 3, NULL), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_rcm_order(rowptr, col, 3, perm), DL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_components),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
