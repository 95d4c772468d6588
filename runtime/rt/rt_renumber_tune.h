/* rt_renumber_tune.h - the tuner's view of a renumbered graph loop under
 * DL_POLICY=auto (docs/irregular.md, "Renumbering a graph loop"): what
 * renumbering costs up front and per round trip of its vertex arrays,
 * what the coalescing analyser predicts it saves, by the rule the
 * permutation layout follows (rt_permute_tune.h): the launches run so far,
 * half of them at the predicted saving, must cover the cost up front
 * before it is tried, and it is kept only where a probe measured it
 * faster. */
#ifndef DL_RT_RENUMBER_TUNE_H
#define DL_RT_RENUMBER_TUNE_H

#include "tuner.h"

#include <stddef.h>

/* What one renumbering costs and saves. */
typedef struct rt_renum_costs {
    size_t n, elem;       /* vertices; bytes of a vertex element          */
    unsigned nvertex;     /* vertex arrays permuted                       */
    size_t copy_bytes;    /* the renumbered copies and the plans' tables  */
    size_t moved;         /* elements pi's plan moves (0: unknown, n)     */
    double build_ns;      /* building the permutation's kernels           */
    double before, after; /* transactions per warp-access (0: unknown)    */
} rt_renum_costs;

/* The prediction the tuner takes (pure): up front the kernels' build, the
 * copies' upload and each vertex array permuted once; as conversions, one
 * round trip of the vertex arrays (a host read restores one, the next
 * launch permutes it again). */
dl_tuner_prediction rt_renumber_prediction(const rt_renum_costs *c);

#endif
