/* suite_layout.c - part 1 of `dl-bench suite`: the layout microbenchmark
 * (DL paper, Figure 1) in AoS, DA and ASTA(T), kernels in layout.cl. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

/* layout.cl, embedded with copy.cl (meson.build). */
const char *bench_kernel_source(const char *name);

static const size_t all_counts[] = {1, 2, 3, 4, 5, 8, 12, 16, 20, 32};
/* --quick: fewer kernels to compile (a cold POCL cache dominates then). */
static const size_t quick_counts[] = {1, 3, 8, 20};
static const size_t tiles[] = {4, 8, 16, 32, 64};
#define NSIZES (sizeof all_counts / sizeof *all_counts)
static const size_t *field_counts = all_counts;
static size_t nsizes = NSIZES;
#define NTILES (sizeof tiles / sizeof *tiles)
#define NLAYOUTS (int)(2 + NTILES) /* aos, da, asta(T) for every T */
#define LOCAL 256             /* work-items per group; divides M       */

typedef struct cell {
    int ok;       /* measured and verified */
    int vec;      /* ASTA: the vector form was the faster one */
    suite_stat t; /* seconds               */
    double gbps, copy_gbps;
} cell;

static size_t layout_tile(int l) { return l < 2 ? 0 : tiles[l - 2]; }

static void layout_label(int l, char *out, size_t room)
{
    if (l == 0)
        snprintf(out, room, "aos");
    else if (l == 1)
        snprintf(out, room, "da");
    else
        snprintf(out, room, "asta%zu", layout_tile(l));
}

/* Where field s of record i lives in layout l (float index). */
static size_t position(int l, size_t i, size_t s, size_t nf, size_t m)
{
    if (l == 0)
        return i * nf + s;
    if (l == 1)
        return s * m + i;
    size_t t = layout_tile(l);
    return ((i / t) * nf + s) * t + i % t;
}

/* One launch of a layout kernel, for bench_cl_time. */
typedef struct launch {
    cl_kernel kernel;
    cl_uint dims;
    size_t global[2], local[2];
} launch;

static int enqueue_launch(void *ctx, cl_command_queue q, cl_uint nwait,
                          const cl_event *wait, cl_event *last)
{
    launch *l = ctx;
    return bench_cl_ok(clEnqueueNDRangeKernel(q, l->kernel, l->dims, NULL,
                                              l->global, l->local, nwait,
                                              wait, last),
                       "clEnqueueNDRangeKernel(layout)");
}

/* Everything one S needs; released by state_free. */
typedef struct state {
    suite *s;
    size_t nf, m, bytes;
    cl_program program;
    cl_kernel kernels[NLAYOUTS];
    cl_kernel vec_kernels[NTILES]; /* layout_astav_T */
    cl_mem in, out;
    float *host_in, *expect, *got;
    double *conv, *cbuf, *ckern;
} state;

static void state_free(state *st)
{
    for (int l = 0; l < NLAYOUTS; l++)
        if (st->kernels[l])
            clReleaseKernel(st->kernels[l]);
    for (size_t t = 0; t < NTILES; t++)
        if (st->vec_kernels[t])
            clReleaseKernel(st->vec_kernels[t]);
    if (st->program)
        clReleaseProgram(st->program);
    if (st->in)
        clReleaseMemObject(st->in);
    if (st->out)
        clReleaseMemObject(st->out);
    free(st->host_in);
    free(st->expect);
    free(st->got);
    free(st->conv);
    free(st->cbuf);
    free(st->ckern);
}

