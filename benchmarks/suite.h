/* suite.h - `dl-bench suite`: the parts of the benchmark suite and what
 * they share (output folder, device, report, progress, targets). */
#ifndef DL_BENCH_SUITE_H
#define DL_BENCH_SUITE_H

#include "bench_cl.h"
#include "dlayout.h"

#include <stdio.h>

/* Targets the report states as met / not met (issue 2 and 5). */
#define SUITE_MAX_TARGETS 16

typedef struct suite_target {
    char name[96];     /* "AoS->ASTA and back; S 2..20; T 4..64"       */
    char goal[48];     /* ">= 0.9 of copy"                             */
    char reached[160]; /* what this run measured                       */
    int status;        /* 1 met, 0 not met, -1 not measured             */
} suite_target;

typedef struct suite {
    bench_cl cl;
    dl_engine *engine;
    const char *out_dir;
    int quick;
    size_t reps;         /* timed repetitions of every figure         */
    FILE *report;        /* DIR/report.md, written part by part        */
    double copy_gbps;    /* copy bandwidth measured at the start        */
    double copy_min, copy_max;
    int gnuplot;         /* 0 none, 1 pngcairo, 2 png                   */
    size_t unverified;   /* results that failed verification           */
    size_t failures;     /* parts that could not run                   */
    const char *apps_dir, *dl_run, *dl_annotate; /* NULL: not found    */
    suite_target targets[SUITE_MAX_TARGETS];
    size_t ntargets;
    /* progress line */
    int part;
    const char *part_name;
} suite;

/* ---------------------------------------------------------- suite_util.c */

/* Opens DIR/name for writing; NULL (and a message) on failure. */
FILE *suite_open(suite *s, const char *name);
/* Closes a file written by suite_open; 0 (and a message) on a write error. */
int suite_close(FILE *f, const char *name);
/* "[part 2/6 in-place vs out-of-place] e40r0000 bs T=16" on stderr. */
void suite_progress(suite *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void suite_progress_done(suite *s);
/* Adds a target line to the report's target table. */
void suite_target_add(suite *s, const char *name, const char *goal,
                      int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Renders benchmarks/plot/<script> (embedded) in DIR with gnuplot and, if
 * it produced <png>, embeds it in the report. */
void suite_plot(suite *s, const char *script, const char *png,
                const char *caption);
/* Median, minimum and maximum of n values (sorts them). */
typedef struct suite_stat {
    double median, min, max;
} suite_stat;
suite_stat suite_stats(double *v, size_t n);

/* ------------------------------------------------------------- the parts */

int suite_layout_run(suite *s);   /* 1: Figure 1                        */
int suite_marshal_run(suite *s);  /* 2-5: Tables 2, 3, Figure 7, full   */
int suite_apps_run(suite *s);     /* 6: Figures 5, 6                    */

#define SUITE_PARTS 6

#endif
