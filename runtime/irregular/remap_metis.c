/* remap_metis.c - remapping's k-way partition with METIS_PartGraphKway
 * (built when meson finds METIS), called through the table of
 * remap_metis.h, linked or loaded alike.  The graph is copied into
 * METIS's idx_t arrays, whatever width metis.h gives them. */
#include "error.h"
#include "remap_metis_api.h"
#include "remap_partition.h"
#include <stdlib.h>
#include <string.h>

const char *dl_remap_unavailable(void)
{
    return NULL;
}

/* The METIS copy of a dl_remap_csr. */
typedef struct metis_graph {
    idx_t nvtxs;
    idx_t *xadj, *adjncy, *adjwgt, *vwgt, *vsize;
} metis_graph;

static void metis_graph_free(metis_graph *m)
{
    free(m->xadj);
    free(m->adjncy);
    free(m->adjwgt);
    free(m->vwgt);
    free(m->vsize);
}

/* n values into a new idx_t array (they are below 2^31: the graph's
 * builder keeps them there); NULL source: NULL. */
static int copy_u32(const uint32_t *from, size_t n, idx_t **to)
{
    *to = NULL;
    if (!from)
        return 0;
    *to = malloc((n ? n : 1) * sizeof **to);
    if (!*to)
        return -1;
    for (size_t i = 0; i < n; i++)
        (*to)[i] = (idx_t)from[i];
    return 0;
}

static dl_status to_metis(const dl_remap_csr *g, metis_graph *m)
{
    size_t edges = g->xadj[g->vertices];
    memset(m, 0, sizeof *m);
    DL_RETURN_ERROR_ON(g->vertices > (size_t)IDX_MAX || edges > (size_t)IDX_MAX,
                       DL_UNSUPPORTED,
                       "remap: a graph of %zu vertices and "
                       "%zu edge ends exceeds METIS's idx_t",
                       g->vertices, edges);
    m->nvtxs = (idx_t)g->vertices;
    m->xadj = malloc((g->vertices + 1) * sizeof *m->xadj);
    int bad = !m->xadj || copy_u32(g->adjncy, edges, &m->adjncy) ||
              copy_u32(g->adjwgt, edges, &m->adjwgt) ||
              copy_u32(g->vwgt, g->vertices, &m->vwgt) ||
              copy_u32(g->vsize, g->vertices, &m->vsize);
    if (bad) {
        metis_graph_free(m);
        return dl_fail(DL_OUT_OF_MEMORY, "remap: no memory for METIS's "
                                         "copy of the graph");
    }
    for (size_t v = 0; v <= g->vertices; v++)
        m->xadj[v] = (idx_t)g->xadj[v];
    return DL_SUCCESS;
}

/* Each part's share of the elements: a segment's worth, the last part
 * what remains. */
static real_t *target_weights(size_t parts, size_t per_segment, size_t elements)
{
    real_t *t = malloc(parts * sizeof *t);
    if (!t)
        return NULL;
    size_t last = elements - (parts - 1) * per_segment;
    for (size_t i = 0; i < parts; i++)
        t[i] = (real_t)((double)(i + 1 < parts ? per_segment : last) /
                        (double)elements);
    return t;
}

static dl_status metis_status(int rc)
{
    switch (rc) {
    case METIS_OK:
        return DL_SUCCESS;
    case METIS_ERROR_MEMORY:
        return dl_fail(DL_OUT_OF_MEMORY, "remap: METIS ran out of memory");
    case METIS_ERROR_INPUT:
        return dl_fail(DL_INVALID_ARGUMENT, "remap: METIS refused the "
                                            "graph (METIS_ERROR_INPUT)");
    default:
        return dl_fail(DL_UNSUPPORTED, "remap: METIS failed (%d)", rc);
    }
}

/* The options: the least imbalance METIS accepts (ufactor 1, 0.1%), so
 * that parts fit a segment as nearly as it can; the volume objective for
 * the hypergraph's star (vsize given). */
static void set_options(const dl_metis_api *metis, idx_t *opt,
                        const dl_remap_csr *g, uint64_t seed)
{
    metis->set_default_options(opt);
    opt[METIS_OPTION_UFACTOR] = 1;
    opt[METIS_OPTION_SEED] = (idx_t)(seed & 0x7fffffff);
    opt[METIS_OPTION_OBJTYPE] =
        g->vsize ? METIS_OBJTYPE_VOL : METIS_OBJTYPE_CUT;
}

static dl_status run_metis(const dl_metis_api *metis, metis_graph *m,
                           const dl_remap_csr *g, size_t parts, real_t *tpwgts,
                           uint64_t seed, uint32_t *part, uint64_t *objective)
{
    idx_t opt[METIS_NOPTIONS], ncon = 1, nparts = (idx_t)parts, objval = 0;
    idx_t *where = malloc(g->vertices * sizeof *where);
    DL_RETURN_ERROR_ON(!where, DL_OUT_OF_MEMORY,
                       "remap: no memory for METIS's partition");
    set_options(metis, opt, g, seed);
    int rc = metis->part_graph_kway(&m->nvtxs, &ncon, m->xadj, m->adjncy,
                                    m->vwgt, m->vsize, m->adjwgt, &nparts,
                                    tpwgts, NULL, opt, &objval, where);
    for (size_t v = 0; rc == METIS_OK && v < g->elements; v++)
        part[v] = (uint32_t)where[v];
    *objective = (uint64_t)objval;
    free(where);
    return metis_status(rc);
}

dl_status dl_remap_partition(const dl_metis_api *metis, const dl_remap_csr *g,
                             size_t parts, size_t per_segment, uint64_t seed,
                             uint32_t *part, uint64_t *objective)
{
    DL_RETURN_ERROR_ON(parts < 2 || parts > (size_t)IDX_MAX,
                       DL_INVALID_ARGUMENT, "remap: %zu parts", parts);
    metis_graph m;
    DL_RETURN_IF_FAIL(to_metis(g, &m));
    real_t *tpwgts = target_weights(parts, per_segment, g->elements);
    dl_status st =
        tpwgts ? run_metis(metis, &m, g, parts, tpwgts, seed, part, objective)
               : dl_fail(DL_OUT_OF_MEMORY,
                         "remap: no memory "
                         "for %zu target weights",
                         parts);
    free(tpwgts);
    metis_graph_free(&m);
    return st;
}
