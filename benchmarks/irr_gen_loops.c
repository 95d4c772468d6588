/* irr_gen_loops.c - the inputs of the graph-kernel loops (irr_loop.h):
 * - PageRank over the R-MAT graph, natural and with its vertices shuffled:
 *   row v lists the u of its in-edges, A[v][u] = 1/outdeg(u) (outdeg: how
 *   often u is a column), rank0 = 1/n, rank' = (1-d)/n + d * A rank with
 *   d = 0.85;
 * - the iterated symmetric SpMV over the shuffled 3D stencil (symmetric:
 *   rows and columns renumbered alike), x' = A x / 12 (12 bounds the rows'
 *   absolute sums, so x stays finite), from a random x. */
#include "irr_loop.h"

#include <stdlib.h>

#define DAMPING 0.85f

static float *vector_of(size_t n, float value, uint64_t seed)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    uint64_t rng = seed;
    for (size_t i = 0; x && i < n; i++)
        x[i] = seed ? irr_rand_float(&rng) : value;
    return x;
}

static int transition_matrix(irr_csr *m)
{
    unsigned *outdeg = calloc(m->rows ? m->rows : 1, sizeof *outdeg);
    if (!outdeg)
        return 0;
    for (size_t k = 0; k < m->nnz; k++)
        outdeg[m->col[k]]++;
    for (size_t k = 0; k < m->nnz; k++)
        m->val[k] = 1.0f / (float)outdeg[m->col[k]];
    free(outdeg);
    return 1;
}

/* Runs loop l over m from x (both freed). */
static void run_one(irr_device *d, const irr_loop *l, irr_csr *m, float *x,
                    int *failed, int *unverified)
{
    int rc = x ? irr_loop_report(d, l, m, x) : -1;
    *failed |= rc < 0;
    *unverified |= rc == 0;
    free(x);
    irr_csr_free(m);
}

static void pagerank(irr_device *d, const irr_sizes *z, int shuffled,
                     irr_loop *l, int *failed, int *unverified)
{
    irr_csr m = {0, 0, NULL, NULL, NULL};
    if (!irr_gen_rmat(z->rmat_scale, l->seed, &m) ||
        (shuffled && !irr_csr_shuffle(&m, l->seed + 1)) ||
        !transition_matrix(&m)) {
        irr_csr_free(&m);
        *failed = 1;
        return;
    }
    l->name = shuffled ? "pagerank/rmat-shuffled" : "pagerank/rmat";
    l->label = "rank via col";
    l->mul = DAMPING;
    l->add = (1.0f - DAMPING) / (float)m.rows;
    run_one(d, l, &m, vector_of(m.rows, 1.0f / (float)m.rows, 0), failed,
            unverified);
}

static void symmetric_spmv(irr_device *d, const irr_sizes *z, irr_loop *l,
                           int *failed, int *unverified)
{
    irr_csr m = {0, 0, NULL, NULL, NULL};
    if (!irr_gen_stencil(z->stencil_n, &m) ||
        !irr_csr_shuffle(&m, l->seed + 2)) {
        irr_csr_free(&m);
        *failed = 1;
        return;
    }
    l->name = "sym-spmv/stencil-shuffled";
    l->label = "x via col";
    l->mul = 1.0f / 12.0f;
    l->add = 0.0f;
    run_one(d, l, &m, vector_of(m.rows, 0.0f, l->seed + 3), failed, unverified);
}

void irr_run_loops(irr_device *d, const irr_sizes *z, size_t iterations,
                   uint64_t seed, int *failed, int *unverified)
{
    irr_loop l = {.iterations = iterations, .seed = seed * 16 + 10};
    pagerank(d, z, 0, &l, failed, unverified);
    pagerank(d, z, 1, &l, failed, unverified);
    symmetric_spmv(d, z, &l, failed, unverified);
}
