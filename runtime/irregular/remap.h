/* remap.h - graph-partitioned remapping with no duplication (GBDLR,
 * ../shared/papers/003_..., docs/irregular.md "Remapping with METIS").
 *
 * The elements of A that one warp-access reads together should share a
 * segment.  From an index array P and a reference's range this profiles
 * the warp-accesses (each one's distinct elements: a *pattern*), builds
 * the co-access graph of the elements, partitions it k-way with METIS into
 * parts of one segment each, and lays A out part by part: a permutation
 * pi of A's elements.  The kernel then reads A' (A'[pi(x)] = A[x]) through
 * P' (P'[e] + c = pi(P[e] + c)): no element is duplicated, and the only
 * extra memory is P'.  Applying pi to the buffer is the caller's. */
#ifndef DL_REMAP_H
#define DL_REMAP_H

#include "dlayout_irregular.h"
#include "remap_metis.h"

/* The two graph forms of 003 section 4. */
typedef enum dl_remap_form {
    /* The standard graph (4.2): elements joined by an edge weighted by how
     * many profiled warp-accesses read both; METIS minimises the edge
     * cut. */
    DL_REMAP_CLIQUE,
    /* The hypergraph (4.1): a hyperedge per distinct pattern, weighted by
     * its repeats.  METIS has no hypergraph partitioner (hMETIS is not
     * free software); its star expansion is: a vertex per hyperedge of
     * vertex weight 0 joined to its elements, partitioned for minimum
     * communication volume with the hyperedge's weight as its size, which
     * is the hypergraph's sum of weight * (parts spanned - 1). */
    DL_REMAP_HYPERGRAPH,
} dl_remap_form;

typedef struct dl_remap_params {
    dl_remap_form form;
    /* Selective pattern sampling, to bound profiling and partitioning
     * time: the share of warp-accesses profiled, in (0, 1] (0 means 1),
     * drawn by a hash of the access's number and `seed`... */
    double sample;
    /* ... and 003's threshold: patterns of fewer distinct elements than
     * this are left out (short patterns cost few transactions anyway).
     * Patterns of one element are always left out: they join nothing. */
    unsigned min_pattern;
    uint64_t seed; /* the sample's and METIS's */
    /* The METIS to partition with: dl_metis_linked() or dl_metis_open's
     * (remap_metis.h); NULL: none, the plan is refused. */
    const dl_metis_api *metis;
} dl_remap_params;

typedef struct dl_remap_stats {
    size_t referenced;  /* elements of A the range reads: laid out first */
    size_t per_segment; /* elements per segment: max(1, S / elem_bytes) */
    size_t parts;       /* k = ceil(referenced / per_segment)            */
    uint64_t accesses;  /* warp-accesses of the range                    */
    uint64_t sampled;   /* ... profiled (sampled, with >= 2 elements and
                           at least min_pattern)                        */
    size_t patterns;    /* distinct patterns among them                  */
    size_t vertices;    /* of the graph METIS partitioned                */
    size_t edges;       /* ... each counted once                         */
    size_t moved;       /* elements METIS's balance left in a full part,
                           moved to another segment                      */
    double profile_s, partition_s, layout_s; /* seconds of each step     */
} dl_remap_stats;

/* NULL when remapping is available; otherwise why not (dlayout was built
 * without METIS). */
const char *dl_remap_unavailable(void);

/* The permutation: perm[x] is the new position of element x of A, for all
 * a_count elements.  The elements `range` reads through P (entries whose
 * P[e] + c lies in [0, a_count)) come first, segment by segment; the
 * others follow in their original order.  The reference and the range are
 * the analyser's.  DL_UNSUPPORTED when remapping is unavailable (the
 * message says why: no METIS built in, or none in params) or the graph
 * exceeds METIS's index type;
 * DL_INVALID_ARGUMENT for what dl_coalesce_count refuses or a bad
 * parameter.  stats may be NULL. */
dl_status dl_remap_plan(const dl_coalesce_geometry *geometry,
                        const dl_coalesce_ref *ref,
                        const dl_coalesce_range *range, const void *index,
                        size_t index_count, unsigned index_bytes,
                        size_t a_count, const dl_remap_params *params,
                        size_t *perm, dl_remap_stats *stats);

/* P' for the permuted A: out[e] = perm[P[e] + c] - c for every entry of P
 * whose P[e] + c lies in A, so that A'[P'[e] + c] = A[P[e] + c]; other
 * entries are copied (they read outside A either way).  out may be index.
 * DL_INVALID_ARGUMENT when a value does not fit index_bytes. */
dl_status dl_remap_redirect(const dl_coalesce_ref *ref, const size_t *perm,
                            size_t a_count, const void *index,
                            size_t index_count, unsigned index_bytes,
                            void *out);

/* A symmetric renumbering of a square CSR matrix (n rows, columns in
 * [0, n)) that work-item r walks row r of, reading x[col[k]], rows and x's
 * elements moving together (the graph loops): perm[v] is v's new number as
 * a row and as a column.  The vertices in decreasing row length (a warp's
 * rows end together), ties broken by their columns' ranks in decreasing
 * column frequency, compared step by step (a warp's lanes read their j-th
 * columns together); then sorted again with the columns ranked by the
 * positions the first sort gave them.  On a power-law graph this packs the
 * hubs, which are read by most warps and which no partition into segments can
 * place next to all their readers, into the fewest segments; METIS's partition
 * (dl_remap_plan) is the better plan on meshes.  No METIS is needed.
 * DL_INVALID_ARGUMENT for a malformed matrix. */
dl_status dl_remap_degree_order(const int32_t *rowptr, const int32_t *col,
                                size_t n, size_t *perm);

#endif
