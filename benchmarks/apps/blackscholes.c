/* blackscholes.c - dl-app-blackscholes: Black-Scholes option pricing in
 * plain OpenCL.
 *
 * Generates --options option records (S, K, T, r, v: 5 floats each, an
 * array of structures) from a seed, prices them --iters times (every pass
 * recomputes and rewrites all prices, as in the usual benchmark loop) and
 * reads back the (call, put) price records.
 *
 * stdout: one digest line (sums, the worst put-call parity residual, and
 * FNV-1a of the price bytes).  stderr: one timing line.
 * --output FILE: the prices, N records of 2 floats (call, put). */
#include "app_common.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROG "dl-app-blackscholes"

/* must match blackscholes.cl */
typedef struct {
    cl_float S, K, T, r, v;
} option_t;
typedef struct {
    cl_float call, put;
} price_t;
_Static_assert(sizeof(option_t) == 5 * sizeof(cl_float), "option record");
_Static_assert(sizeof(price_t) == 2 * sizeof(cl_float), "price record");

static void usage(FILE *out)
{
    fputs("usage: " PROG " [options]\n"
          "European call/put prices by the Black-Scholes formula over an\n"
          "array of (S, K, T, r, v) option records.\n"
          "  --options N   number of options (default 4194304)\n"
          "  --iters N     pricing passes, 1..100000 (default 10)\n"
          "  --seed N      input generator seed (default 1)\n",
          out);
    app_common_usage(out);
}

typedef struct bs_opts {
    long options, iters;
    uint64_t seed;
    app_common_opts common;
} bs_opts;

enum { OPT_OPTIONS = APP_OPT_OWN, OPT_ITERS, OPT_SEED };

static const struct option bs_options[] = {
    {"options", required_argument, NULL, OPT_OPTIONS},
    {"iters", required_argument, NULL, OPT_ITERS},
    {"seed", required_argument, NULL, OPT_SEED},
    {NULL, 0, NULL, 0},
};

static int bs_option(void *opts, int code, const char *name, const char *v)
{
    bs_opts *o = opts;
    switch (code) {
    case OPT_OPTIONS:
        return app_parse_long(PROG, name, v, 1, INT_MAX / 8, &o->options);
    case OPT_ITERS:
        return app_parse_long(PROG, name, v, 1, 100000, &o->iters);
    default: /* OPT_SEED */
        return app_parse_u64(PROG, name, v, &o->seed);
    }
}

static int parse(bs_opts *o, int argc, char **argv)
{
    return app_parse_options(PROG, argc, argv, bs_options, bs_option, o,
                             &o->common, usage);
}

