/* bench.h - what the dl-bench sources share: exit codes, option parsing
 * helpers, statistics and the subcommand entry points. */
#ifndef DL_BENCH_H
#define DL_BENCH_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes of every subcommand (benchmarks/README.md). */
enum {
    BENCH_EXIT_OK = 0,
    BENCH_EXIT_FAIL = 1,        /* runtime failure, no row printed          */
    BENCH_EXIT_USAGE = 2,       /* invalid arguments                        */
    BENCH_EXIT_NA = 3,          /* the algorithm cannot do the shape: NA row */
    BENCH_EXIT_UNVERIFIED = 4   /* row printed, but verified = 0            */
};

/* ------------------------------------------------------- bench_args.c */

/* Option scanner: accepts "--name value" and "--name=value". */
typedef struct bench_args {
    int argc, next;
    char **argv;
    const char *cmd;          /* subcommand name, for messages        */
    const char *inline_value; /* the "value" of the last "--name=value" */
    char name[64];
} bench_args;

void bench_args_init(bench_args *a, const char *cmd, int argc, char **argv);
/* The next option name (without its value), or NULL at the end. */
const char *bench_args_next(bench_args *a);
/* The value of the option just returned; NULL (and a message) if missing. */
const char *bench_args_value(bench_args *a, const char *opt);
/* Unsigned decimal with an optional binary suffix K, M or G.  Returns 0
 * and prints a message naming `opt` if `text` is not such a number. */
int bench_parse_size(const char *opt, const char *text, size_t *out);

/* -------------------------------------------------------- statistics */

/* Median of n values (sorts them). */
double bench_median(double *values, size_t n);

/* ------------------------------------------------------- subcommands */

int bench_marshal_main(int argc, char **argv);
void bench_marshal_usage(FILE *out);
int bench_devices_main(int argc, char **argv);
int bench_layout_main(int argc, char **argv);
void bench_layout_usage(FILE *out);
/* bench_script.c: `suite` and `accept` run dl_bench_suite.py. */
int bench_suite_main(int argc, char **argv);
void bench_suite_usage(FILE *out);
int bench_accept_main(int argc, char **argv);
void bench_accept_usage(FILE *out);
void bench_devices_usage(FILE *out);
int bench_calibrate_main(int argc, char **argv);
void bench_calibrate_usage(FILE *out);

#endif
