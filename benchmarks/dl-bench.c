/* dl-bench.c - entry point: dispatches to the subcommands.  A new
 * subcommand (suite, calibrate, ...) is one more row in `commands`. */
#include "bench.h"
#include "bench_cl.h"

#include <string.h>

typedef struct command {
    const char *name;
    const char *summary;
    int (*main)(int argc, char **argv); /* argv[0]: the subcommand name */
    void (*usage)(FILE *out);
} command;

/* suite and accept scan the arguments after their name themselves. */
static int suite_main(int argc, char **argv)
{
    return bench_suite_main(argc - 1, argv + 1);
}

static int accept_main(int argc, char **argv)
{
    return bench_accept_main(argc - 1, argv + 1);
}

static const command commands[] = {
    {"marshal", "time one in-place layout conversion (CSV row)",
     bench_marshal_main, bench_marshal_usage},
    {"layout", "the layout microbenchmark for one record size (CSV)",
     bench_layout_main, bench_layout_usage},
    {"suite", "run the benchmark suite: CSV, plots and report.md", suite_main,
     bench_suite_usage},
    {"calibrate", "measure this device for the adaptive control",
     bench_calibrate_main, bench_calibrate_usage},
    {"accept", "acceptance: whole programs plain vs dl-run, interleaved",
     accept_main, bench_accept_usage},
    {"coalesce", "memory transactions of an index array on disk",
     bench_coalesce_main, bench_coalesce_usage},
    {"irregular", "irregular references: transactions, reordering, times",
     bench_irregular_main, bench_irregular_usage},
    {"devices", "list the OpenCL devices --device indexes", bench_devices_main,
     bench_devices_usage},
};

#define NCOMMANDS (sizeof commands / sizeof *commands)

static void usage(FILE *out)
{
    fputs("usage: dl-bench COMMAND [options]\n"
          "       dl-bench COMMAND --help\n"
          "       dl-bench --version\n\ncommands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nBenchmarks of libdlayout's in-place marshaling; see\n"
          "benchmarks/README.md for the columns and the timing method.\n",
          out);
}

void bench_devices_usage(FILE *out)
{
    fputs("usage: dl-bench devices\n\n"
          "Lists every device of every OpenCL platform as INDEX<TAB>NAME;\n"
          "INDEX is what --device takes without --platform.\n",
          out);
}

int bench_devices_main(int argc, char **argv)
{
    if (argc > 1) {
        int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        if (!help)
            fprintf(stderr, "dl-bench devices: unexpected argument '%s'\n\n",
                    argv[1]);
        bench_devices_usage(help ? stdout : stderr);
        return help ? BENCH_EXIT_OK : BENCH_EXIT_USAGE;
    }
    return bench_cl_list(stdout) < 0 ? BENCH_EXIT_FAIL : BENCH_EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return BENCH_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0) {
        bench_print_version();
        return BENCH_EXIT_OK;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        strcmp(name, "help") == 0) {
        for (size_t i = 0; argc > 2 && i < NCOMMANDS; i++)
            if (strcmp(argv[2], commands[i].name) == 0) {
                commands[i].usage(stdout);
                return BENCH_EXIT_OK;
            }
        usage(stdout);
        return BENCH_EXIT_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return commands[i].main(argc - 1, argv + 1);
    fprintf(stderr, "dl-bench: unknown command '%s'\n\n", name);
    usage(stderr);
    return BENCH_EXIT_USAGE;
}
