/* spmv.c - dl-app-spmv: repeated ELL sparse matrix-vector products in
 * plain OpenCL.
 *
 * The matrix is synthetic, shaped like one of the matrices of the DL
 * paper's Table 1 (rows x maximum non-zeros per row) or given by --rows and
 * --k.  Every row has between K/4 and K non-zeros (row 0 exactly K) at
 * distinct columns in a band around the diagonal, with positive values
 * scaled so that each row sums to 1: the iteration x <- A x is an averaging
 * process whose values stay within the range of the start vector, so no
 * normalisation step is needed and the output stays comparable after any
 * number of iterations.
 *
 * stdout: one digest line.  stderr: one timing line.
 * --output FILE: the final vector, ROWS floats. */
#include "app_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PROG "dl-app-spmv"

static const struct shape {
    const char *name;
    long rows, k;
} SHAPES[] = {
    {"bcsstk18", 11948, 40},  {"e40r000", 17281, 62},  {"bcsstk31", 35588, 197},
    {"bcsstk32", 44609, 215}, {"s3dkq4m2", 90449, 59}, {"conf6", 49152, 39},
};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

static void usage(FILE *out)
{
    fputs("usage: " PROG " [options]\n"
          "Repeated y = A x, A in row-major ELL (val and col arrays, K slots\n"
          "per row), x <- y between iterations; A is row-stochastic.\n"
          "  --shape NAME      matrix shape (default bcsstk31), one of:\n",
          out);
    for (size_t i = 0; i < NSHAPES; i++)
        fprintf(out, "                      %-9s %6ld rows x %3ld\n",
                SHAPES[i].name, SHAPES[i].rows, SHAPES[i].k);
    fputs("  --rows R --k K    explicit shape instead of --shape\n"
          "  --iters N         products, 1..100000 (default 50)\n"
          "  --seed N          input generator seed (default 1)\n",
          out);
    app_common_usage(out);
}

typedef struct spmv_opts {
    long rows, k, iters;
    const char *shape;
    uint64_t seed;
    app_common_opts common;
} spmv_opts;

enum { OPT_SHAPE = APP_OPT_OWN, OPT_ROWS, OPT_K, OPT_ITERS, OPT_SEED };

static const struct option spmv_options[] = {
    {"shape", required_argument, NULL, OPT_SHAPE},
    {"rows", required_argument, NULL, OPT_ROWS},
    {"k", required_argument, NULL, OPT_K},
    {"iters", required_argument, NULL, OPT_ITERS},
    {"seed", required_argument, NULL, OPT_SEED},
    {NULL, 0, NULL, 0},
};

/* What the command line says, before --shape and --rows/--k are
 * reconciled. */
typedef struct spmv_cli {
    spmv_opts *o;
    long rows, k;
    const char *shape;
} spmv_cli;

static int spmv_option(void *ctx, int code, const char *name, const char *v)
{
    spmv_cli *c = ctx;
    switch (code) {
    case OPT_SHAPE:
        c->shape = v;
        return 1;
    case OPT_ROWS:
        return app_parse_long(PROG, name, v, 1, 1L << 26, &c->rows);
    case OPT_K:
        return app_parse_long(PROG, name, v, 1, 4096, &c->k);
    case OPT_ITERS:
        return app_parse_long(PROG, name, v, 1, 100000, &c->o->iters);
    default: /* OPT_SEED */
        return app_parse_u64(PROG, name, v, &c->o->seed);
    }
}