static int build(state *st)
{
    bench_cl *cl = &st->s->cl;
    const char *src = bench_kernel_source("layout.cl");
    char opts[64];
    snprintf(opts, sizeof opts, "-D S=%zu", st->nf);
    cl_int err;
    st->program = clCreateProgramWithSource(cl->context, 1, &src, NULL, &err);
    if (!bench_cl_ok(err, "clCreateProgramWithSource(layout.cl)"))
        return 0;
    err = clBuildProgram(st->program, 1, &cl->device, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(st->program, cl->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log, log, NULL);
        log[sizeof log - 1] = '\0';
        fprintf(stderr, "dl-bench suite: building layout.cl %s failed "
                        "(%d):\n%s\n", opts, (int)err, log);
        return 0;
    }
    for (int l = 0; l < NLAYOUTS; l++) {
        char name[32];
        if (l < 2)
            snprintf(name, sizeof name, "layout_%s", l ? "da" : "aos");
        else
            snprintf(name, sizeof name, "layout_asta_%zu", layout_tile(l));
        st->kernels[l] = clCreateKernel(st->program, name, &err);
        if (!bench_cl_ok(err, name))
            return 0;
    }
    for (size_t t = 0; t < NTILES; t++) {
        char name[32];
        snprintf(name, sizeof name, "layout_astav_%zu", tiles[t]);
        st->vec_kernels[t] = clCreateKernel(st->program, name, &err);
        if (!bench_cl_ok(err, name))
            return 0;
    }
    return 1;
}

static int setup(state *st)
{
    bench_cl *cl = &st->s->cl;
    size_t n = st->m * st->nf;
    st->bytes = n * sizeof(float);
    if (st->bytes > cl->max_alloc) {
        fprintf(stderr, "dl-bench suite: %zu bytes exceed the device's "
                        "largest allocation\n", st->bytes);
        return 0;
    }
    size_t reps = st->s->reps;
    st->host_in = malloc(st->bytes);
    st->expect = malloc(st->bytes);
    st->got = malloc(st->bytes);
    st->conv = calloc(reps, sizeof(double));
    st->cbuf = calloc(reps, sizeof(double));
    st->ckern = calloc(reps, sizeof(double));
    if (!st->host_in || !st->expect || !st->got || !st->conv || !st->cbuf ||
        !st->ckern) {
        fprintf(stderr, "dl-bench suite: out of host memory\n");
        return 0;
    }
    cl_int err;
    st->in = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, st->bytes, NULL,
                            &err);
    if (!bench_cl_ok(err, "clCreateBuffer"))
        return 0;
    st->out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, st->bytes, NULL,
                             &err);
    return bench_cl_ok(err, "clCreateBuffer") && build(st);
}

/* Input and expected output of layout l.  Field values are small whole
 * numbers, so every sum is exact whatever order a compiler adds in. */
static void host_data(state *st, int l)
{
    for (size_t i = 0; i < st->m; i++) {
        float sum = 0.0f;
        for (size_t f = 0; f < st->nf; f++) {
            float v = (float)((i * 31u + f * 7u) % 61u);
            st->host_in[position(l, i, f, st->nf, st->m)] = v;
            sum += v;
        }
        for (size_t f = 0; f < st->nf; f++)
            st->expect[position(l, i, f, st->nf, st->m)] = sum;
    }
}

/* Lanes per work-item of the vector form (layout.cl). */
static size_t vec_width(size_t tile) { return tile < 16 ? tile : 16; }

static int set_args(state *st, int l, int vec, launch *ln)
{
    cl_kernel k = vec ? st->vec_kernels[l - 2] : st->kernels[l];
    cl_uint m = (cl_uint)st->m;
    int ok = bench_cl_ok(clSetKernelArg(k, 0, sizeof st->in, &st->in),
                         "clSetKernelArg") &&
             bench_cl_ok(clSetKernelArg(k, 1, sizeof st->out, &st->out),
                         "clSetKernelArg");
    if (ok && l == 1)
        ok = bench_cl_ok(clSetKernelArg(k, 2, sizeof m, &m), "clSetKernelArg");
    size_t t = layout_tile(l);
    *ln = (launch){.kernel = k, .dims = 1, .global = {st->m, 1},
                   .local = {LOCAL, 1}};
    if (vec) {
        ln->global[0] = st->m / vec_width(t);
    } else if (t) {
        ln->dims = 2;
        ln->global[0] = t;
        ln->global[1] = st->m / t;
        ln->local[0] = t;
        ln->local[1] = LOCAL / t;
    }
    return ok;
}

/* Warm-up plus reps: sentinel fill (untimed), kernel (timed), read back and
 * compare, then the two copies of the same bytes (timed). */
