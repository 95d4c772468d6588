/* remap_graph.c - the two graph forms of remapping (remap.h):
 *   clique: u - v weighted by the summed weights of the patterns holding
 *           both, accumulated vertex by vertex through the incidence (a
 *           sparse accumulator, so no list of pairs is ever sorted);
 *   hypergraph: the star expansion, element - pattern vertex. */
#include "remap_graph.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

/* A growing adjacency: edges appended to vertex `row`, row by row. */
typedef struct adjacency {
    dl_remap_csr *g;
    size_t cap;
    size_t row;
} adjacency;

static void start_row(adjacency *a, size_t row)
{
    a->g->xadj[row + 1] = a->g->xadj[row];
    a->row = row;
}

static dl_status append_edge(adjacency *a, uint32_t v, uint32_t w)
{
    dl_remap_csr *g = a->g;
    size_t n = g->xadj[a->row + 1];
    if (n == a->cap) {
        size_t want = a->cap ? 2 * a->cap : 1024;
        uint32_t *adj = realloc(g->adjncy, want * sizeof *adj);
        if (adj)
            g->adjncy = adj;
        uint32_t *wgt = realloc(g->adjwgt, want * sizeof *wgt);
        if (wgt)
            g->adjwgt = wgt;
        if (!adj || !wgt)
            return dl_fail(DL_OUT_OF_MEMORY,
                           "remap: no memory for a graph "
                           "of %zu edges",
                           n);
        a->cap = want;
    }
    DL_RETURN_ERROR_ON(n >= INT32_MAX, DL_UNSUPPORTED,
                       "remap: more than %d edges for METIS", INT32_MAX);
    g->adjncy[n] = v;
    g->adjwgt[n] = w;
    g->xadj[a->row + 1]++;
    return DL_SUCCESS;
}

/* The clique form's neighbours of u: acc[v] sums the weights, `touched`
 * lists the v seen. */
static dl_status clique_row(adjacency *a, const dl_remap_patterns *p,
                            const dl_remap_incidence *inc, uint32_t u,
                            uint64_t *acc, uint32_t *touched)
{
    size_t nt = 0;
    for (size_t i = inc->start[u]; i < inc->start[u + 1]; i++) {
        uint32_t q = inc->pattern[i];
        for (size_t k = p->start[q]; k < p->start[q + 1]; k++) {
            uint32_t v = p->pins[k];
            if (v == u)
                continue;
            if (acc[v] == 0)
                touched[nt++] = v;
            acc[v] += p->weight[q];
        }
    }
    dl_status st = DL_SUCCESS;
    for (size_t i = 0; i < nt; i++) {
        uint32_t v = touched[i];
        if (st == DL_SUCCESS)
            st = append_edge(a, v,
                             acc[v] > INT32_MAX ? INT32_MAX : (uint32_t)acc[v]);
        acc[v] = 0;
    }
    return st;
}

static dl_status build_clique(const dl_remap_patterns *p,
                              const dl_remap_incidence *inc, adjacency *a)
{
    uint64_t *acc = calloc(p->elements + 1, sizeof *acc);
    uint32_t *touched = malloc((p->elements + 1) * sizeof *touched);
    dl_status st = acc && touched ? DL_SUCCESS
                                  : dl_fail(DL_OUT_OF_MEMORY,
                                            "remap: no "
                                            "memory for the clique graph");
    for (uint32_t u = 0; st == DL_SUCCESS && u < p->elements; u++) {
        start_row(a, u);
        st = clique_row(a, p, inc, u, acc, touched);
    }
    free(acc);
    free(touched);
    return st;
}

/* One vertex's star edges: to the patterns of an element, to the pins of
 * a pattern; each weighted by the pattern's weight. */
static dl_status star_row(adjacency *a, const dl_remap_patterns *p,
                          const dl_remap_incidence *inc, size_t v)
{
    if (v < p->elements) {
        for (size_t i = inc->start[v]; i < inc->start[v + 1]; i++) {
            uint32_t q = inc->pattern[i];
            DL_RETURN_IF_FAIL(
                append_edge(a, (uint32_t)(p->elements + q), p->weight[q]));
        }
        return DL_SUCCESS;
    }
    size_t q = v - p->elements;
    for (size_t k = p->start[q]; k < p->start[q + 1]; k++)
        DL_RETURN_IF_FAIL(append_edge(a, p->pins[k], p->weight[q]));
    return DL_SUCCESS;
}

/* Element vertices weigh 1 and have size 0; pattern vertices weigh 0 (the
 * balance counts elements only) and have the pattern's weight as size,
 * so that METIS's volume is sum of weight * (parts spanned - 1). */
static dl_status build_star(const dl_remap_patterns *p,
                            const dl_remap_incidence *inc, adjacency *a)
{
    dl_remap_csr *g = a->g;
    size_t n = p->elements + p->count;
    g->vwgt = malloc(n * sizeof *g->vwgt);
    g->vsize = malloc(n * sizeof *g->vsize);
    DL_RETURN_ERROR_ON(!g->vwgt || !g->vsize, DL_OUT_OF_MEMORY,
                       "remap: no memory for the hypergraph's %zu vertices", n);
    for (size_t v = 0; v < n; v++) {
        int element = v < p->elements;
        g->vwgt[v] = element ? 1 : 0;
        g->vsize[v] = element ? 0 : p->weight[v - p->elements];
        start_row(a, v);
        DL_RETURN_IF_FAIL(star_row(a, p, inc, v));
    }
    return DL_SUCCESS;
}

dl_status dl_remap_graph_build(const dl_remap_patterns *p,
                               const dl_remap_incidence *inc,
                               dl_remap_form form, dl_remap_csr *out)
{
    memset(out, 0, sizeof *out);
    size_t n = p->elements + (form == DL_REMAP_HYPERGRAPH ? p->count : 0);
    out->elements = p->elements;
    out->vertices = n;
    out->xadj = calloc(n + 1, sizeof *out->xadj);
    DL_RETURN_ERROR_ON(!out->xadj, DL_OUT_OF_MEMORY,
                       "remap: no memory for a graph of %zu vertices", n);
    adjacency a = {out, 0, 0};
    dl_status st = form == DL_REMAP_HYPERGRAPH ? build_star(p, inc, &a)
                                               : build_clique(p, inc, &a);
    if (st != DL_SUCCESS)
        dl_remap_csr_free(out);
    return st;
}

void dl_remap_csr_free(dl_remap_csr *g)
{
    free(g->xadj);
    free(g->adjncy);
    free(g->adjwgt);
    free(g->vwgt);
    free(g->vsize);
    memset(g, 0, sizeof *g);
}
