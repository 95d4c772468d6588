/* remap_partition.h - the k-way partition of remapping's graph: METIS in
 * remap_metis.c, through the entry points of remap_metis.h (linked or
 * loaded), or, in a build without METIS, remap_nometis.c, which says the
 * method is unavailable. */
#ifndef DL_REMAP_PARTITION_H
#define DL_REMAP_PARTITION_H

#include "remap_graph.h"

/* Parts 0 .. parts-2 hold per_segment elements, the last the rest (the
 * target weights); part[v] for each of g's element vertices.  parts >= 2.
 * *objective: METIS's edge cut or volume.  metis is not NULL. */
dl_status dl_remap_partition(const dl_metis_api *metis, const dl_remap_csr *g,
                             size_t parts, size_t per_segment, uint64_t seed,
                             uint32_t *part, uint64_t *objective);

#endif
