/* bench_irregular.c - `dl-bench irregular`: irregular references A[P[e]]
 * of generated workloads (SpMV in CSR and ELL on four matrices, a
 * neighbour-list force kernel, a gather over records through two index
 * arrays), their memory transactions before and after reordering with
 * index redirection at a GPU's and at the device's W and S, the A' it
 * needs, and on the device the plain kernel, the reorganisation and the
 * redirected kernel, timed and verified.  One CSV row per workload,
 * reference and geometry (benchmarks/README.md, docs/irregular.md). */
#include "bench.h"
#include "irr_loop.h"

#include <stdlib.h>
#include <string.h>

void bench_irregular_usage(FILE *out)
{
    fputs(
        "usage: dl-bench irregular [options]\n\n"
        "Runs SpMV (CSR and ELL) on a 3D 7-point stencil in natural and\n"
        "shuffled order, an R-MAT graph and a uniform random matrix, a\n"
        "neighbour-list force kernel and a gather over records through\n"
        "two index arrays, plain, with their data reordered on the\n"
        "device (A'[e] = A[P[e]]) and with the layouts of padding,\n"
        "sharing, job swap and remap (METIS) planned on the host; then\n"
        "PageRank and an iterated symmetric SpMV, none, duplication and\n"
        "remap.  The selector's choice is marked per reference.\n"
        "Prints one CSV row per workload, reference, method and geometry (GPU\n"
        "class W=32 S=128, and the device's): transactions before and\n"
        "after, the extra memory of A', the medians of the plain kernel,\n"
        "the reorganisation and the redirected kernel, the speedup over\n"
        "1 and N iterations, and whether the outputs are byte-identical.\n\n"
        "  --quick          tiny sizes (seconds)\n"
        "  --reps R         timed repetitions, median reported (5)\n"
        "  --iterations N   the caching case: reorganise once, run N (50)\n"
        "  --seed S         the generators' seed (1)\n"
        "  --platform P --device N   the OpenCL device\n"
        "  --version\n",
        out);
}

typedef struct irr_opts {
    int quick;
    size_t reps, iterations, seed;
    device_choice device;
} irr_opts;

enum { OPT_QUICK = 0x100, OPT_REPS, OPT_ITERATIONS, OPT_SEED };

