/* tuner.h - adaptive control: per launch, run the kernel as written
 * (plain) or transformed, and keep the transformation only while it pays
 * (issue 6; G-Streamline's adaptive control, paper 002 section 5.4).
 *
 * The decision logic is pure C with no OpenCL: the runtime asks before
 * each launch (dl_tuner_choose), and reports what it measured afterwards
 * (dl_tuner_report_kernel, dl_tuner_report_conversion).  Tests inject the
 * measurements and the clock.  docs/tuning.md describes the behaviour.
 *
 * One entry per (kernel, launch signature, preceding kernel): a new size
 * or a new kernel sequence is a new pattern and is judged afresh.  Each
 * entry goes
 *
 *   NEW -> PLAIN_PROBE -> TRANSFORM_PROBE -> TRANSFORM | PLAIN
 *      \-> PLAIN (the prediction is below skip_below, or its predicted
 *                transactions save less than min_saving: no probe)
 *   TRANSFORM -> PLAIN when the measured saving stops covering the
 *                conversions (shut-down; logged at info)
 *
 * The first two launches of a pattern run plain (its data is in the
 * original layout, so measuring them is free; two, because the first run
 * of a kernel may include the device compiler).  The transformed variant
 * is tried from the `probe_after`-th launch (the third by default), or
 * right after the plain samples when the static prediction expects the
 * conversion to pay back quickly (the same launch unless `probe_after` is
 * set later), so a program that launches a kernel once or twice converts
 * nothing.  Every kernel gets at most `max_probes` probes over all its
 * patterns; after that a new pattern inherits the kernel's last decision.
 *
 * Thread-safe (own mutex, never held across a call out): reports may come
 * from OpenCL event callbacks. */
#ifndef DL_TUNER_H
#define DL_TUNER_H

#include "controls.h"

#include <stdint.h>

/* What the static choice (or nothing) predicts for one launch. */
typedef struct dl_tuner_prediction {
    double speedup;       /* plain time / transformed time; 0: unknown   */
    double conversion_ns; /* marshal + restore of the arguments; 0: unknown */
    double plain_ns;      /* the plain kernel's time; 0: unknown          */
    /* What the first transformed launch costs besides its conversions
     * (building the activated variant, not yet built, and the marshal
     * programs its conversions need, not yet planned); 0: nothing. */
    double first_ns;
    /* Memory transactions per warp-access of the references the variant
     * reorganises, before and after, as the coalescing analyser counts
     * them on (a sample of) the index buffers' contents; 0: not counted
     * (yet).  Their
     * saving, 1 - after / before, bounds the share of a plain launch the
     * variant can save before a probe has measured it; below min_saving
     * the pattern runs plain without a probe (tuner_predict.c). */
    double transactions_before, transactions_after;
    /* 1: the cost up front must pay back over as many launches as the
     * pattern has run before this one (the past as the guess of the
     * future, whatever the horizon), not over the horizon: where trying
     * costs several plain launches (a gather and its builds), so that a
     * program of three launches does not pay it (docs/tuning.md). */
    int past_horizon;
    /* 1: the conversions redo the reads the variant saves (a gather reads
     * A through P as the plain kernel does): they cost at least that
     * share of a measured plain launch (dl_tuner_saving_share), whatever
     * conversion_ns says (a gather of 64 MiB at random took 150 ms here,
     * where copy bandwidth says 19). */
    int conversion_rereads;
    /* The share of the conversions' bytes, over the pattern's launches
     * so far, whose copy would have been stale at the launch (its array
     * or index written since the kernel's previous launch, as a loop
     * that reads the vector its previous launch wrote): gathered again
     * at that share of the launches; `regathered` names the array most
     * often rewritten.  0: never seen stale (tuner_predict.c). */
    double regather_share;
    const char *regathered;
    /* Where set, the tuner calls it (under its own lock) for a fresh copy
     * of the prediction while and after it waits for plain times before
     * a probe: the transactions may have been counted meanwhile (the
     * counter then calls dl_tuner_wake), and a count that declines ends
     * the wait.  It must take no lock the tuner's callers hold and call
     * no OpenCL. */
    void (*refresh)(struct dl_tuner_prediction *p);
    /* Set by the runtime where it knows the transformed form loses on
     * this device (the flat ASTA index on a CPU, rt_decide.c): a new
     * pattern runs plain for good without a probe, and the decision's
     * line gives this reason.  NULL: the tuner decides. */
    const char *plain_reason;
    const void *refresh_kernel; /* for refresh: the runtime's kernel */
    uint64_t refresh_signature; /* and the launch shape              */
} dl_tuner_prediction;

typedef uint64_t (*dl_tuner_clock_fn)(void *user); /* nanoseconds */

