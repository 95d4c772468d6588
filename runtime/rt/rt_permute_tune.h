/* rt_permute_tune.h - the tuner's view of a permuted pair's launches
 * under DL_POLICY=auto (docs/irregular.md, "The permutation under auto"):
 * what applying the permutation costs up front, what the coalescing
 * analyser predicts it saves, and the tuner's choice, by the rule the
 * reordering path's gathers follow (rt_reorder_tune.c, tuner_predict.c):
 * the launches run so far, half of them at the predicted saving, must
 * cover the cost before the pair is permuted. */
#ifndef DL_RT_PERMUTE_TUNE_H
#define DL_RT_PERMUTE_TUNE_H

#include "tuner.h"

#include <stddef.h>

/* What one pair's permutation costs and saves. */
typedef struct rt_remap_costs {
    size_t n, elem; /* A: n elements of elem bytes              */
    size_t count;   /* P: entries of index_bytes                */
    unsigned index_bytes;
    size_t moved;         /* elements its plan moves (0: unknown, n)  */
    double build_ns;      /* building its kernels (0: built already)  */
    double bytes_per_ns;  /* the device's copy bandwidth (0: a guess) */
    double before, after; /* transactions per warp-access (0: unknown) */
} rt_remap_costs;

/* The prediction the tuner takes (pure): up front the kernels' build and
 * the maps' upload; as conversions, the permutation applied and restored
 * once (A's moved elements read and written, P's entries read, mapped
 * and written, both ways), counted against the launches run so far. */
dl_tuner_prediction rt_remap_prediction(const rt_remap_costs *c);

#endif