static int measure(state *st, int l, int vec, cell *c)
{
    suite *s = st->s;
    bench_cl *cl = &s->cl;
    launch ln;
    host_data(st, l);
    c->vec = vec;
    if (!set_args(st, l, vec, &ln) ||
        !bench_cl_ok(clEnqueueWriteBuffer(cl->queue, st->in, CL_TRUE, 0,
                                          st->bytes, st->host_in, 0, NULL,
                                          NULL), "clEnqueueWriteBuffer"))
        return 0;
    bench_copy copy = {cl, st->in, st->out, st->bytes};
    const cl_uint sentinel = 0xffc00001u; /* a NaN no kernel computes */
    int verified = 1;
    for (long rep = -1; rep < (long)s->reps; rep++) {
        bench_timer timer = rep < 0 ? BENCH_TIMER_WALL : BENCH_TIMER_EVENT;
        double tk, tb, tc;
        if (!bench_cl_ok(clEnqueueFillBuffer(cl->queue, st->out, &sentinel,
                                             sizeof sentinel, 0, st->bytes, 0,
                                             NULL, NULL), "clEnqueueFillBuffer") ||
            !bench_cl_time(cl, timer, enqueue_launch, &ln, &tk) ||
            !bench_cl_ok(clEnqueueReadBuffer(cl->queue, st->out, CL_TRUE, 0,
                                             st->bytes, st->got, 0, NULL,
                                             NULL), "clEnqueueReadBuffer") ||
            !bench_cl_time(cl, timer, bench_copy_buffer, &copy, &tb) ||
            !bench_cl_time(cl, timer, bench_copy_kernel, &copy, &tc))
            return 0;
        if (memcmp(st->got, st->expect, st->bytes) != 0)
            verified = 0;
        if (rep >= 0) {
            st->conv[rep] = tk;
            st->cbuf[rep] = tb;
            st->ckern[rep] = tc;
        }
    }
    double twice = 2.0 * (double)st->bytes;
    c->t = suite_stats(st->conv, s->reps);
    c->gbps = twice / c->t.median / 1e9;
    double cb = twice / suite_stats(st->cbuf, s->reps).median / 1e9;
    double ck = twice / suite_stats(st->ckern, s->reps).median / 1e9;
    c->copy_gbps = cb > ck ? cb : ck;
    c->ok = verified;
    if (!verified) {
        char name[16];
        layout_label(l, name, sizeof name);
        fprintf(stderr, "dl-bench suite: layout %s S=%zu: result differs "
                        "from the host reference\n", name, st->nf);
        s->unverified++;
    }
    return 1;
}

static void write_csv_row(FILE *csv, const state *st, int l, const cell *c,
                          const cell *aos)
{
    char name[16];
    layout_label(l, name, sizeof name);
    fprintf(csv, "%s,%zu,%s,%zu,%zu,%zu,", l < 2 ? name : "asta",
            layout_tile(l), l < 2 ? "1d" : c->vec ? "vec" : "2d", st->nf,
            st->m, st->bytes);
    if (!c->ok) {
        fputs("NA,NA,NA,NA,NA,NA,NA,0\n", csv);
        return;
    }
    fprintf(csv, "%.9f,%.9f,%.9f,%.6g,%.6g,%.6g,", c->t.median, c->t.min,
            c->t.max, c->gbps, c->copy_gbps, c->gbps / c->copy_gbps);
    if (aos->ok)
        fprintf(csv, "%.4f,1\n", aos->t.median / c->t.median);
    else
        fputs("NA,1\n", csv);
}

