/* bench_marshal.c - `dl-bench marshal`: the options of one measurement
 * (bench_measure.c does the work) and its CSV row. */
#include "bench.h"
#include "bench_marshal.h"

#include <stdint.h>
#include <string.h>

void bench_marshal_usage(FILE *out)
{
    fputs("usage: dl-bench marshal --from L --to L --struct S --elem BYTES\n"
          "                        --count M [--tile T] [options]\n"
          "\n"
          "Times one in-place conversion of M records of S fields of BYTES\n"
          "bytes each from layout --from to layout --to, and prints a CSV\n"
          "header and one row (see benchmarks/README.md).\n"
          "\n"
          "  --from, --to L   aos, da or asta\n"
          "  --struct S       fields per record (1..4096)\n"
          "  --elem BYTES     bytes per field: 1, 2, 4, 8 or 16\n"
          "  --tile T         ASTA tile (required when a side is asta)\n"
          "  --count M        records (K, M, G suffixes: 2^10, 2^20, 2^30)\n"
          "  --algo A         auto (default), bs, pttwac, pipt or oop\n"
          "  --reps R         timed repetitions, median reported (default 5)\n"
          "  --platform P     OpenCL platform index; --device then counts\n"
          "                   its devices\n"
          "  --device N       without --platform: index into 'dl-bench\n"
          "                   devices' (default 0)\n"
          "  --timer K        event (device profiling, default) or wall\n"
          "  --no-header      print only the row\n"
          "  --verbose        per-repetition times and both copy baselines\n"
          "                   on stderr\n"
          "  --help           this text\n"
          "  --version        print the version\n"
          "\n"
          "Exit status: 0 ok, 1 runtime failure, 2 invalid arguments, 3 the\n"
          "algorithm cannot do this shape (row with NA printed), 4 the result\n"
          "did not match the host reference (row printed, verified = 0).\n",
          out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("dl-bench marshal: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    bench_marshal_usage(stderr);
    return BENCH_EXIT_USAGE;
}

typedef struct cli {
    bench_marshal_opts m;
    device_choice device;
    int header;
    int have_from, have_to, have_nfields, have_elem, have_tile, have_count;
} cli;

/* Options that take a value; numeric ones point at their field. */
static int value_option(cli *c, const char *opt, const char *v)
{
    bench_marshal_opts *o = &c->m;
    struct {
        const char *name;
        size_t *num;
        int *have;
    } nums[] = {
        {"--struct", &o->nfields, &c->have_nfields},
        {"--elem", &o->elem, &c->have_elem},
        {"--tile", &o->tile, &c->have_tile},
        {"--count", &o->count, &c->have_count},
        {"--reps", &o->reps, NULL},
    };
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
        if (strcmp(opt, nums[i].name) == 0) {
            if (!bench_parse_size(opt, v, nums[i].num))
                return usage_error("invalid value for %s", opt);
            if (nums[i].have)
                *nums[i].have = 1;
            return -1;
        }
    if (strcmp(opt, "--from") == 0 || strcmp(opt, "--to") == 0) {
        int from = opt[2] == 'f';
        if (!bench_side_parse(v, from ? &o->from : &o->to))
            return usage_error("unknown layout '%s' (aos, da, asta)", v);
        *(from ? &c->have_from : &c->have_to) = 1;
    } else if (strcmp(opt, "--algo") == 0) {
        if (dl_algo_parse(v, &o->algo) != DL_SUCCESS)
            return usage_error("unknown algorithm '%s' (auto, bs, pttwac, "
                               "pipt, oop)",
                               v);
    } else if (strcmp(opt, "--timer") == 0) {
        if (strcmp(v, "event") && strcmp(v, "wall"))
            return usage_error("unknown timer '%s' (event, wall)", v);
        o->timer = v[0] == 'e' ? BENCH_TIMER_EVENT : BENCH_TIMER_WALL;
    }
    return -1;
}

static int check(const cli *c)
{
    const bench_marshal_opts *o = &c->m;
    if (!c->have_from || !c->have_to)
        return usage_error("%s", "--from and --to are required");
    if (!c->have_nfields || !c->have_elem || !c->have_count)
        return usage_error("%s", "--struct, --elem and --count are required");
    if (o->nfields == 0 || o->nfields > DL_MAX_FIELDS)
        return usage_error("%s", "--struct must be between 1 and 4096");
    if (o->elem != 1 && o->elem != 2 && o->elem != 4 && o->elem != 8 &&
        o->elem != 16)
        return usage_error("%s", "--elem must be 1, 2, 4, 8 or 16");
    if (o->count == 0)
        return usage_error("%s", "--count must be at least 1");
    if (o->reps == 0 || o->reps > 1000000)
        return usage_error("%s", "--reps must be between 1 and 1000000");
    if ((o->from == BENCH_ASTA || o->to == BENCH_ASTA) && !c->have_tile)
        return usage_error("%s", "--tile is required when a side is asta");
    if (c->have_tile && o->tile == 0)
        return usage_error("%s", "--tile must be at least 1");
    if (o->count > SIZE_MAX / (o->nfields * o->elem))
        return usage_error("%s", "--count * --struct * --elem overflows");
    return -1;
}

enum {
    OPT_FROM = 0x100,
    OPT_TO,
    OPT_STRUCT,
    OPT_ELEM,
    OPT_TILE,
    OPT_COUNT,
    OPT_ALGO,
    OPT_REPS,
    OPT_TIMER,
    OPT_NO_HEADER
};

static const struct option options[] = {
    {"from", required_argument, NULL, OPT_FROM},
    {"to", required_argument, NULL, OPT_TO},
    {"struct", required_argument, NULL, OPT_STRUCT},
    {"elem", required_argument, NULL, OPT_ELEM},
    {"tile", required_argument, NULL, OPT_TILE},
    {"count", required_argument, NULL, OPT_COUNT},
    {"algo", required_argument, NULL, OPT_ALGO},
    {"reps", required_argument, NULL, OPT_REPS},
    {"timer", required_argument, NULL, OPT_TIMER},
    {"no-header", no_argument, NULL, OPT_NO_HEADER},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    BENCH_COMMON_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* One option of getopt_long: -1 to go on, else an exit code. */
static int take_option(cli *c, int code, const char *name, const char *v)
{
    char opt[32];
    switch (code) {
    case 'h':
        bench_marshal_usage(stdout);
        return BENCH_EXIT_OK;
    case BENCH_OPT_VERSION:
        bench_print_version();
        return BENCH_EXIT_OK;
    case 'v':
        c->m.verbose = 1;
        return -1;
    case OPT_NO_HEADER:
        c->header = 0;
        return -1;
    case BENCH_OPT_PLATFORM:
    case BENCH_OPT_DEVICE:
        return bench_device_option(code, v, &c->device) ? -1 : BENCH_EXIT_USAGE;
    default:
        snprintf(opt, sizeof opt, "--%s", name);
        return value_option(c, opt, v);
    }
}

/* Returns -1 when the options are complete and valid, else an exit code
 * (0 after --help).  argv[0] is the subcommand's name. */
static int parse(int argc, char **argv, cli *c)
{
    *c = (cli){.header = 1, .device = {DEVICE_PICK_ALL_PLATFORMS, 0}};
    c->m = (bench_marshal_opts){
        .reps = 5, .algo = DL_ALGO_AUTO, .timer = BENCH_TIMER_EVENT};
    opterr = 0; /* our messages, with the usage */
    for (int code, at = 0;
         (code = getopt_long(argc, argv, ":hv", options, &at)) != -1;) {
        if (code == '?' || code == ':') {
            bench_option_error("marshal", code, argv);
            fputc('\n', stderr);
            bench_marshal_usage(stderr);
            return BENCH_EXIT_USAGE;
        }
        int done = take_option(c, code, options[at].name, optarg);
        if (done >= 0)
            return done;
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    return check(c);
}

int bench_marshal_main(int argc, char **argv)
{
    cli c;
    int code = parse(argc, argv, &c);
    if (code >= 0)
        return code;
    bench_cl cl;
    dl_engine *engine = NULL;
    if (!bench_cl_open_choice(&cl, c.device))
        return BENCH_EXIT_FAIL;
    dl_status st = dl_engine_create(cl.context, cl.device, &engine);
    if (st != DL_SUCCESS) {
        fprintf(stderr, "dl-bench: dl_engine_create failed (%s): %s\n",
                dl_status_name(st), dl_last_error());
        bench_cl_close(&cl);
        return BENCH_EXIT_FAIL;
    }
    bench_marshal_result res;
    code = bench_marshal_measure(&cl, engine, &c.m, &res);
    if (code != BENCH_EXIT_FAIL) {
        if (c.header)
            bench_marshal_print_header(stdout);
        bench_marshal_print_row(stdout, &c.m, &res);
    }
    fflush(stdout);
    dl_engine_release(engine);
    bench_cl_close(&cl);
    return code;
}