static int parse(spmv_opts *o, int argc, char **argv)
{
    spmv_cli c = {o, 0, 0, NULL};
    if (!app_parse_options(PROG, argc, argv, spmv_options, spmv_option, &c,
                           &o->common, usage))
        return 0;
    long rows = c.rows, k = c.k;
    const char *shape = c.shape;
    if (shape && (rows || k)) {
        fprintf(stderr, PROG ": give either --shape or --rows and --k\n");
        return 0;
    }
    if (!shape && (rows || k)) {
        if (!rows || !k) {
            fprintf(stderr, PROG ": --rows and --k go together\n");
            return 0;
        }
        o->rows = rows;
        o->k = k;
        o->shape = "custom";
    } else {
        if (!shape)
            shape = "bcsstk31";
        size_t i = 0;
        while (i < NSHAPES && strcmp(SHAPES[i].name, shape) != 0)
            i++;
        if (i == NSHAPES) {
            fprintf(stderr,
                    PROG ": unknown shape '%s' (--help lists "
                         "them)\n",
                    shape);
            return 0;
        }
        o->rows = SHAPES[i].rows;
        o->k = SHAPES[i].k;
        o->shape = SHAPES[i].name;
    }
    if ((double)o->rows * (double)o->k > (double)INT_MAX) {
        fprintf(stderr,
                PROG ": %ld x %ld slots too many (the kernel indexes "
                     "with int)\n",
                o->rows, o->k);
        return 0;
    }
    return 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Fills val/col (rows*k slots each) and x (rows); *nnz: real non-zeros. */
static int make_matrix(const spmv_opts *o, float *val, cl_int *col, float *x,
                       size_t *nnz)
{
    app_rng rng;
    app_rng_seed(&rng, o->seed);
    const long rows = o->rows, k = o->k;
    /* band of candidate columns around the diagonal */
    long width = 3 * k;
    if (width < 64)
        width = 64;
    if (width > rows)
        width = rows;
    uint32_t *pos = app_alloc(PROG, (size_t)k * sizeof *pos, "columns");
    unsigned char *taken = calloc((size_t)width, 1);
    if (!pos || !taken) {
        free(pos);
        free(taken);
        fprintf(stderr, PROG ": out of memory\n");
        return 0;
    }
    const long lo = k / 4 > 1 ? k / 4 : 1;
    const long kmax = k < width ? k : width;
    *nnz = 0;
    for (long r = 0; r < rows; r++) {
        long n = r == 0
                     ? kmax
                     : lo + (long)app_rng_below(&rng, (uint32_t)(k - lo + 1));
        if (n > kmax)
            n = kmax;
        /* n distinct positions in [0, width) (Floyd's sampling) */
        for (long j = width - n; j < width; j++) {
            uint32_t t = app_rng_below(&rng, (uint32_t)j + 1);
            if (taken[t])
                t = (uint32_t)j;
            taken[t] = 1;
            pos[j - (width - n)] = t;
        }
        qsort(pos, (size_t)n, sizeof *pos, cmp_u32);
        *nnz += (size_t)n;
        float *rv = val + (size_t)r * k;
        cl_int *rc = col + (size_t)r * k;
        double sum = 0.0;
        for (long j = 0; j < n; j++) {
            taken[pos[j]] = 0;
            long c = (r - width / 2 + (long)pos[j]) % rows;
            if (c < 0)
                c += rows;
            rc[j] = (cl_int)c;
            rv[j] = app_rng_range(&rng, 0.125f, 1.0f);
            sum += rv[j];
        }
        const float scale = (float)(1.0 / sum);
        for (long j = 0; j < n; j++)
            rv[j] *= scale;
        for (long j = n; j < k; j++) {
            rv[j] = 0.0f;
            rc[j] = (cl_int)r;
        }
    }
    for (long r = 0; r < rows; r++)
        x[r] = app_rng_range(&rng, 0.0f, 1.0f);
    free(pos);
    free(taken);
    return 1;
}

int main(int argc, char **argv)
{
    spmv_opts o = {0, 0, 50, NULL, 1, {0}};
    app_common_defaults(&o.common);
    if (!parse(&o, argc, argv)) {
        fprintf(stderr, "(" PROG " --help lists the options)\n");
        return APP_EXIT_USAGE;
    }

    const size_t slots = (size_t)o.rows * (size_t)o.k;
    const size_t val_bytes = slots * sizeof(float);
    const size_t col_bytes = slots * sizeof(cl_int);
    const size_t vec_bytes = (size_t)o.rows * sizeof(float);
    size_t nnz = 0;
    int rc = APP_EXIT_FAIL;
    float *val = app_alloc(PROG, val_bytes, "values");
    cl_int *col = app_alloc(PROG, col_bytes, "columns");
    float *x = app_alloc(PROG, vec_bytes, "vector");
    cl_event *events = calloc((size_t)o.iters, sizeof *events);
    char *kpath = NULL;
    cl_mem dval = NULL, dcol = NULL, dvec[2] = {NULL, NULL};
    cl_kernel kernel = NULL;
    app_cl cl;
    memset(&cl, 0, sizeof cl);
    if (!val || !col || !x || !events || !make_matrix(&o, val, col, x, &nnz))
        goto out;

    kpath = app_find_kernel(PROG, o.common.kernel, "spmv.cl");
    if (!kpath || !app_cl_open(&cl, PROG, &o.common))
        goto out;
    char opts[128];
    snprintf(opts, sizeof opts, "-DROWS=%ld -DK=%ld", o.rows, o.k);
    if (!app_cl_build(&cl, kpath, opts))
        goto out;
    cl_int err;
    kernel = clCreateKernel(cl.program, "spmv_ell", &err);
    if (!app_cl_ok(PROG, err, "clCreateKernel(spmv_ell)"))
        goto out;
    if (!(dval = app_cl_buffer(&cl, CL_MEM_READ_ONLY, val_bytes, "val")) ||
        !(dcol = app_cl_buffer(&cl, CL_MEM_READ_ONLY, col_bytes, "col")) ||
        !(dvec[0] = app_cl_buffer(&cl, CL_MEM_READ_WRITE, vec_bytes, "x")) ||
        !(dvec[1] = app_cl_buffer(&cl, CL_MEM_READ_WRITE, vec_bytes, "y")))
        goto out;

    const size_t local = (size_t)o.common.local;
    const size_t global = app_round_up((size_t)o.rows, local);

    const double t0 = app_now_ms();
    if (!app_cl_ok(PROG,
                   clEnqueueWriteBuffer(cl.queue, dval, CL_FALSE, 0, val_bytes,
                                        val, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(val)") ||
        !app_cl_ok(PROG,
                   clEnqueueWriteBuffer(cl.queue, dcol, CL_FALSE, 0, col_bytes,
                                        col, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(col)") ||
        !app_cl_ok(PROG,
                   clEnqueueWriteBuffer(cl.queue, dvec[0], CL_TRUE, 0,
                                        vec_bytes, x, 0, NULL, NULL),
                   "clEnqueueWriteBuffer(x)"))
        goto out;
    if (!app_cl_ok(PROG, clSetKernelArg(kernel, 0, sizeof dval, &dval),
                   "clSetKernelArg(0)") ||
        !app_cl_ok(PROG, clSetKernelArg(kernel, 1, sizeof dcol, &dcol),
                   "clSetKernelArg(1)"))
        goto out;
    for (long it = 0; it < o.iters; it++) {
        cl_mem in = dvec[it & 1], res = dvec[(it + 1) & 1];
        if (!app_cl_ok(PROG, clSetKernelArg(kernel, 2, sizeof in, &in),
                       "clSetKernelArg(2)") ||
            !app_cl_ok(PROG, clSetKernelArg(kernel, 3, sizeof res, &res),
                       "clSetKernelArg(3)") ||
            !app_cl_ok(PROG,
                       clEnqueueNDRangeKernel(cl.queue, kernel, 1, NULL,
                                              &global, local ? &local : NULL, 0,
                                              NULL, &events[it]),
                       "clEnqueueNDRangeKernel(spmv_ell)"))
            goto out;
    }
    if (!app_cl_ok(PROG,
                   clEnqueueReadBuffer(cl.queue, dvec[o.iters & 1], CL_TRUE, 0,
                                       vec_bytes, x, 0, NULL, NULL),
                   "clEnqueueReadBuffer(y)"))
        goto out;
    const double total_ms = app_now_ms() - t0;
    double min_ms = 0.0;
    const double kernel_ms =
        app_cl_events_ms(&cl, events, (size_t)o.iters, &min_ms);

    double sum = 0.0;
    float lo = x[0], hi = x[0];
    for (long r = 0; r < o.rows; r++) {
        sum += x[r];
        lo = x[r] < lo ? x[r] : lo;
        hi = x[r] > hi ? x[r] : hi;
    }
    printf("spmv shape=%s rows=%ld k=%ld nnz=%zu iters=%ld seed=%llu sum=%.9e "
           "min=%.9e max=%.9e fnv1a64=%016llx\n",
           o.shape, o.rows, o.k, nnz, o.iters, (unsigned long long)o.seed, sum,
           (double)lo, (double)hi,
           (unsigned long long)app_fnv1a64(x, vec_bytes));
    fflush(stdout);
    if (!o.common.quiet)
        fprintf(stderr,
                PROG
                ": device=\"%s\" kernel=%s shape=%s iters=%ld "
                "kernel_ms=%.3f kernel_ms_per_iter=%.4f kernel_ms_min=%.4f "
                "gflops=%.3f total_ms=%.3f\n",
                cl.device_name, kpath, o.shape, o.iters, kernel_ms,
                kernel_ms / (double)o.iters, min_ms,
                kernel_ms > 0
                    ? 2.0 * (double)nnz * (double)o.iters / (kernel_ms * 1e6)
                    : 0.0,
                total_ms);
    if (o.common.output && !app_write_file(PROG, o.common.output, x, vec_bytes))
        goto out;
    rc = APP_EXIT_OK;

out:
    if (events)
        for (long i = 0; i < o.iters; i++)
            if (events[i])
                clReleaseEvent(events[i]);
    if (dval)
        clReleaseMemObject(dval);
    if (dcol)
        clReleaseMemObject(dcol);
    for (int i = 0; i < 2; i++)
        if (dvec[i])
            clReleaseMemObject(dvec[i]);
    if (kernel)
        clReleaseKernel(kernel);
    app_cl_close(&cl);
    free(kpath);
    free(events);
    free(x);
    free(val);
    free(col);
    return rc;
}
