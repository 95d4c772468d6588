/* bench_remap.h - `dl-bench coalesce --remap FORM`: the transactions after
 * graph-partitioned remapping with METIS (runtime/irregular/remap.h) next
 * to each line of the analyser. */
#ifndef DL_BENCH_REMAP_H
#define DL_BENCH_REMAP_H

#include "bench_index.h"
#include "remap.h"

typedef struct bench_remap_opts {
    int on; /* --remap given */
    dl_remap_params params;
    size_t a_count; /* |A|; 0: one past the largest element read */
} bench_remap_opts;

/* Parses --remap's FORM (clique|hypergraph) or --sample's fraction; 1 on
 * success, 0 with a message. */
int bench_remap_form(const char *text, bench_remap_opts *o);
int bench_remap_sample(const char *text, bench_remap_opts *o);

/* "LABEL remap (FORM): B -> R transactions (x% fewer), 0 extra bytes
 * beyond P'; sample F: S of N warp-accesses, K patterns; k parts of E
 * elements; profile/partition/layout seconds".  1 on success, 0 with a
 * message (METIS missing among them). */
int bench_remap_report(const char *label, dl_coalesce_geometry g,
                       const dl_coalesce_ref *ref,
                       const dl_coalesce_range *range, const bench_index *p,
                       const bench_remap_opts *o);

#endif
