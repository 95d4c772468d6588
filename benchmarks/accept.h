/* accept.h - `dl-bench accept`: the acceptance measurements of issue 6
 * (adaptive control): whole programs timed plainly and under dl-run in
 * interleaved repetitions, their outputs compared byte for byte.
 *
 * accept_main.c: options, tools, the environment of the children, the
 * report; accept_run.c: the cases and the interleaved runs. */
#ifndef DL_BENCH_ACCEPT_H
#define DL_BENCH_ACCEPT_H

#include <stddef.h>
#include <stdio.h>

int bench_accept_main(int argc, char **argv);
void bench_accept_usage(FILE *out);

#define ACCEPT_MAX_REPS 64
#define ACCEPT_MAX_ARGS 32
/* Programs whose plain warm-up ran shorter than this get
 * ACCEPT_SHORT_FACTOR times the repetitions: their +-10% spread between
 * runs would otherwise hide the 2% the issue asks about. */
#define ACCEPT_SHORT_MS 1500.0
#define ACCEPT_SHORT_FACTOR 4

/* How a case is run.  PLAIN: the program as shipped.  WARM: the
 * annotated program under `dl-run --stats` with every marshal program
 * already in the binary cache (DL_BINARY_DIR=OUT/bin-warm, filled by the
 * untimed warm-up).  COLD: the same with the default cache
 * (DL_BINARY_DIR unset) emptied before every run. */
typedef enum accept_variant { AV_PLAIN, AV_WARM, AV_COLD, AV_COUNT } accept_variant;

/* What the cases share. */
typedef struct accept_ctx {
    int quick;
    size_t reps;
    const char *out_dir;
    const char *apps_dir, *dl_run, *dl_annotate, *it_app; /* NULL: none */
    char xdg[4096];      /* OUT/xdg: XDG_CACHE_HOME of every child      */
    char cold_dir[4200]; /* OUT/xdg/dlayout/binaries: the default cache */
    char warm_dir[4200]; /* OUT/bin-warm                                */
    size_t failures;     /* runs that failed or printed other output    */
} accept_ctx;

/* One program measured in every variant it has. */
typedef struct accept_case {
    char name[48];
    const char *group;     /* "apps", "empty", "tests", "lbm-break-even" */
    const char *goal;      /* "<= 1.02" (dl-run/plain), ">= 2x" or ""    */
    size_t iterations;     /* steps, iterations or launches              */
    const char *plain[ACCEPT_MAX_ARGS]; /* argv of the plain run       */
    const char *dl[ACCEPT_MAX_ARGS];    /* argv run under dl-run       */
    int output;            /* append --output FILE, compared byte for byte */
    int cold;              /* measure COLD too                           */
    char kernel[4200];     /* the annotated kernel file, if any          */
    /* results, medians over the repetitions */
    size_t reps;           /* repetitions made                           */
    int ran[AV_COUNT];     /* every repetition exited 0                  */
    int match;             /* every output equal to the plain one        */
    double wall_ms[AV_COUNT], wall_min[AV_COUNT], wall_max[AV_COUNT];
    double total_ms[AV_COUNT]; /* the program's own total_ms (NAN: none) */
    double marshal_ms[AV_COUNT];
    char stats[AV_COUNT][400]; /* the last dlayout-stats line            */
} accept_case;

/* accept_run.c: builds the case list (annotating the app kernels);
 * returns how many, 0 on failure (message printed). */
size_t accept_cases(accept_ctx *ctx, accept_case *cases, size_t room);
/* Runs the case's variants interleaved, ctx->reps times after an untimed
 * warm-up; 0 if a run failed. */
int accept_measure(accept_ctx *ctx, accept_case *c);

extern const char *const accept_variant_names[AV_COUNT];

#endif
