/* bench_script.c - `dl-bench suite` and `dl-bench accept`: they spawn
 * programs, merge CSV, plot and write a report, which a script does best,
 * so dl-bench hands them to dl_bench_suite.py (run by python3), found
 * relative to dl-bench itself: next to it in the build tree, in
 * DL_BENCH_DATA_REL (share/dlayout/bench) when installed. */
#include "bench.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCRIPT "dl_bench_suite.py"

/* The path of this executable and of the script; 0 if the script is not
 * there. */
static int find_script(char self[PATH_MAX], char *script, size_t room)
{
    ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", self);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    static const char *const rels[] = {".", DL_BENCH_DATA_REL};
    for (size_t i = 0; i < sizeof rels / sizeof *rels; i++) {
        if (rels[i][0] == '/')
            snprintf(script, room, "%s/%s", rels[i], SCRIPT);
        else
            snprintf(script, room, "%s/%s/%s", dir, rels[i], SCRIPT);
        if (access(script, R_OK) == 0)
            return 1;
    }
    fprintf(stderr, "dl-bench: %s not found next to %s or in %s\n", SCRIPT,
            self, DL_BENCH_DATA_REL);
    return 0;
}

/* python3 SCRIPT DL_BENCH COMMAND ARGS...; returns only on failure. */
static int run_script(const char *command, int argc, char **argv)
{
    char self[PATH_MAX], script[2 * PATH_MAX];
    if (!find_script(self, script, sizeof script))
        return BENCH_EXIT_FAIL;
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (!args)
        return BENCH_EXIT_FAIL;
    args[0] = "python3";
    args[1] = script;
    args[2] = self;
    args[3] = (char *)command;
    memcpy(args + 4, argv, (size_t)argc * sizeof *argv);
    fflush(NULL);
    execvp(args[0], args);
    perror("dl-bench: cannot run python3");
    free(args);
    return BENCH_EXIT_FAIL;
}

int bench_suite_main(int argc, char **argv)
{
    return run_script("suite", argc, argv);
}

int bench_accept_main(int argc, char **argv)
{
    return run_script("accept", argc, argv);
}

void bench_suite_usage(FILE *out)
{
    fputs("usage: dl-bench suite --out DIR [--quick] [options]\n"
          "The paper's measurements on one device: CSV, plots, report.md.\n"
          "'dl-bench suite --help' lists the options.\n",
          out);
}

void bench_accept_usage(FILE *out)
{
    fputs("usage: dl-bench accept --out DIR [--quick] [options]\n"
          "Whole programs, plain and under dl-run, interleaved.\n"
          "'dl-bench accept --help' lists the options.\n",
          out);
}