typedef struct dl_tuner_config {
    dl_policy policy;       /* always / never short-circuit everything  */
    unsigned plain_samples; /* measured plain launches before a probe   */
    unsigned probe_samples; /* measured transformed launches per probe  */
    unsigned probe_after;   /* launch number of the first transformed
                               probe when the prediction is not keen    */
    unsigned max_probes;    /* probes per kernel, over all its patterns */
    double horizon;         /* launches over which a conversion must pay */
    double margin;          /* required relative gain (0.02 = 2 %)      */
    double keen_speedup;    /* predicted speedup that probes early       */
    unsigned monitor_every; /* in a decided state, measure every n-th   */
    /* A predicted speedup below this decides plain without a probe.  0
     * by default: the calibration's streaming kernels do not see what
     * gathers gain (an LBM pull step gains 2.4x from DA on POCL while the
     * streaming access of 19 floats loses), so a predicted loss only
     * delays the probe to probe_after. */
    double skip_below;
    /* A predicted transaction saving (dl_tuner_prediction) below this
     * share decides plain without a probe: 0.10. */
    double min_saving;
    dl_tuner_clock_fn clock; /* NULL: CLOCK_MONOTONIC                     */
    void *clock_user;
} dl_tuner_config;

void dl_tuner_config_defaults(dl_tuner_config *config);

typedef struct dl_tuner dl_tuner;

/* NULL when out of memory (the runtime then behaves as DL_POLICY=always). */
dl_tuner *dl_tuner_create(const dl_tuner_config *config);
void dl_tuner_destroy(dl_tuner *tuner);

/* Launch signature: fold every value that shapes the launch (work sizes,
 * record counts) with this, starting from 0. */
uint64_t dl_tuner_signature(uint64_t hash, uint64_t value);

typedef struct dl_tuner_launch {
    const void *kernel; /* identity of the kernel (never dereferenced) */
    const char *name;   /* for the log */
    uint64_t signature; /* dl_tuner_signature of the launch shape */
    const dl_tuner_prediction *prediction; /* NULL: none */
    /* Launches of the kernel since its last choice that the runtime ran
     * without asking, as dl_tuner_choice.unseen allowed: counted too. */
    unsigned served;
} dl_tuner_launch;

typedef struct dl_tuner_choice {
    int transform;   /* launch the transformed variant */
    int measure;     /* time this launch and report it */
    uint64_t ticket; /* names the pattern in reports; 0: report nothing */
    /* How many launches in a row with the same inputs may run this
     * choice without asking (the runtime's launch memo), reported back
     * as dl_tuner_launch.served: 0 while the pattern is probed, so that
     * no probe launch is skipped; once decided, monitor_every - 1 while
     * transformed, more while plain (tuner_policy.c, unseen_budget). */
    unsigned unseen;
} dl_tuner_choice;

dl_tuner_choice dl_tuner_choose(dl_tuner *tuner, const dl_tuner_launch *l);

/* The kernel time of a launch made with choice.measure set; `transformed`
 * is the variant that really ran (the runtime may fall back to plain). */
void dl_tuner_report_kernel(dl_tuner *tuner, uint64_t ticket, int transformed,
                            uint64_t ns);
/* The time of the conversions a measured launch made before its kernel
 * (tuner_timing.h measures it).  The first one reported for a pattern is
 * taken as the one-off marshal, later ones as recurring (the data went
 * back to the original layout in between, e.g. for a host read). */
void dl_tuner_report_conversion(dl_tuner *tuner, uint64_t ticket, uint64_t ns);
/* Every transformed launch, measured or not, that converted some buffer
 * first: tells how often launches pay a conversion (cheap, untimed). */
void dl_tuner_note_conversion(dl_tuner *tuner, uint64_t ticket);
/* A prediction's refresh may say more now (the analyser counted a
 * sample): a launch waiting for plain times reads it again, and stops
 * waiting if it declines the pattern. */
void dl_tuner_wake(dl_tuner *tuner);
/* The kernel is gone (its handle may be reused): drop its entries.  Late
 * reports with their tickets are ignored. */
void dl_tuner_forget(dl_tuner *tuner, const void *kernel);

/* Decisions made so far (the stats line: decided_transform=N
 * decided_plain=M).  A switch back counts as one more plain decision. */
void dl_tuner_counts(const dl_tuner *tuner, uint64_t *decided_transform,
                     uint64_t *decided_plain);
/* The stats line's device_ms and tuner_wait_ms: the sum of every
 * conversion time reported so far, whatever its pattern (the device's
 * time where the probe's queue profiles, else the completion callbacks',
 * tuner_timing.h), and the time dl_tuner_choose waited for launch times
 * to come back. */
void dl_tuner_own_times(const dl_tuner *tuner, uint64_t *conversion_ns,
                        uint64_t *wait_ns);

/* What the tuner holds of the variant's kernel time for the pattern
 * named by `ticket` (the fastest sample while probing, then a moving
 * average): the number of times reported, and the time in *ns (0 if
 * none).  0 for an unknown ticket.  For tests. */
