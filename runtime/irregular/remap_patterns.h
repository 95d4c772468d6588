/* remap_patterns.h - the profile of remapping: the elements a reference
 * reads (the graph's element vertices, numbered in increasing element
 * order) and the distinct patterns of its sampled warp-accesses, each
 * with how often it occurred (remap.h). */
#ifndef DL_REMAP_PATTERNS_H
#define DL_REMAP_PATTERNS_H

#include "remap.h"

#define DL_REMAP_NONE UINT32_MAX /* an element the range does not read */

typedef struct dl_remap_patterns {
    size_t elements;     /* vertices: the distinct elements read          */
    uint32_t *vertex_of; /* a_count: element -> vertex, or DL_REMAP_NONE  */
    size_t count;        /* distinct patterns                             */
    size_t *start;       /* count + 1: pattern p's pins are
                            pins[start[p] .. start[p + 1])                */
    uint32_t *pins;      /* vertices, increasing within a pattern         */
    uint32_t *weight;    /* repeats of each pattern                       */
    uint64_t accesses, sampled;
} dl_remap_patterns;

/* The patterns containing each vertex (the transpose of the pins). */
typedef struct dl_remap_incidence {
    size_t *start;     /* elements + 1 */
    uint32_t *pattern; /* patterns of vertex v: pattern[start[v] ..) */
} dl_remap_incidence;

/* Profiles `range` over P; the arguments have been checked by
 * dl_coalesce_count.  DL_UNSUPPORTED when the elements or pins exceed 32
 * bits. */
dl_status dl_remap_profile(const dl_coalesce_geometry *geometry,
                           const dl_coalesce_ref *ref,
                           const dl_coalesce_range *range, const void *index,
                           size_t index_count, unsigned index_bytes,
                           size_t a_count, const dl_remap_params *params,
                           dl_remap_patterns *out);
void dl_remap_patterns_free(dl_remap_patterns *p);

dl_status dl_remap_incidence_of(const dl_remap_patterns *p,
                                dl_remap_incidence *out);
void dl_remap_incidence_free(dl_remap_incidence *inc);

#endif
