/* irr_csr.c - the sparse matrices of `dl-bench irregular` (irr_gen_*.c
 * make them), their random renumbering, and the two SpMV workloads of
 * one matrix: CSR (one row per work-item, x[col[k]] for k in the row) and
 * column-major ELL (x[col[j*rows + row]]). */
#include "irr_workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int irr_csr_alloc(irr_csr *m, size_t rows, size_t nnz)
{
    m->rows = rows;
    m->nnz = nnz;
    m->rowptr = calloc(rows + 1, sizeof *m->rowptr);
    m->col = malloc((nnz ? nnz : 1) * sizeof *m->col);
    m->val = malloc((nnz ? nnz : 1) * sizeof *m->val);
    if (m->rowptr && m->col && m->val)
        return 1;
    irr_csr_free(m);
    return 0;
}

void irr_csr_free(irr_csr *m)
{
    free(m->rowptr);
    free(m->col);
    free(m->val);
    m->rowptr = NULL;
    m->col = NULL;
    m->val = NULL;
}

static int32_t *random_permutation(size_t n, uint64_t seed)
{
    int32_t *perm = malloc((n ? n : 1) * sizeof *perm);
    uint64_t rng = seed;
    for (size_t i = 0; perm && i < n; i++)
        perm[i] = (int32_t)i;
    for (size_t i = n; perm && i > 1; i--) {
        size_t j = irr_rand_below(&rng, i);
        int32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    return perm;
}

/* Row r of m becomes row perm[r] of out, column c column perm[c]. */
void irr_csr_permute(const irr_csr *m, const int32_t *perm, irr_csr *out)
{
    for (size_t r = 0; r < m->rows; r++)
        out->rowptr[perm[r] + 1] = m->rowptr[r + 1] - m->rowptr[r];
    for (size_t r = 0; r < m->rows; r++)
        out->rowptr[r + 1] += out->rowptr[r];
    for (size_t r = 0; r < m->rows; r++) {
        int32_t k = out->rowptr[perm[r]];
        for (int32_t i = m->rowptr[r]; i < m->rowptr[r + 1]; i++, k++) {
            out->col[k] = perm[m->col[i]];
            out->val[k] = m->val[i];
        }
    }
}

int irr_csr_shuffle(irr_csr *m, uint64_t seed)
{
    irr_csr out;
    int32_t *perm = random_permutation(m->rows, seed);
    if (!perm || !irr_csr_alloc(&out, m->rows, m->nnz)) {
        free(perm);
        return 0;
    }
    irr_csr_permute(m, perm, &out);
    free(perm);
    irr_csr_free(m);
    *m = out;
    return 1;
}

int irr_csr_shuffle_columns(irr_csr *m, uint64_t seed)
{
    int32_t *perm = random_permutation(m->rows, seed);
    for (size_t k = 0; perm && k < m->nnz; k++)
        m->col[k] = perm[m->col[k]];
    free(perm);
    return perm != NULL;
}

static float *random_vector(size_t n, uint64_t seed)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    uint64_t rng = seed;
    for (size_t i = 0; x && i < n; i++)
        x[i] = irr_rand_float(&rng);
    return x;
}

static size_t max_row(const irr_csr *m)
{
    size_t width = 0;
    for (size_t r = 0; r < m->rows; r++) {
        size_t len = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
        width = len > width ? len : width;
    }
    return width;
}

/* x via col, A' indexed like col. */
static irr_ref x_via_col(int x, int col, int xp, dl_coalesce_range range)
{
    return (irr_ref){.label = "x via col",
                     .a = x,
                     .p = col,
                     .a_prime = xp,
                     .ref = {sizeof(float), 0, 0, 0},
                     .range = range};
}

