/* test_csr_renumber.c - a CSR matrix renumbered symmetrically
 * (runtime/irregular/csr_renumber.c): with x permuted the same way, every
 * row's sum of val[k] * x[col[k]] is bit-identical to the original row's
 * (same entries, same order), for a random order and for the RCM order;
 * the structure keeps each row's length; malformed matrices and
 * non-permutations are refused. */
#include "csr_renumber.h"
#include "rcm.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

enum { N = 500 };

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct matrix {
    int32_t rowptr[N + 1], *col;
    float *val;
} matrix;

/* Rows of 0 to 20 random columns, repeats allowed, random values. */
static void random_matrix(matrix *m, uint64_t *s)
{
    m->rowptr[0] = 0;
    for (size_t v = 0; v < N; v++)
        m->rowptr[v + 1] = m->rowptr[v] + (int32_t)(next_random(s) % 21);
    m->col = malloc((size_t)m->rowptr[N] * sizeof *m->col);
    m->val = malloc((size_t)m->rowptr[N] * sizeof *m->val);
    assert_non_null(m->col);
    assert_non_null(m->val);
    for (int32_t k = 0; k < m->rowptr[N]; k++) {
        m->col[k] = (int32_t)(next_random(s) % N);
        m->val[k] = (float)(next_random(s) % 10007) / 977.0f - 5.0f;
    }
}

static void row_sums(const int32_t *rowptr, const int32_t *col,
                     const float *val, const float *x, float *y)
{
    for (size_t v = 0; v < N; v++) {
        float s = 0.0f;
        for (int32_t k = rowptr[v]; k < rowptr[v + 1]; k++)
            s += val[k] * x[col[k]];
        y[v] = 1.0f / 12.0f * s;
    }
}

/* The renumbered matrix's sums against the original's, bit for bit. */
static void check_order(const matrix *m, const size_t *perm, uint64_t *s)
{
    size_t inv[N];
    assert_int_equal(dl_csr_invert(perm, N, inv), DL_SUCCESS);
    int32_t rowptr[N + 1];
    int32_t *col = malloc((size_t)m->rowptr[N] * sizeof *col);
    float *val = malloc((size_t)m->rowptr[N] * sizeof *val);
    assert_non_null(col);
    assert_non_null(val);
    dl_csr_renumber(m->rowptr, m->col, N, perm, inv, rowptr, col);
    dl_csr_renumber_entries(m->rowptr, N, inv, m->val, sizeof *val, val);
    assert_int_equal(rowptr[N], m->rowptr[N]);
    float x[N], xp[N], y[N], yp[N];
    for (size_t v = 0; v < N; v++) {
        x[v] = (float)(next_random(s) % 1000) / 1000.0f;
        xp[perm[v]] = x[v];
    }
    row_sums(m->rowptr, m->col, m->val, x, y);
    row_sums(rowptr, col, val, xp, yp);
    for (size_t v = 0; v < N; v++) {
        assert_int_equal(rowptr[perm[v] + 1] - rowptr[perm[v]],
                         m->rowptr[v + 1] - m->rowptr[v]);
        assert_memory_equal(&yp[perm[v]], &y[v], sizeof *y);
    }
    free(col);
    free(val);
}

static void test_bit_identical(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    matrix m;
    random_matrix(&m, &s);
    size_t perm[N];
    for (size_t v = 0; v < N; v++)
        perm[v] = v;
    for (size_t i = N; i > 1; i--) {
        size_t j = (size_t)(next_random(&s) % i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    check_order(&m, perm, &s);
    assert_int_equal(dl_rcm_order(m.rowptr, m.col, N, perm), DL_SUCCESS);
    check_order(&m, perm, &s);
    free(m.col);
    free(m.val);
}

static void test_refused(void **state)
{
    (void)state;
    int32_t rowptr[4] = {0, 1, 2, 3}, col[3] = {0, 1, 2};
    assert_int_equal(dl_csr_check(rowptr, col, 3, 3), DL_SUCCESS);
    assert_int_equal(dl_csr_check(rowptr, col, 3, 2), DL_INVALID_ARGUMENT);
    col[2] = -1;
    assert_int_equal(dl_csr_check(rowptr, col, 3, 3), DL_INVALID_ARGUMENT);
    col[2] = 2;
    rowptr[2] = 0;
    assert_int_equal(dl_csr_check(rowptr, col, 3, 3), DL_INVALID_ARGUMENT);
    size_t twice[3] = {0, 2, 2}, big[3] = {0, 1, 3}, inv[3];
    assert_int_equal(dl_csr_invert(twice, 3, inv), DL_INVALID_ARGUMENT);
    assert_int_equal(dl_csr_invert(big, 3, inv), DL_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_identical),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
