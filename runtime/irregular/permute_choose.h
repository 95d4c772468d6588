/* permute_choose.h - the permutation layout's pi chosen among the orders
 * that can be planned for one reference (docs/irregular.md, "Where pi
 * comes from"): P's first touches (permute_order.c) and METIS's partition
 * of the co-access graph (remap.h), each counted by the analyser on
 * P' = pi o P; the one with the fewest transactions is kept (first touch
 * on a tie: the cheaper plan, and what a build without METIS gives). */
#ifndef DL_PERMUTE_CHOOSE_H
#define DL_PERMUTE_CHOOSE_H

#include "remap.h"

typedef enum dl_perm_order {
    DL_PERM_FIRST_TOUCH,
    DL_PERM_METIS,
    DL_PERM_ORDERS
} dl_perm_order;

/* METIS's order is planned for at most this many elements of A: its time
 * grows with the graph (2 s for 32768 elements on the shared 2-core test
 * machine), and the exit waits for a plan in flight... */
#define DL_PERM_METIS_MAX_ELEMENTS ((size_t)1 << 16)
/* ... from at most this many warp-accesses: beyond, a sample of them
 * (remap.h's selective pattern sampling). */
#define DL_PERM_METIS_MAX_ACCESSES 65536.0

/* One reference A[P[e]] (no offset) and how the work-items read P. */
typedef struct dl_perm_source {
    dl_coalesce_geometry geometry;
    size_t elem_bytes; /* A's elements */
    size_t n;          /* ... and their count */
    dl_coalesce_range range;
    const void *index; /* P: count signed entries of index_bytes (4, 8) */
    size_t count;
    unsigned index_bytes;
} dl_perm_source;

typedef struct dl_perm_choice {
    dl_perm_order order;           /* the one kept                        */
    double as_written;             /* transactions per warp-access        */
    double tx[DL_PERM_ORDERS];     /* each order's (negative: not planned) */
    double plan_s[DL_PERM_ORDERS]; /* seconds to plan each                */
    double sample;                 /* METIS's share of warp-accesses      */
    int metis_reused;              /* METIS's order was given, not planned */
    char why_not_metis[200];       /* "" where METIS's order was planned  */
} dl_perm_choice;

/* METIS's order planned before for the same A and P (the caller keeps
 * it): counted in place of planning it again; and where to keep the one
 * planned now. */
typedef struct dl_perm_metis_reuse {
    const uint32_t *known; /* n entries, or NULL */
    uint32_t *planned;     /* n entries, or NULL: METIS's order, ... */
    int stored;            /* ... where it was planned here (out) */
} dl_perm_metis_reuse;

/* pi (n entries) in the order of fewest transactions.  metis NULL: first
 * touch only; `stop` (NULL: never) is asked before METIS's plan, which it
 * skips when nonzero.  METIS failing is not an error: first touch is kept
 * and why_not_metis says why.  DL_INVALID_ARGUMENT (first touch's
 * checks), DL_OUT_OF_MEMORY. */
dl_status dl_perm_choose(const dl_perm_source *src, const dl_metis_api *metis,
                         int (*stop)(void), uint32_t *pi, dl_perm_choice *out);

/* The same, with METIS's order taken from reuse->known where given
 * (planned by neither METIS nor its lock: as if planned in no time), and
 * kept in reuse->planned where planned here.  reuse NULL: dl_perm_choose. */
dl_status dl_perm_choose_reusing(const dl_perm_source *src,
                                 const dl_metis_api *metis, int (*stop)(void),
                                 dl_perm_metis_reuse *reuse, uint32_t *pi,
                                 dl_perm_choice *out);

/* The order's name for the log: "first touch", "METIS". */
const char *dl_perm_order_name(dl_perm_order order);

#endif