static void csr_workload(irr_csr *m, float *x, irr_workload *w)
{
    int rp = irr_add_buf(w, m->rowptr, (m->rows + 1) * sizeof(int32_t));
    int col = irr_add_buf(w, m->col, m->nnz * sizeof(int32_t));
    int val = irr_add_buf(w, m->val, m->nnz * sizeof(float));
    int xb = irr_add_buf(w, x, m->rows * sizeof(float));
    int y = irr_add_buf(w, NULL, m->rows * sizeof(float));
    int xp = irr_add_buf(w, NULL, m->nnz * sizeof(float));
    const int plain[] = {rp, col, val, xb, y}, redirect[] = {rp, val, xp, y};
    for (int i = 0; i < 5; i++)
        irr_plain_arg(w, plain[i], 0);
    for (int i = 0; i < 4; i++)
        irr_redirect_arg(w, redirect[i], 0);
    irr_plain_arg(w, -1, (unsigned)m->rows);
    irr_redirect_arg(w, -1, (unsigned)m->rows);
    w->plain = "spmv_csr";
    w->redirect = "spmv_csr_redirect";
    w->threads = m->rows;
    w->out = y;
    w->refs[w->nrefs] =
        x_via_col(xb, col, xp, (dl_coalesce_range){m->nnz, 1, 0, 1, 0});
    w->refs[w->nrefs++].rowptr = m->rowptr;
    m->rowptr = NULL; /* the workload owns the arrays now */
    m->col = NULL;
    m->val = NULL;
}

/* Column-major ELL of m; short rows padded with (row, 0). */
static int ell_workload(const irr_csr *m, float *x, irr_workload *w)
{
    size_t rows = m->rows, width = max_row(m), n = rows * width;
    int32_t *col = malloc((n ? n : 1) * sizeof *col);
    float *val = malloc((n ? n : 1) * sizeof *val);
    if (!col || !val) {
        free(col);
        free(val);
        return 0;
    }
    for (size_t r = 0; r < rows; r++)
        for (size_t j = 0; j < width; j++) {
            size_t k = (size_t)m->rowptr[r] + j;
            int in_row = k < (size_t)m->rowptr[r + 1];
            col[j * rows + r] = in_row ? m->col[k] : (int32_t)r;
            val[j * rows + r] = in_row ? m->val[k] : 0.0f;
        }
    int cb = irr_add_buf(w, col, n * sizeof(int32_t));
    int vb = irr_add_buf(w, val, n * sizeof(float));
    int xb = irr_add_buf(w, x, rows * sizeof(float));
    int y = irr_add_buf(w, NULL, rows * sizeof(float));
    int xp = irr_add_buf(w, NULL, n * sizeof(float));
    const int plain[] = {cb, vb, xb, y}, redirect[] = {vb, xp, y};
    for (int i = 0; i < 4; i++)
        irr_plain_arg(w, plain[i], 0);
    for (int i = 0; i < 3; i++)
        irr_redirect_arg(w, redirect[i], 0);
    const unsigned dims[] = {(unsigned)rows, (unsigned)width};
    for (int i = 0; i < 2; i++) {
        irr_plain_arg(w, -1, dims[i]);
        irr_redirect_arg(w, -1, dims[i]);
    }
    w->plain = "spmv_ell";
    w->redirect = "spmv_ell_redirect";
    w->threads = rows;
    w->out = y;
    w->refs[w->nrefs++] =
        x_via_col(xb, cb, xp, (dl_coalesce_range){rows, width, 0, 1, rows});
    return 1;
}

int irr_spmv_workloads(irr_csr *m, const char *matrix, uint64_t seed,
                       irr_workload out[2])
{
    memset(out, 0, 2 * sizeof *out);
    snprintf(out[0].name, sizeof out[0].name, "spmv-csr/%s", matrix);
    snprintf(out[1].name, sizeof out[1].name, "spmv-ell/%s", matrix);
    float *x0 = random_vector(m->rows, seed), *x1 = NULL;
    if (x0)
        x1 = malloc((m->rows ? m->rows : 1) * sizeof *x1);
    if (!x1) {
        free(x0);
        return 0;
    }
    memcpy(x1, x0, m->rows * sizeof *x1);
    if (!ell_workload(m, x1, &out[1])) {
        free(x0);
        free(x1);
        return 0;
    }
    csr_workload(m, x0, &out[0]);
    return 1;
}
