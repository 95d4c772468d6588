/* rt_reorder_tune.h - the tuner's view of a reordered kernel's launch
 * under DL_POLICY=auto (docs/tuning.md, "Reordering under auto"): what
 * trying the variant costs up front, what the coalescing analyser
 * predicts it saves, and the choice. */
#ifndef DL_RT_REORDER_TUNE_H
#define DL_RT_REORDER_TUNE_H

#include "rt_launch.h"
#include "tuner.h"

/* What one launch's gathers would move, over all its gather parameters:
 * the index entries read, and the copies written (as many bytes of A
 * read through them); `gathers`: how many of them no copy serves yet
 * (an estimate: the cache is not asked). */
typedef struct rt_reorder_sizes {
    size_t index_bytes, copy_bytes;
    unsigned gathers;
    /* Of the copies' bytes over the launches seen so far, the share
     * stale at a launch (gathered again there), and the array last seen
     * rewritten (rt_reorder.c). */
    double stale_share;
    const char *stale_array;
} rt_reorder_sizes;

/* The launch shape the tuner keys reordering by: the work sizes. */
uint64_t rt_reorder_signature(const launch_call *c);

/* The tuner's choice for launch c of k (unlocked; may wait for the
 * tuner's plain times, never on the device's work); `gather_built`: a
 * gather program was built in this process. */
dl_tuner_choice rt_reorder_tune(const launch_call *c, rt_kernel *k,
                                uint64_t sig, const rt_reorder_sizes *sizes,
                                int gather_built);

#endif
