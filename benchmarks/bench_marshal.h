/* bench_marshal.h - one marshaling measurement, shared by `dl-bench
 * marshal` and the subcommands that run many of them. */
#ifndef DL_BENCH_MARSHAL_H
#define DL_BENCH_MARSHAL_H

#include "bench_cl.h"
#include "dlayout.h"

#include <stdio.h>

typedef enum bench_side { BENCH_AOS, BENCH_DA, BENCH_ASTA } bench_side;

/* "aos", "da", "asta"; parse returns 0 for anything else. */
const char *bench_side_name(bench_side side);
int bench_side_parse(const char *text, bench_side *side);

typedef struct bench_marshal_opts {
    bench_side from, to;
    size_t nfields; /* S: uniform fields per record       */
    size_t elem;    /* bytes per field                    */
    size_t tile;    /* T for the ASTA side(s)             */
    size_t count;   /* M: records                         */
    size_t reps;    /* timed repetitions (>= 1)           */
    dl_algo algo;
    bench_timer timer;
    int verbose; /* per-repetition times on stderr */
} bench_marshal_opts;

typedef struct bench_marshal_result {
    int supported;  /* 0: the algorithm cannot do the shape (NA) */
    char algo[256]; /* dl_plan_describe, ',' turned into ';'     */
    size_t bytes;   /* count * nfields * elem                    */
    double seconds; /* median conversion time                    */
    double seconds_min, seconds_max; /* spread over the repetitions     */
    double gbps; /* 2 * bytes / seconds / 1e9                 */
    double copy_buffer_gbps, copy_kernel_gbps;
    double copy_gbps;   /* the better of the two                     */
    int verified;       /* every conversion matched the reference    */
    size_t extra_bytes; /* dl_plan_extra_bytes                       */
} bench_marshal_result;

/* Runs one measurement on an open device with an engine made for it.
 * Returns BENCH_EXIT_OK, _NA (result->supported = 0), _UNVERIFIED or
 * _FAIL (message printed, result unusable). */
int bench_marshal_measure(bench_cl *cl, dl_engine *engine,
                          const bench_marshal_opts *opts,
                          bench_marshal_result *result);

void bench_marshal_print_header(FILE *out);
void bench_marshal_print_row(FILE *out, const bench_marshal_opts *opts,
                             const bench_marshal_result *result);

#endif
