/* bench_layout.c - `dl-bench layout`: the layout microbenchmark of the DL
 * paper's Figure 1 for one record size S, in AoS, DA and ASTA(T) (kernels
 * in layout.cl).  Prints one CSV row per kernel; dl_bench_suite.py runs it
 * for every S and draws the figure. */
#include "bench.h"
#include "bench_cl.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* layout.cl, embedded with copy.cl (meson.build). */
const char *bench_kernel_source(const char *name);

static const size_t tiles[] = {4, 8, 16, 32, 64};
#define NTILES   (sizeof tiles / sizeof *tiles)
#define NLAYOUTS (int)(2 + NTILES) /* aos, da, asta(T) for every T */
#define LOCAL    256 /* work-items per group                          */
/* M is a multiple of this: the vector form of ASTA(64) runs M/16 items
 * in groups of LOCAL. */
#define COUNT_QUANTUM (16 * LOCAL)

/* Median, minimum and maximum of the repetitions. */
typedef struct layout_stat {
    double median, min, max;
} layout_stat;

static layout_stat layout_stats(double *v, size_t n)
{
    layout_stat st = {bench_median(v, n), v[0], v[n - 1]}; /* sorted now */
    return st;
}

typedef struct cell {
    int ok;        /* measured and verified */
    int vec;       /* ASTA: the vector form */
    layout_stat t; /* seconds               */
    double gbps, copy_gbps;
} cell;

static size_t layout_tile(int l)
{
    return l < 2 ? 0 : tiles[l - 2];
}

static void layout_label(int l, char *out, size_t room)
{
    if (l == 0)
        snprintf(out, room, "aos");
    else if (l == 1)
        snprintf(out, room, "da");
    else
        snprintf(out, room, "asta%zu", layout_tile(l));
}

/* Where field s of record i lives in layout l (float index); DA's field
 * arrays are `stride` records apart (M, or more for an offset DA). */
static size_t position(int l, size_t i, size_t s, size_t nf, size_t stride)
{
    if (l == 0)
        return i * nf + s;
    if (l == 1)
        return s * stride + i;
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
                                              l->global, l->local, nwait, wait,
                                              last),
                       "clEnqueueNDRangeKernel(layout)");
}

/* Everything one S needs; released by state_free. */
typedef struct state {
    bench_cl *cl;
    size_t reps;
    size_t nf, m, bytes;
    size_t da_stride; /* DA's field stride in records: m + --da-pad */
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
    bench_cl *cl = st->cl;
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
        fprintf(stderr,
                "dl-bench layout: building layout.cl %s failed "
                "(%d):\n%s\n",
                opts, (int)err, log);
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
    bench_cl *cl = st->cl;
    size_t n = st->da_stride * st->nf; /* the offset DA's slack included */
    st->bytes = n * sizeof(float);
    if (st->bytes > cl->max_alloc) {
        fprintf(stderr,
                "dl-bench layout: %zu bytes exceed the device's "
                "largest allocation\n",
                st->bytes);
        return 0;
    }
    size_t reps = st->reps;
    st->host_in = malloc(st->bytes);
    st->expect = malloc(st->bytes);
    st->got = malloc(st->bytes);
    st->conv = calloc(reps, sizeof(double));
    st->cbuf = calloc(reps, sizeof(double));
    st->ckern = calloc(reps, sizeof(double));
    if (!st->host_in || !st->expect || !st->got || !st->conv || !st->cbuf ||
        !st->ckern) {
        fprintf(stderr, "dl-bench layout: out of host memory\n");
        return 0;
    }
    cl_int err;
    st->in =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE, st->bytes, NULL, &err);
    if (!bench_cl_ok(err, "clCreateBuffer"))
        return 0;
    st->out =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE, st->bytes, NULL, &err);
    return bench_cl_ok(err, "clCreateBuffer") && build(st);
}

/* Input and expected output of layout l.  Field values are small whole
 * numbers, so every sum is exact whatever order a compiler adds in. */
static void host_data(state *st, int l, cl_uint sentinel)
{
    /* an offset DA's slack is never written: it keeps the sentinel */
    for (size_t w = 0; w < st->bytes / sizeof(float); w++)
        memcpy(&st->expect[w], &sentinel, sizeof sentinel);
    for (size_t i = 0; i < st->m; i++) {
        float sum = 0.0f;
        for (size_t f = 0; f < st->nf; f++) {
            float v = (float)((i * 31u + f * 7u) % 61u);
            st->host_in[position(l, i, f, st->nf, st->da_stride)] = v;
            sum += v;
        }
        for (size_t f = 0; f < st->nf; f++)
            st->expect[position(l, i, f, st->nf, st->da_stride)] = sum;
    }
}

/* Lanes per work-item of the vector form (layout.cl). */
static size_t vec_width(size_t tile)
{
    return tile < 16 ? tile : 16;
}