static const struct option options[] = {
    {"quick", no_argument, NULL, OPT_QUICK},
    {"reps", required_argument, NULL, OPT_REPS},
    {"iterations", required_argument, NULL, OPT_ITERATIONS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"help", no_argument, NULL, 'h'},
    BENCH_COMMON_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* One option: -1 to go on, else an exit code. */
static int parse_one(irr_opts *o, int code, char **argv)
{
    size_t *target = code == OPT_REPS         ? &o->reps
                     : code == OPT_ITERATIONS ? &o->iterations
                     : code == OPT_SEED       ? &o->seed
                                              : NULL;
    if (target)
        return bench_parse_size(argv[optind - 1], optarg, target)
                   ? -1
                   : BENCH_EXIT_USAGE;
    switch (code) {
    case OPT_QUICK:
        o->quick = 1;
        return -1;
    case BENCH_OPT_PLATFORM:
    case BENCH_OPT_DEVICE:
        return bench_device_option(code, optarg, &o->device) ? -1
                                                             : BENCH_EXIT_USAGE;
    case 'h':
        bench_irregular_usage(stdout);
        return BENCH_EXIT_OK;
    case BENCH_OPT_VERSION:
        bench_print_version();
        return BENCH_EXIT_OK;
    default:
        bench_option_error("irregular", code, argv);
        fputc('\n', stderr);
        bench_irregular_usage(stderr);
        return BENCH_EXIT_USAGE;
    }
}

/* -1 to go on, else an exit code.  argv[0] is the subcommand's name. */
static int parse(int argc, char **argv, irr_opts *o)
{
    opterr = 0;
    for (int code;
         (code = getopt_long(argc, argv, ":h", options, NULL)) != -1;) {
        int rc = parse_one(o, code, argv);
        if (rc >= 0)
            return rc;
    }
    if (optind < argc) {
        fprintf(stderr, "dl-bench irregular: unexpected argument '%s'\n",
                argv[optind]);
        return BENCH_EXIT_USAGE;
    }
    if (o->reps == 0 || o->reps > 100000 || o->iterations == 0) {
        fprintf(stderr, "dl-bench irregular: --reps must be 1 to 100000 "
                        "and --iterations at least 1\n");
        return BENCH_EXIT_USAGE;
    }
    return -1;
}

static irr_sizes sizes_for(int quick)
{
    if (quick)
        return (irr_sizes){12, 9, 2048, 8, 2048, 16, 1024, 4096};
    return (irr_sizes){48, 13, 131072, 8, 65536, 32, 65536, 262144};
}

/* Runs and reports w (irr_report.c), then frees it: 1 verified, 0 not,
 * -1 failed. */
static int run_workload(irr_device *d, irr_workload *w, const irr_opts *o)
{
    return irr_report_workload(d, w, o->iterations, o->seed);
}

static const char *const matrices[] = {"stencil", "stencil-shuffled", "rmat",
                                       "uniform", "stencil-xshuffled"};
#define NMATRICES (sizeof matrices / sizeof *matrices)

static int make_matrix(size_t which, const irr_sizes *z, uint64_t seed,
                       irr_csr *m)
{
    switch (which) {
    case 0:
        return irr_gen_stencil(z->stencil_n, m);
    case 1:
        return irr_gen_stencil(z->stencil_n, m) && irr_csr_shuffle(m, seed);
    case 2:
        return irr_gen_rmat(z->rmat_scale, seed, m);
    case 4:
        return irr_gen_stencil(z->stencil_n, m) &&
               irr_csr_shuffle_columns(m, seed);
    default:
        return irr_gen_uniform(z->uniform_rows, z->uniform_per_row, seed, m);
    }
}

/* Accumulates a workload's outcome: -1 failed, 0 unverified. */
static void tally(int rc, int *failed, int *unverified)
{
    *failed |= rc < 0;
    *unverified |= rc == 0;
}

/* The SpMV workloads of every matrix, one matrix in memory at a time. */
static void run_spmv(irr_device *d, const irr_opts *o, const irr_sizes *z,
                     int *failed, int *unverified)
{
    for (size_t i = 0; i < NMATRICES; i++) {
        irr_csr m = {0, 0, NULL, NULL, NULL};
        irr_workload w[2];
        uint64_t seed = o->seed * 16 + i;
        if (!make_matrix(i, z, seed, &m) ||
            !irr_spmv_workloads(&m, matrices[i], seed, w)) {
            fprintf(stderr,
                    "dl-bench irregular: out of host memory for "
                    "the %s matrix\n",
                    matrices[i]);
            irr_csr_free(&m);
            *failed = 1;
            continue;
        }
        irr_csr_free(&m);
        for (int k = 0; k < 2; k++)
            tally(run_workload(d, &w[k], o), failed, unverified);
    }
}

static void run_others(irr_device *d, const irr_opts *o, const irr_sizes *z,
                       int *failed, int *unverified)
{
    irr_workload w;
    if (irr_gen_md(z->particles, z->neighbours, o->seed * 16 + 8, &w))
        tally(run_workload(d, &w, o), failed, unverified);
    else
        *failed = 1;
    if (irr_gen_records(z->records, z->lookups, o->seed * 16 + 9, &w))
        tally(run_workload(d, &w, o), failed, unverified);
    else
        *failed = 1;
}

int bench_irregular_main(int argc, char **argv)
{
    irr_opts o = {.reps = 5,
                  .iterations = 50,
                  .seed = 1,
                  .device = {DEVICE_PICK_ALL_PLATFORMS, 0}};
    int code = parse(argc, argv, &o);
    if (code >= 0)
        return code;
    bench_cl cl;
    irr_device d;
    if (!bench_cl_open_choice(&cl, o.device))
        return BENCH_EXIT_FAIL;
    int failed = !irr_device_open(&d, &cl, o.reps), unverified = 0;
    irr_sizes z = sizes_for(o.quick);
    if (!failed) {
        fprintf(stderr, "dl-bench irregular: %s\n", cl.name);
        irr_report_header();
        run_spmv(&d, &o, &z, &failed, &unverified);
        run_others(&d, &o, &z, &failed, &unverified);
        irr_run_loops(&d, &z, o.iterations, o.seed, &failed, &unverified);
    }
    irr_device_close(&d);
    bench_cl_close(&cl);
    return failed       ? BENCH_EXIT_FAIL
           : unverified ? BENCH_EXIT_UNVERIFIED
                        : BENCH_EXIT_OK;
}