static void write_report(suite *s, cell res[NSIZES][NLAYOUTS], size_t m)
{
    FILE *r = s->report;
    fprintf(r, "\n## 1. Layout microbenchmark (Figure 1)\n\n"
               "Work-item i sums the S float fields of record i and writes "
               "the sum into every field of record i of a second array; "
               "M = %zu records, every kernel specialised with `-D S`. "
               "GB/s counts the bytes read and written; the factor in "
               "brackets is the speedup over AoS (time of AoS / time). "
               "Each ASTA(T) cell is the faster of two kernels, both "
               "verified: the 2-D range (T, M/T) and the vector form "
               "(floatW loads, W = min(T, 16)); `v` marks the vector form. "
               "CSV: `layout.csv` (both forms, column `variant`).\n\n"
               "| S | AoS GB/s |", m);
    for (int l = 1; l < NLAYOUTS; l++) {
        if (l == 1)
            fputs(" DA |", r);
        else
            fprintf(r, " ASTA(%zu) |", layout_tile(l));
    }
    fputs(" fastest |\n|---|---|", r);
    for (int l = 1; l <= NLAYOUTS; l++)
        fputs("---|", r);
    fputc('\n', r);
    for (size_t i = 0; i < nsizes; i++) {
        cell *row = res[i];
        int best = -1;
        fprintf(r, "| %zu |", field_counts[i]);
        for (int l = 0; l < NLAYOUTS; l++) {
            if (!row[l].ok) {
                fputs(" unverified |", r);
                continue;
            }
            if (best < 0 || row[l].t.median < row[best].t.median)
                best = l;
            const char *form = l >= 2 && row[l].vec ? " v" : "";
            if (l == 0 || !row[0].ok)
                fprintf(r, " %.2f%s |", row[l].gbps, form);
            else
                fprintf(r, " %.2f (%.2fx)%s |", row[l].gbps,
                        row[0].t.median / row[l].t.median, form);
        }
        char name[16] = "-";
        if (best >= 0)
            layout_label(best, name, sizeof name);
        fprintf(r, " %s |\n", name);
    }
}

/* layout_speedup.dat for plot/layout.gp: S, then the speedup over AoS of
 * DA and every ASTA(T) (NaN where unverified). */
static int write_plot_data(suite *s, cell res[NSIZES][NLAYOUTS])
{
    FILE *f = suite_open(s, "layout_speedup.dat");
    if (!f)
        return 0;
    fputs("# S DA ASTA4 ASTA8 ASTA16 ASTA32 ASTA64\n", f);
    for (size_t i = 0; i < nsizes; i++) {
        fprintf(f, "%zu", field_counts[i]);
        for (int l = 1; l < NLAYOUTS; l++) {
            if (res[i][0].ok && res[i][l].ok)
                fprintf(f, " %.4f", res[i][0].t.median / res[i][l].t.median);
            else
                fputs(" NaN", f);
        }
        fputc('\n', f);
    }
    return suite_close(f, "layout_speedup.dat");
}

int suite_layout_run(suite *s)
{
    size_t m = s->quick ? 16384 : 1048576; /* the paper: a million */
    static cell res[NSIZES][NLAYOUTS];
    field_counts = s->quick ? quick_counts : all_counts;
    nsizes = s->quick ? sizeof quick_counts / sizeof *quick_counts : NSIZES;
    memset(res, 0, sizeof res);
    FILE *csv = suite_open(s, "layout.csv");
    if (!csv)
        return 0;
    fputs("layout,tile,variant,struct,count,bytes,seconds,seconds_min,seconds_max,"
          "gbps,copy_gbps,ratio,speedup_vs_aos,verified\n", csv);
    int ok = 1;
    for (size_t i = 0; i < nsizes && ok; i++) {
        state st;
        memset(&st, 0, sizeof st);
        st.s = s;
        st.nf = field_counts[i];
        st.m = m;
        ok = setup(&st);
        for (int l = 0; l < NLAYOUTS && ok; l++) {
            char name[16];
            layout_label(l, name, sizeof name);
            suite_progress(s, "S=%zu %s", st.nf, name);
            ok = measure(&st, l, 0, &res[i][l]);
            if (ok)
                write_csv_row(csv, &st, l, &res[i][l], &res[i][0]);
            if (!ok || l < 2)
                continue;
            /* ASTA: also the vector form; the faster verified one counts */
            cell v;
            memset(&v, 0, sizeof v);
            suite_progress(s, "S=%zu %s (vector form)", st.nf, name);
            ok = measure(&st, l, 1, &v);
            if (ok)
                write_csv_row(csv, &st, l, &v, &res[i][0]);
            if (ok && v.ok &&
                (!res[i][l].ok || v.t.median < res[i][l].t.median))
                res[i][l] = v;
        }
        state_free(&st);
    }
    ok = suite_close(csv, "layout.csv") && ok;
    if (!ok) {
        fputs("\n## 1. Layout microbenchmark (Figure 1)\n\nFailed to run "
              "(see stderr of the run).\n", s->report);
        return 0;
    }
    write_report(s, res, m);
    if (write_plot_data(s, res))
        suite_plot(s, "layout.gp", "layout.png",
                   "Speedup over AoS against S");
    return 1;
}
