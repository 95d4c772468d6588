/* scn_graph_loops.c - the graph-kernel loops of issue 20 as an ordinary
 * host program (kernels/graph_loops.cl), vectors ping-ponged between two
 * buffers, the last one read once:
 * - "pagerank": the pull form over an R-MAT power-law graph (2^scale
 *   vertices, 8 edges each; a = 0.57, b = c = 0.19) with its vertices
 *   renumbered at random; row v lists the sources of v's in-edges;
 *   rank' = (1 - d)/n + d * sum rank[u] / outdeg[u], d = 0.85;
 * - "spmv": the iterated symmetric SpMV x' = A x / 12 over the 3D 7-point
 *   stencil of n^3 rows, renumbered at random (rows and columns alike).
 * argv[0] the loop, argv[1] its size (scale 1..24, default 20; n 1..200,
 * default 100), argv[2] iterations (default 20), argv[3] "finish" to wait
 * for each launch before the next, or "paced" to wait and sleep 20 ms more
 * (so that what dlayout plans on a thread of its own lands within a few
 * launches).  The digest goes to
 * stdout; the loop's time, from the first buffer to the read's end
 * (every reorganisation included), to stderr. */
#include "csr_gen.h"
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DAMPING 0.85f

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One loop's kernel and inputs; each iteration reads one vector and
 * writes the other. */
typedef struct graph_loop {
    const char *kernel, *label;
    csr_matrix m;
    float *x;      /* the first vector */
    float *outdeg; /* pagerank's; NULL for the SpMV */
    float mul, add;
    int finish; /* clFinish after each launch; 2: then sleep 20 ms */
} graph_loop;

static void run_loop(it_cl *cl, graph_loop *g, long iterations)
{
    double t0 = now();
    size_t rows = g->m.rows, vec = rows * sizeof *g->x;
    cl_program program = it_build(cl, "graph_loops.cl", "");
    cl_kernel k = it_kernel(program, g->kernel);
    int pr = !strcmp(g->kernel, "pagerank");
    cl_mem val =
        pr ? NULL : csr_buffer(cl, g->m.nnz * sizeof *g->m.val, g->m.val);
    cl_mem col = csr_buffer(cl, g->m.nnz * sizeof *g->m.col, g->m.col);
    cl_mem rowptr =
        csr_buffer(cl, (rows + 1) * sizeof *g->m.rowptr, g->m.rowptr);
    cl_mem v[2] = {csr_buffer(cl, vec, g->x), csr_buffer(cl, vec, g->x)};
    cl_mem outdeg = pr ? csr_buffer(cl, vec, g->outdeg) : NULL;
    /* pagerank(col, rowptr, rank, outdeg, next, rows, mul, add) and
     * sym_spmv(val, col, rowptr, x, y, rows, mul): the vectors, at `in`
     * and 4, are set at each iteration. */
    cl_mem fixed[2][5] = {{val, col, rowptr, NULL, NULL},
                          {col, rowptr, NULL, outdeg, NULL}};
    for (cl_uint i = 0; i < 5; i++)
        if (fixed[pr][i])
            CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &fixed[pr][i]));
    const cl_int n = (cl_int)rows;
    const cl_uint in = pr ? 2 : 3, out = 4;
    CHECK(clSetKernelArg(k, 5, sizeof n, &n));
    CHECK(clSetKernelArg(k, 6, sizeof g->mul, &g->mul));
    if (pr)
        CHECK(clSetKernelArg(k, 7, sizeof g->add, &g->add));
    for (long i = 0; i < iterations; i++) {
        CHECK(clSetKernelArg(k, in, sizeof v[i % 2], &v[i % 2]));
        CHECK(clSetKernelArg(k, out, sizeof v[(i + 1) % 2], &v[(i + 1) % 2]));
        it_run(cl->queue, k, it_round_up(rows));
        if (g->finish)
            CHECK(clFinish(cl->queue));
        if (g->finish == 2)
            usleep(20000);
    }
    it_print_buffer(cl, v[iterations % 2], vec, g->label);
    fprintf(stderr,
            "graph_loops: %s: %zu rows, %zu entries, %ld "
            "iterations: %.3f s\n",
            g->kernel, rows, g->m.nnz, iterations, now() - t0);
    cl_mem all[6] = {val, col, rowptr, v[0], v[1], outdeg};
    for (int i = 0; i < 6; i++)
        if (all[i])
            CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(program));
}

static float *vector(size_t n, uint64_t *s, float value)
{
    float *x = malloc(n * sizeof *x);
    if (!x)
        it_fail("out of memory");
    for (size_t i = 0; i < n; i++)
        x[i] = s ? (float)(csr_next(s) % 1000) / 1000.0f : value;
    return x;
}

void scn_graph_loops(it_cl *cl, int argc, char **argv)
{
    const char *kind = argc > 0 ? argv[0] : "pagerank";
    int pr = !strcmp(kind, "pagerank");
    size_t size = argc > 1 ? strtoul(argv[1], NULL, 10) : pr ? 20 : 100;
    long iterations = argc > 2 ? strtol(argv[2], NULL, 10) : 20;
    if ((!pr && strcmp(kind, "spmv")) || size < 1 || size > (pr ? 24 : 200) ||
        iterations < 1 || iterations > 100000)
        it_fail("graph_loops: pagerank SCALE (1..24) or spmv N (1..200), "
                "iterations 1..100000");
    uint64_t s = 0x2545f4914f6cdd1dull;
    graph_loop g = {.kernel = pr ? "pagerank" : "sym_spmv",
                    .label = pr ? "graph_loops: rank" : "graph_loops: x",
                    .finish = argc < 4                     ? 0
                              : !strcmp(argv[3], "finish") ? 1
                              : !strcmp(argv[3], "paced")  ? 2
                                                           : 0};
    if (pr) {
        csr_rmat(&g.m, &g.outdeg, (unsigned)size, &s);
        g.x = vector(g.m.rows, NULL, 1.0f / (float)g.m.rows);
        g.mul = DAMPING;
        g.add = (1.0f - DAMPING) / (float)g.m.rows;
    } else {
        size_t *num = csr_shuffle(size * size * size, &s);
        csr_stencil(&g.m, size, num);
        free(num);
        g.x = vector(g.m.rows, &s, 0.0f);
        g.mul = 1.0f / 12.0f;
    }
    run_loop(cl, &g, iterations);
    csr_free(&g.m);
    free(g.x);
    free(g.outdeg);
}
