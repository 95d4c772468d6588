/* app_common.h - what the three application programs (dl-app-lbm,
 * dl-app-spmv, dl-app-blackscholes) share: option parsing, OpenCL setup,
 * kernel file lookup, timing, the seeded generator and the output digest.
 *
 * These are ordinary OpenCL 1.2 host programs: nothing here knows about
 * dlayout, and the programs link only OpenCL and libm. */
#ifndef DL_APP_COMMON_H
#define DL_APP_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "device_pick.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of every program (README.md). */
enum {
    APP_EXIT_OK = 0,
    APP_EXIT_FAIL = 1, /* OpenCL or I/O failure */
    APP_EXIT_USAGE = 2 /* invalid arguments     */
};

/* ------------------------------------------------------------ options */

/* Decimal integer in [lo, hi]; 0 and a message otherwise. */
int app_parse_long(const char *prog, const char *opt, const char *text, long lo,
                   long hi, long *out);
int app_parse_u64(const char *prog, const char *opt, const char *text,
                  uint64_t *out);
int app_parse_double(const char *prog, const char *opt, const char *text,
                     double lo, double hi, double *out);

/* The options every program accepts. */
typedef struct app_common_opts {
    const char *kernel; /* --kernel PATH                              */
    const char *output; /* --output FILE: raw result bytes            */
    long platform;      /* --platform P, or DEVICE_PICK_ALL_PLATFORMS */
    long device;        /* --device D (of P, else of all platforms)   */
    long local;         /* --local N: work-group size, 0 = auto       */
    int quiet;          /* --quiet: no timing line on stderr          */
} app_common_opts;

void app_common_defaults(app_common_opts *o);
void app_common_usage(FILE *out);

/* A program's own options carry codes APP_OPT_OWN .. APP_OPT_COMMON - 1
 * in `val` (none is a character: the programs have no short options);
 * the handler takes one (`name` without dashes, `value` NULL for a flag)
 * and returns 1, or 0 after printing why the value is bad. */
enum { APP_OPT_OWN = 0x80, APP_OPT_COMMON = 0x100 };
typedef int (*app_option_fn)(void *opts, int code, const char *name,
                             const char *value);

/* Parses argv with getopt_long: the program's `own` options (terminated
 * by a zero entry) and the common ones, which go to `common`.  Returns 1,
 * or 0 after a usage message; exits 0 after --help (usage(stdout)) and
 * --version. */
int app_parse_options(const char *prog, int argc, char **argv,
                      const struct option *own, app_option_fn fn, void *opts,
                      app_common_opts *common, void (*usage)(FILE *));

/* ------------------------------------------------------------- OpenCL */

const char *app_cl_errstr(cl_int err);
/* 1 if err is CL_SUCCESS, else prints "PROG: WHAT failed: NAME (code)". */
int app_cl_ok(const char *prog, cl_int err, const char *what);

typedef struct app_cl {
    const char *prog;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in-order, CL_QUEUE_PROFILING_ENABLE */
    cl_program program;
    char device_name[256];
} app_cl;

/* Opens the device --platform/--device of `o` name with a profiling
 * queue.  0 on failure (message printed). */
int app_cl_open(app_cl *cl, const char *prog, const app_common_opts *o);
/* Reads the kernel file at `path` and builds it with `options`; prints the
 * build log on failure. */
int app_cl_build(app_cl *cl, const char *path, const char *options);
void app_cl_close(app_cl *cl);

cl_mem app_cl_buffer(app_cl *cl, cl_mem_flags flags, size_t bytes,
                     const char *what);
/* Sums the START..END spans of n profiled events, in milliseconds, and
 * releases them; *min_ms (if not NULL) gets the shortest span. */
double app_cl_events_ms(app_cl *cl, cl_event *events, size_t n, double *min_ms);
/* Rounds n up to a multiple of local (local 0: n unchanged). */
size_t app_round_up(size_t n, size_t local);

/* --------------------------------------------------- kernel files */

/* Path of the kernel file `name`: `override` if not NULL, else the first
 * that exists of <directory of the executable>/name and
 * DL_APPS_KERNEL_DIR/name (the install directory, set at compile time).
 * Returns a malloc'd string, or NULL with a message. */
char *app_find_kernel(const char *prog, const char *override, const char *name);

/* ------------------------------------------------------------- misc */

double app_now_ms(void); /* monotonic wall clock */

/* Deterministic generator (splitmix64); the same seed gives the same
 * stream on every host. */
typedef struct app_rng {
    uint64_t state;
} app_rng;
void app_rng_seed(app_rng *r, uint64_t seed);
uint64_t app_rng_next(app_rng *r);
/* Uniform in [0, 1) with 24 random bits (exact in float). */
float app_rng_float(app_rng *r);
/* Uniform in [lo, hi). */
float app_rng_range(app_rng *r, float lo, float hi);
/* Uniform integer in [0, n), n > 0. */
uint32_t app_rng_below(app_rng *r, uint32_t n);

/* 64-bit FNV-1a of the bytes. */
uint64_t app_fnv1a64(const void *data, size_t bytes);

/* Writes the bytes to `path` ("-" is not special).  0 on failure. */
int app_write_file(const char *prog, const char *path, const void *data,
                   size_t bytes);

void *app_alloc(const char *prog, size_t bytes, const char *what);

#endif