int main(int argc, char **argv)
{
    bs_opts o = {4194304, 10, 1, {0}};
    app_common_defaults(&o.common);
    if (!parse(&o, argc, argv)) {
        fprintf(stderr, "(" PROG " --help lists the options)\n");
        return APP_EXIT_USAGE;
    }

    const size_t n = (size_t)o.options;
    const size_t in_bytes = n * sizeof(option_t);
    const size_t out_bytes = n * sizeof(price_t);
    int rc = APP_EXIT_FAIL;
    option_t *opt = app_alloc(PROG, in_bytes, "options");
    price_t *price = app_alloc(PROG, out_bytes, "prices");
    cl_event *events = calloc((size_t)o.iters, sizeof *events);
    char *kpath = NULL;
    cl_mem din = NULL, dout = NULL;
    cl_kernel kernel = NULL;
    app_cl cl;
    memset(&cl, 0, sizeof cl);
    if (!opt || !price || !events)
        goto out;

    app_rng rng;
    app_rng_seed(&rng, o.seed);
    for (size_t i = 0; i < n; i++) {
        opt[i].S = app_rng_range(&rng, 10.0f, 100.0f);
        opt[i].K = app_rng_range(&rng, 10.0f, 100.0f);
        opt[i].T = app_rng_range(&rng, 0.25f, 5.0f);
        opt[i].r = app_rng_range(&rng, 0.01f, 0.06f);
        opt[i].v = app_rng_range(&rng, 0.1f, 0.6f);
    }

    kpath = app_find_kernel(PROG, o.common.kernel, "blackscholes.cl");
    if (!kpath || !app_cl_open(&cl, PROG, &o.common))
        goto out;
    char bopts[64];
    snprintf(bopts, sizeof bopts, "-DNOPT=%ld", o.options);
    if (!app_cl_build(&cl, kpath, bopts))
        goto out;
    cl_int err;
    kernel = clCreateKernel(cl.program, "bs_price", &err);
    if (!app_cl_ok(PROG, err, "clCreateKernel(bs_price)"))
        goto out;
    if (!(din = app_cl_buffer(&cl, CL_MEM_READ_ONLY, in_bytes, "options")) ||
        !(dout = app_cl_buffer(&cl, CL_MEM_WRITE_ONLY, out_bytes, "prices")))
        goto out;

    const size_t local = (size_t)o.common.local;
    const size_t global = app_round_up(n, local);

    const double t0 = app_now_ms();
    if (!app_cl_ok(PROG,
                   clEnqueueWriteBuffer(cl.queue, din, CL_TRUE, 0, in_bytes,
                                        opt, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(options)") ||
        !app_cl_ok(PROG, clSetKernelArg(kernel, 0, sizeof din, &din),
                   "clSetKernelArg(0)") ||
        !app_cl_ok(PROG, clSetKernelArg(kernel, 1, sizeof dout, &dout),
                   "clSetKernelArg(1)"))
        goto out;
    for (long it = 0; it < o.iters; it++)
        if (!app_cl_ok(PROG,
                       clEnqueueNDRangeKernel(cl.queue, kernel, 1, NULL,
                                              &global, local ? &local : NULL, 0,
                                              NULL, &events[it]),
                       "clEnqueueNDRangeKernel(bs_price)"))
            goto out;
    if (!app_cl_ok(PROG,
                   clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, out_bytes,
                                       price, 0, NULL, NULL),
                   "clEnqueueReadBuffer(prices)"))
        goto out;
    const double total_ms = app_now_ms() - t0;
    double min_ms = 0.0;
    const double kernel_ms =
        app_cl_events_ms(&cl, events, (size_t)o.iters, &min_ms);

    double sum_call = 0.0, sum_put = 0.0, parity = 0.0;
    for (size_t i = 0; i < n; i++) {
        sum_call += price[i].call;
        sum_put += price[i].put;
        /* put-call parity: C - P = S - K exp(-rT) */
        const double want =
            (double)opt[i].S -
            (double)opt[i].K * exp(-(double)opt[i].r * (double)opt[i].T);
        const double err_i =
            fabs((double)price[i].call - (double)price[i].put - want);
        parity = err_i > parity ? err_i : parity;
    }
    printf("blackscholes options=%ld iters=%ld seed=%llu sum_call=%.9e "
           "sum_put=%.9e parity_max_err=%.3e fnv1a64=%016llx\n",
           o.options, o.iters, (unsigned long long)o.seed, sum_call, sum_put,
           parity, (unsigned long long)app_fnv1a64(price, out_bytes));
    fflush(stdout);
    if (!o.common.quiet)
        fprintf(stderr,
                PROG
                ": device=\"%s\" kernel=%s iters=%ld "
                "kernel_ms=%.3f kernel_ms_per_iter=%.4f kernel_ms_min=%.4f "
                "moptions_per_s=%.2f total_ms=%.3f\n",
                cl.device_name, kpath, o.iters, kernel_ms,
                kernel_ms / (double)o.iters, min_ms,
                kernel_ms > 0 ? (double)n * (double)o.iters / (kernel_ms * 1e3)
                              : 0.0,
                total_ms);
    if (o.common.output &&
        !app_write_file(PROG, o.common.output, price, out_bytes))
        goto out;
    rc = APP_EXIT_OK;

out:
    if (events)
        for (long i = 0; i < o.iters; i++)
            if (events[i])
                clReleaseEvent(events[i]);
    if (din)
        clReleaseMemObject(din);
    if (dout)
        clReleaseMemObject(dout);
    if (kernel)
        clReleaseKernel(kernel);
    app_cl_close(&cl);
    free(kpath);
    free(events);
    free(price);
    free(opt);
    return rc;
}