unsigned dl_tuner_measured(dl_tuner *tuner, uint64_t ticket, int transformed,
                           double *ns);

/* The time the kernel's launches so far took at its measured plain
 * speed, over all its patterns with a plain time: what the program has
 * spent in it, that a cost up front (e.g. the selector's planning) must
 * be small against.  0 when no plain time was reported. */
double dl_tuner_plain_spent(dl_tuner *tuner, const void *kernel);

/* The injected clock, or CLOCK_MONOTONIC: for host timing of launches. */
uint64_t dl_tuner_now(const dl_tuner *tuner);

/* ------------------------------------------------------- static choice */

typedef struct dl_calibration dl_calibration; /* tuner_calib.h */

/* What the annotation says about one converted argument. */
typedef struct dl_tuner_kernel_info {
    uint32_t record_size; /* S in bytes */
    uint32_t nfields;
    const uint32_t *field_sizes; /* nfields sizes; NULL: uniform */
    size_t count;                /* records */
    double expected_launches;    /* over which the conversion must pay */
    size_t tile_override;        /* DL_TILE, 0 = auto */
    /* The layout a transformed launch converts to (its activated
     * variant's; DL_TILE_DA or T), whatever the calibration predicts:
     * what a probe's conversions cost.  0: the predicted tile's. */
    size_t target_tile;
    /* Bytes of its smallest field (conversions of small fields are far
     * slower); 0: from field_sizes, or record_size / nfields. */
    uint32_t min_field_size;
    /* The buffer's own size (clCreateBuffer's), 0 unknown (no offset DA
     * is considered): beyond count * record_size it is slack an offset
     * DA may use. */
    size_t buffer_bytes;
} dl_tuner_kernel_info;

typedef struct dl_tuner_static {
    size_t tile;          /* 1: leave alone (AoS), DL_TILE_DA: DA, else T */
    double speedup;       /* predicted plain / transformed kernel time   */
    double conversion_ns; /* predicted marshal + restore                 */
    double plain_ns;      /* predicted plain kernel time                 */
    int amortises;        /* saving * expected_launches > conversion     */
    int da_aliased;       /* DA's field arrays of this argument alias at
                             4 KiB: DA was judged by the aliased figure */
    size_t da_stride;     /* they would alias, and the buffer's slack
                             holds an offset DA with field arrays this
                             many records apart: DA was judged as not
                             aliased (0: none) */
} dl_tuner_static;

/* Predicts the best member of the ASTA(T) family for the argument from
 * the calibration (pure).  DL_INVALID_ARGUMENT for an empty record. */
dl_status dl_tuner_static_choice(const dl_calibration *calib,
                                 const dl_tuner_kernel_info *info,
                                 dl_tuner_static *out);
/* The prediction dl_tuner_choose() takes, from a static choice. */
dl_tuner_prediction dl_tuner_static_prediction(const dl_tuner_static *s);

/* The prediction for a launch converting `nargs` arguments: the plain
 * and transformed times add up, and so do the conversions.  Arguments
 * whose static choice is to leave them alone count as unchanged.  All
 * zero (unknown) without a calibration or arguments. */
dl_tuner_prediction dl_tuner_predict_launch(const dl_calibration *calib,
                                            const dl_tuner_kernel_info *args,
                                            size_t nargs);

/* ------------------------------------------------ 4 KiB aliasing of DA */

/* This many DA field arrays starting within a cache line of one another,
 * modulo 4 KiB, make DA's streams alias (tuner_alias.c): with the two
 * buffers of a ping-pong kernel, twice as many streams as an L1 set of 8
 * ways holds. */
#define DL_TUNER_ALIAS_GROUP 4u

/* The largest number of the argument's DA field arrays (count * field
 * offset) that start within 64 bytes of one another modulo 4 KiB; 0
 * without fields.  Uniform fields when field_sizes is NULL. */
unsigned dl_tuner_da_alias_group(const dl_tuner_kernel_info *info);
/* dl_tuner_da_alias_group(info) >= DL_TUNER_ALIAS_GROUP. */
int dl_tuner_da_aliases(const dl_tuner_kernel_info *info);

/* Pad of an offset DA's field arrays on the smallest field, in bytes: the
 * best of 64, 128 and 256 measured on POCL here (docs/layouts.md). */
#define DL_TUNER_DA_PAD_BYTES 64u

/* Where the argument's DA field arrays alias and info->buffer_bytes leaves
 * slack for it, the field stride M' > count (records) of an offset DA
 * whose field arrays do not alias (tuner_offset.c); else 0.  *why, if
 * given, says in words why (valid until the thread's next call). */
size_t dl_tuner_da_offset_stride(const dl_tuner_kernel_info *info,
                                 const char **why);

#endif
