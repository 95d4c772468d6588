/* remap_layout.h - a partition of remapping's elements into segments, and
 * the permutation of A that lays it out (remap.h). */
#ifndef DL_REMAP_LAYOUT_H
#define DL_REMAP_LAYOUT_H

#include "remap_patterns.h"

/* perm (a_count) from part (one per element vertex, < parts): segment s
 * holds elements [s * per_segment, (s + 1) * per_segment) of the new
 * order, one part each, parts ordered by their lowest element.  A part
 * larger than its segment (METIS's balance is not exact) keeps its lowest
 * elements; each other one moves to the segment with room whose elements
 * it is read with most often (inc), else to the first with room; *moved
 * counts them.  Within a segment, and after the elements read, elements
 * keep their original order. */
dl_status dl_remap_layout(const dl_remap_patterns *p,
                          const dl_remap_incidence *inc, const uint32_t *part,
                          size_t parts, size_t per_segment, size_t a_count,
                          size_t *perm, size_t *moved);

#endif
