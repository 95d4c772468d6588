/* remap_graph.h - the co-access graph of remapping in the CSR form METIS
 * takes (remap.h's two forms), built from the profile's patterns. */
#ifndef DL_REMAP_GRAPH_H
#define DL_REMAP_GRAPH_H

#include "remap_patterns.h"

typedef struct dl_remap_csr {
    size_t vertices; /* the elements first, then (hypergraph) a vertex
                        per pattern                                     */
    size_t elements;
    size_t *xadj;     /* vertices + 1                                    */
    uint32_t *adjncy; /* both directions of every edge                   */
    uint32_t *adjwgt;
    uint32_t *vwgt;  /* NULL: every vertex weighs 1                     */
    uint32_t *vsize; /* NULL: unused; else minimise the volume          */
} dl_remap_csr;

/* The graph of `form` over the patterns (inc: their incidence). */
dl_status dl_remap_graph_build(const dl_remap_patterns *p,
                               const dl_remap_incidence *inc,
                               dl_remap_form form, dl_remap_csr *out);
void dl_remap_csr_free(dl_remap_csr *g);

#endif
