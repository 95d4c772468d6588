/* remap_inputs.c - the test inputs of remap_inputs.h. */
#include "remap_inputs.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: the same seed, the same input. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random permutation of n (Fisher-Yates). */
static size_t *shuffled(size_t n, uint64_t *rng)
{
    size_t *p = malloc(n * sizeof *p);
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++)
        p[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next(rng) % i), t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
    return p;
}

/* A graph as adjacency lists: vertex v's neighbours adj[start[v] ..). */
typedef struct graph {
    size_t n, *start, *adj;
} graph;

static void graph_free(graph *g)
{
    free(g->start);
    free(g->adj);
}

/* ELL of g: row r (work-item r) is vertex rowv[r]; columns renumbered by
 * colmap; padding with the row's own column. */
static int to_ell(const graph *g, size_t max_width, const size_t *rowv,
                  const size_t *colmap, remap_ell *out)
{
    size_t width = 0;
    for (size_t v = 0; v < g->n; v++)
        if (g->start[v + 1] - g->start[v] > width)
            width = g->start[v + 1] - g->start[v];
    if (max_width && width > max_width)
        width = max_width;
    out->rows = g->n;
    out->width = width;
    out->col = malloc(g->n * width * sizeof *out->col);
    if (!out->col)
        return 0;
    for (size_t r = 0; r < g->n; r++) {
        size_t v = rowv[r], deg = g->start[v + 1] - g->start[v];
        for (size_t j = 0; j < width; j++)
            out->col[j * g->n + r] = (int32_t)colmap[
                j < deg ? g->adj[g->start[v] + j] : v];
    }
    return 1;
}

/* Shuffles A's numbering (and the rows if asked) and writes the ELL. */
static int finish(graph *g, size_t max_width, int shuffle_rows,
                  uint64_t seed, remap_ell *out)
{
    uint64_t rng = seed;
    size_t *colmap = shuffled(g->n, &rng);
    size_t *rowv = shuffle_rows ? shuffled(g->n, &rng) : malloc(g->n *
                                                               sizeof *rowv);
    int ok = colmap && rowv;
    for (size_t r = 0; ok && !shuffle_rows && r < g->n; r++)
        rowv[r] = r;
    ok = ok && to_ell(g, max_width, rowv, colmap, out);
    free(colmap);
    free(rowv);
    graph_free(g);
    return ok;
}

int remap_ell_stencil(size_t n, int shuffle_rows, uint64_t seed,
                      remap_ell *out)
{
    graph g = {n * n * n, calloc(n * n * n + 1, sizeof(size_t)),
               malloc(7 * n * n * n * sizeof(size_t))};
    if (!g.start || !g.adj) {
        graph_free(&g);
        return 0;
    }
    size_t k = 0, plane = n * n;
    for (size_t v = 0; v < g.n; v++) {
        size_t x = v % n, y = v / n % n, z = v / plane;
        const struct { int ok; size_t col; } nb[7] = {
            {z > 0, v - plane}, {y > 0, v - n}, {x > 0, v - 1}, {1, v},
            {x + 1 < n, v + 1}, {y + 1 < n, v + n}, {z + 1 < n, v + plane},
        };
        for (int i = 0; i < 7; i++)
            if (nb[i].ok)
                g.adj[k++] = nb[i].col;
        g.start[v + 1] = k;
    }
    return finish(&g, 0, shuffle_rows, seed, out);
}

/* One R-MAT edge: each of `scale` bits picks a quadrant. */
static void rmat_edge(unsigned scale, uint64_t *rng, size_t *src,
                      size_t *dst)
{
    size_t s = 0, d = 0;
    for (unsigned bit = 0; bit < scale; bit++) {
        double u = (double)(next(rng) >> 11) / 9007199254740992.0;
        s = s << 1 | (size_t)(u >= 0.76);
        d = d << 1 | (size_t)((u >= 0.57 && u < 0.76) || u >= 0.95);
    }
    *src = s;
    *dst = d;
}

int remap_ell_rmat(unsigned scale, size_t max_width, int shuffle_rows,
                   uint64_t seed, remap_ell *out)
{
    size_t n = (size_t)1 << scale, m = 8 * n;
    graph g = {n, calloc(n + 1, sizeof(size_t)), malloc(m * sizeof(size_t))};
    size_t *src = malloc(m * sizeof *src), *dst = malloc(m * sizeof *dst);
    uint64_t rng = seed ^ 0x5eed;
    int ok = g.start && g.adj && src && dst;
    for (size_t e = 0; ok && e < m; e++) {
        rmat_edge(scale, &rng, &src[e], &dst[e]);
        g.start[src[e] + 1]++;
    }
    for (size_t v = 0; ok && v < n; v++)
        g.start[v + 1] += g.start[v];
    for (size_t e = 0; ok && e < m; e++) /* counting sort by source */
        g.adj[g.start[src[e]]++] = dst[e];
    for (size_t v = n; ok && v > 0; v--)
        g.start[v] = g.start[v - 1];
    if (ok)
        g.start[0] = 0;
    free(src);
    free(dst);
    if (!ok) {
        graph_free(&g);
        return 0;
    }
    return finish(&g, max_width, shuffle_rows, seed, out);
}

void remap_ell_free(remap_ell *m)
{
    free(m->col);
    memset(m, 0, sizeof *m);
}
