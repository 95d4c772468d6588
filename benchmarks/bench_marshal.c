/* bench_marshal.c - `dl-bench marshal`: the options of one measurement
 * (bench_measure.c does the work) and its CSV row. */
#include "bench.h"
#include "bench_marshal.h"

#include <stdint.h>
#include <string.h>

void bench_marshal_usage(FILE *out)
{
    fputs(
        "usage: dl-bench marshal --from L --to L --struct S --elem BYTES\n"
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
        "  --device N       index into 'dl-bench devices' (default 0)\n"
        "  --timer K        event (device profiling, default) or wall\n"
        "  --no-header      print only the row\n"
        "  --verbose        per-repetition times and both copy baselines\n"
        "                   on stderr\n"
        "  --help           this text\n"
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
    size_t device;
    int header;
    int have_from, have_to, have_nfields, have_elem, have_tile, have_count;
} cli;

static int is_flag(const char *opt)
{
    static const char *const flags[] = {"--help", "-h", "--no-header",
                                        "--verbose", "-v"};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (strcmp(opt, flags[i]) == 0)
            return 1;
    return 0;
}

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
        {"--device", &c->device, NULL},
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
                               "pipt, oop)", v);
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

/* Returns -1 when the options are complete and valid, else an exit code
 * (0 after --help). */
static int parse(int argc, char **argv, cli *c)
{
    *c = (cli){.header = 1};
    c->m = (bench_marshal_opts){.reps = 5, .algo = DL_ALGO_AUTO,
                                .timer = BENCH_TIMER_EVENT};
    bench_args a;
    bench_args_init(&a, "marshal", argc, argv);
    const char *opt, *v;
    static const char *const valued[] = {"--from", "--to", "--struct",
                                         "--elem", "--tile", "--count",
                                         "--algo", "--reps", "--device",
                                         "--timer"};
    while ((opt = bench_args_next(&a))) {
        if (is_flag(opt)) {
            if (a.inline_value)
                return usage_error("option %s takes no value", opt);
            if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
                bench_marshal_usage(stdout);
                return BENCH_EXIT_OK;
            }
            if (strcmp(opt, "--no-header") == 0)
                c->header = 0;
            else
                c->m.verbose = 1;
            continue;
        }
        int known = 0;
        for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
            known |= strcmp(opt, valued[i]) == 0;
        if (!known)
            return usage_error("unknown option '%s'", opt);
        if (!(v = bench_args_value(&a, opt)))
            return usage_error("missing value for %s", opt);
        int code = value_option(c, opt, v);
        if (code >= 0)
            return code;
    }
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
    if (!bench_cl_open(&cl, c.device))
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
