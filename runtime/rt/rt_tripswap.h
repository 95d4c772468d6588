/* rt_tripswap.h - job swapping by trip count (issue 20, method 3;
 * docs/irregular.md, "Trip counts").  A kernel with a jobs key
 * ("//DL: jobs: by rowptr[gid + 1] - rowptr[gid]") and the job-swapped
 * form runs its jobs sorted by decreasing key, so that each SIMD group
 * runs jobs of similar trip counts and steps as often as its longest.
 *
 * At a launch that may plan (at once, or under DL_POLICY=auto once the
 * kernel's launches could pay the planning), the key arrays' entries are
 * read after the launch without blocking; a thread of its own computes
 * the keys, R (stable: ties keep their order), the predicted warp steps
 * before and after (the analyser's row-loop model: a group steps as often
 * as its longest trip count) and decides: DL_IRREGULAR=jobswap sorts
 * always; under auto, only where the steps drop by a tenth at least,
 * and then, under DL_POLICY=auto, the tuner decides each launch with the
 * planning, the build and the upload as its cost up front.  R is
 * uploaded and the form built; launches with the planned range run it
 * from the first after that.  When the key arrays are written, the next
 * launch plans again (meanwhile the previous R, a permutation all the
 * same, keeps serving).  Each job runs its own arithmetic in its own
 * work-item: the results are those of the program. */
#ifndef DL_RT_TRIPSWAP_H
#define DL_RT_TRIPSWAP_H

#include "rt_jobswap.h"

struct rt_irregular;

/* Whether k's launches go by its jobs key: it has one and the job-swapped
 * form, and DL_IRREGULAR is auto or jobswap. */
int rt_tripswap_applies(const rt_kernel *k);

/* A launch of such a kernel (unlocked); ASIS once the trip count is
 * declined (the caller's path then runs it as before). */
rt_irregular_launched rt_tripswap_launch(const launch_call *c, rt_kernel *k,
                                         struct rt_irregular *st, cl_uint nwait,
                                         const cl_event *wait, cl_event *event,
                                         cl_int *err);

/* Frees k's trip-count state (its variant and R). */
void rt_trips_free(struct rt_trips *t);

#endif
