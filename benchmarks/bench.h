/* bench.h - what the dl-bench sources share: exit codes, option parsing
 * helpers, statistics and the subcommand entry points. */
#ifndef DL_BENCH_H
#define DL_BENCH_H

#include "device_pick.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* Exit codes of every subcommand (benchmarks/README.md). */
enum {
    BENCH_EXIT_OK = 0,
    BENCH_EXIT_FAIL = 1,      /* runtime failure, no row printed          */
    BENCH_EXIT_USAGE = 2,     /* invalid arguments                        */
    BENCH_EXIT_NA = 3,        /* the algorithm cannot do the shape: NA row */
    BENCH_EXIT_UNVERIFIED = 4 /* row printed, but verified = 0            */
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

/* What the measuring subcommands (marshal, calibrate) parse with
 * getopt_long besides their own options: --platform P --device D
 * (device_pick.h) and --version. */
enum { BENCH_OPT_PLATFORM = 0x200, BENCH_OPT_DEVICE, BENCH_OPT_VERSION };
#define BENCH_COMMON_OPTIONS                                                   \
    {"platform", required_argument, NULL, BENCH_OPT_PLATFORM},                 \
        {"device", required_argument, NULL, BENCH_OPT_DEVICE},                 \
    {                                                                          \
        "version", no_argument, NULL, BENCH_OPT_VERSION                        \
    }
/* --platform's or --device's value into *choice; 0 and a message when it
 * is not an index. */
int bench_device_option(int code, const char *value, device_choice *choice);
/* getopt_long's complaint ('?' or ':') as "dl-bench CMD: ..." on stderr. */
void bench_option_error(const char *cmd, int c, char **argv);
/* "dl-bench (dlayout) VERSION" on stdout. */
void bench_print_version(void);

/* -------------------------------------------------------- statistics */

/* Median of n values (sorts them). */
double bench_median(double *values, size_t n);

/* ------------------------------------------------------- subcommands */

/* Subcommand entry points: argv[0] is the subcommand name for marshal,
 * calibrate and devices (getopt_long), the first argument after it for
 * suite and accept. */
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
int bench_coalesce_main(int argc, char **argv);
void bench_coalesce_usage(FILE *out);
int bench_irregular_main(int argc, char **argv);
void bench_irregular_usage(FILE *out);

#endif