static int set_args(state *st, int l, int vec, launch *ln)
{
    cl_kernel k = vec ? st->vec_kernels[l - 2] : st->kernels[l];
    cl_uint m = (cl_uint)st->da_stride; /* DA's field stride */
    int ok = bench_cl_ok(clSetKernelArg(k, 0, sizeof st->in, &st->in),
                         "clSetKernelArg") &&
             bench_cl_ok(clSetKernelArg(k, 1, sizeof st->out, &st->out),
                         "clSetKernelArg");
    if (ok && l == 1)
        ok = bench_cl_ok(clSetKernelArg(k, 2, sizeof m, &m), "clSetKernelArg");
    size_t t = layout_tile(l);
    *ln = (launch){
        .kernel = k, .dims = 1, .global = {st->m, 1}, .local = {LOCAL, 1}};
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
    bench_cl *cl = st->cl;
    launch ln;
    const cl_uint sentinel = 0xffc00001u; /* a NaN no kernel computes */
    host_data(st, l, sentinel);
    c->vec = vec;
    if (!set_args(st, l, vec, &ln) ||
        !bench_cl_ok(clEnqueueWriteBuffer(cl->queue, st->in, CL_TRUE, 0,
                                          st->bytes, st->host_in, 0, NULL,
                                          NULL),
                     "clEnqueueWriteBuffer"))
        return 0;
    bench_copy copy = {cl, st->in, st->out, st->bytes};
    int verified = 1;
    for (long rep = -1; rep < (long)st->reps; rep++) {
        bench_timer timer = rep < 0 ? BENCH_TIMER_WALL : BENCH_TIMER_EVENT;
        double tk, tb, tc;
        if (!bench_cl_ok(clEnqueueFillBuffer(cl->queue, st->out, &sentinel,
                                             sizeof sentinel, 0, st->bytes, 0,
                                             NULL, NULL),
                         "clEnqueueFillBuffer") ||
            !bench_cl_time(cl, timer, enqueue_launch, &ln, &tk) ||
            !bench_cl_ok(clEnqueueReadBuffer(cl->queue, st->out, CL_TRUE, 0,
                                             st->bytes, st->got, 0, NULL, NULL),
                         "clEnqueueReadBuffer") ||
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
    c->t = layout_stats(st->conv, st->reps);
    c->gbps = twice / c->t.median / 1e9;
    double cb = twice / layout_stats(st->cbuf, st->reps).median / 1e9;
    double ck = twice / layout_stats(st->ckern, st->reps).median / 1e9;
    c->copy_gbps = cb > ck ? cb : ck;
    c->ok = verified;
    if (!verified) {
        char name[16];
        layout_label(l, name, sizeof name);
        fprintf(stderr,
                "dl-bench layout: layout %s S=%zu: result differs "
                "from the host reference\n",
                name, st->nf);
    }
    return 1;
}

static void print_header(void)
{
    puts("layout,tile,variant,struct,count,bytes,seconds,seconds_min,"
         "seconds_max,gbps,copy_gbps,ratio,verified");
}

static void print_row(const state *st, int l, const cell *c)
{
    char name[16];
    layout_label(l, name, sizeof name);
    char variant[32] = "1d";
    if (l == 1 && st->da_stride > st->m) /* offset DA */
        snprintf(variant, sizeof variant, "pad%zu", st->da_stride - st->m);
    else if (l >= 2)
        snprintf(variant, sizeof variant, "%s", c->vec ? "vec" : "2d");
    printf("%s,%zu,%s,%zu,%zu,%zu,", l < 2 ? name : "asta", layout_tile(l),
           variant, st->nf, st->m, st->bytes);
    if (!c->ok)
        puts("NA,NA,NA,NA,NA,NA,0");
    else
        printf("%.9f,%.9f,%.9f,%.6g,%.6g,%.6g,1\n", c->t.median, c->t.min,
               c->t.max, c->gbps, c->copy_gbps, c->gbps / c->copy_gbps);
}

/* Every kernel of one S (the ASTA ones in both forms); 0 on a runtime
 * failure, else 1 with *unverified counting results that differed. */
static int run_all(state *st, size_t *unverified)
{
    for (int l = 0; l < NLAYOUTS; l++)
        for (int vec = 0; vec <= (l >= 2); vec++) {
            cell c;
            memset(&c, 0, sizeof c);
            if (!measure(st, l, vec, &c))
                return 0;
            print_row(st, l, &c);
            *unverified += !c.ok;
        }
    return 1;
}

void bench_layout_usage(FILE *out)
{
    fputs("usage: dl-bench layout --struct S [--count M] [--reps R]\n"
          "                       [--da-pad R] [--platform P] [--device N]\n"
          "                       [--no-header]\n"
          "\n"
          "The layout microbenchmark (benchmarks/README.md): work-item i\n"
          "sums the S float fields of record i and writes the sum into\n"
          "every field of record i of a second array, in AoS, DA and\n"
          "ASTA(T) for T in 4..64 (2-D and vector forms).  One CSV row per\n"
          "kernel, every result checked against the host's.\n"
          "\n"
          "  --struct S     fields per record (1..64)\n"
          "  --count M      records, a multiple of 4096 (default 1M)\n"
          "  --reps R       timed repetitions, median reported (default 5)\n"
          "  --da-pad R     offset DA: DA's field arrays M + R records apart\n"
          "                 (its row's variant is padR; default 0: M apart,\n"
          "                 a multiple of 16 KiB, which aliases at 4 KiB)\n"
          "  --platform P   OpenCL platform index (default: all platforms)\n"
          "  --device N     device index, of platform P or of the list\n"
          "                 'dl-bench devices' prints (default 0)\n"
          "  --no-header    print only the rows\n"
          "  --version      dlayout's version\n"
          "\n"
          "Exit status: 0 ok, 1 runtime failure, 2 invalid arguments,\n"
          "4 some result did not match (its row has verified = 0).\n",
          out);
}

static int usage_error(const char *what)
{
    fprintf(stderr, "dl-bench layout: %s\n\n", what);
    bench_layout_usage(stderr);
    return BENCH_EXIT_USAGE;
}

typedef struct cli {
    size_t nf, m, reps, da_pad;
    device_choice device;
    int header;
} cli;

enum { OPT_STRUCT = 0x100, OPT_COUNT, OPT_REPS, OPT_DA_PAD, OPT_NO_HEADER };

static const struct option options[] = {
    {"struct", required_argument, NULL, OPT_STRUCT},
    {"count", required_argument, NULL, OPT_COUNT},
    {"reps", required_argument, NULL, OPT_REPS},
    {"da-pad", required_argument, NULL, OPT_DA_PAD},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"help", no_argument, NULL, 'h'},
    BENCH_COMMON_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* One option; -1 to go on, else an exit code. */
static int take_option(cli *c, int code, const char *name, const char *v)
{
    switch (code) {
    case 'h':
        bench_layout_usage(stdout);
        return BENCH_EXIT_OK;
    case BENCH_OPT_VERSION:
        bench_print_version();
        return BENCH_EXIT_OK;
    case BENCH_OPT_PLATFORM:
    case BENCH_OPT_DEVICE:
        return bench_device_option(code, v, &c->device) ? -1 : BENCH_EXIT_USAGE;
    case OPT_NO_HEADER:
        c->header = 0;
        return -1;
    default: {
        char opt[32];
        snprintf(opt, sizeof opt, "--%s", name);
        size_t *into = code == OPT_STRUCT   ? &c->nf
                       : code == OPT_COUNT  ? &c->m
                       : code == OPT_DA_PAD ? &c->da_pad
                                            : &c->reps;
        return bench_parse_size(opt, v, into) ? -1
                                              : usage_error("invalid number");
    }
    }
}

/* -1 to go on, else an exit code.  argv[0] is the subcommand's name. */
static int parse(int argc, char **argv, cli *c)
{
    opterr = 0; /* our messages, with the usage */
    for (int code, at = 0;
         (code = getopt_long(argc, argv, ":h", options, &at)) != -1;) {
        if (code == '?' || code == ':') {
            bench_option_error("layout", code, argv);
            fputc('\n', stderr);
            bench_layout_usage(stderr);
            return BENCH_EXIT_USAGE;
        }
        int done = take_option(c, code, options[at].name, optarg);
        if (done >= 0)
            return done;
    }
    if (optind < argc)
        return usage_error("unexpected argument");
    if (c->nf == 0 || c->nf > 64)
        return usage_error("--struct must be between 1 and 64");
    if (c->m == 0 || c->m % COUNT_QUANTUM)
        return usage_error("--count must be a positive multiple of 4096");
    if (c->reps == 0 || c->reps > 1000)
        return usage_error("--reps must be between 1 and 1000");
    if (c->da_pad > c->m)
        return usage_error("--da-pad must be at most --count");
    return -1;
}

int bench_layout_main(int argc, char **argv)
{
    cli c = {.m = 1 << 20,
             .reps = 5,
             .header = 1,
             .device = {DEVICE_PICK_ALL_PLATFORMS, 0}};
    int code = parse(argc, argv, &c);
    if (code >= 0)
        return code;
    bench_cl cl;
    if (!bench_cl_open_choice(&cl, c.device))
        return BENCH_EXIT_FAIL;
    state st;
    memset(&st, 0, sizeof st);
    st.cl = &cl;
    st.reps = c.reps;
    st.nf = c.nf;
    st.m = c.m;
    st.da_stride = c.m + c.da_pad;
    size_t unverified = 0;
    if (c.header)
        print_header();
    int ok = setup(&st) && run_all(&st, &unverified);
    state_free(&st);
    bench_cl_close(&cl);
    fflush(stdout);
    return !ok          ? BENCH_EXIT_FAIL
           : unverified ? BENCH_EXIT_UNVERIFIED
                        : BENCH_EXIT_OK;
}
