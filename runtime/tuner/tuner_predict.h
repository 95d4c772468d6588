/* tuner_predict.h - what a launch's prediction (tuner.h) says before any
 * probe has measured the transformed kernel: how much of a plain launch
 * it can save at most (the coalescing analyser's predicted transactions),
 * whether that is too little to try, and over how many launches the cost
 * up front must pay back.  Pure functions of the prediction and counts;
 * tuner_policy.c applies them per pattern. */
#ifndef DL_TUNER_PREDICT_H
#define DL_TUNER_PREDICT_H

#include "tuner.h"

#include <stddef.h>
#include <stdint.h>

/* The most of a plain launch the variant can save: 1 - after / before of
 * the predicted transactions, within [0, 1]; 1 when none were counted
 * (then only a probe can tell). */
double dl_tuner_saving_share(const dl_tuner_prediction *p);

/* Whether the predicted transactions save less than `min_saving` of
 * them: then no probe is made.  The reason, in words, into why. */
int dl_tuner_saving_too_low(const dl_tuner_prediction *p, double min_saving,
                            char *why, size_t size);

/* Whether the gathers redone at every launch whose copy is stale (the
 * prediction's regather_share of a gather each launch) cost at least
 * what a launch of `plain_ns` can save (the predicted share of it): then
 * trying cannot pay however long the loop, and no probe is made.  The
 * reason, in words, into why.  Where the plain time is unknown (0), only
 * where that holds for any plain time: a copy stale at every launch
 * whose gather redoes the reads the variant saves (conversion_rereads). */
int dl_tuner_regathers_outweigh(const dl_tuner_prediction *p, double plain_ns,
                                char *why, size_t size);

/* What trying the variant costs up front, with plain launches of
 * `plain_ns` (0: unknown): its first_ns and its conversions. */
double dl_tuner_upfront_ns(const dl_tuner_prediction *p, double plain_ns);

/* How many launches a probe made at launch number `launches` (this one
 * included) can save on: half the launches run before it when
 * p->past_horizon, else the horizon or a quarter of the launches run,
 * whichever is more. */
double dl_tuner_payback_launches(const dl_tuner_prediction *p, double horizon,
                                 uint64_t launches);

/* The launch number from which the cost up front, `upfront_ns`, is paid
 * by what launches of `plain_ns` can save (the bound above), at the
 * pattern's rule; 0 when nothing is owed or the plain time is unknown,
 * 1e30 when nothing is saved. */
double dl_tuner_launch_that_pays(const dl_tuner_prediction *p,
                                 double upfront_ns, double plain_ns);

#endif
