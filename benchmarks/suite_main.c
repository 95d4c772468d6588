/* suite_main.c - `dl-bench suite`: options, the device, the copy
 * bandwidth of the run, the parts in order and the report around them. */
#include "bench.h"
#include "suite.h"
#include "suite_spawn.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void bench_suite_usage(FILE *out)
{
    fputs(
        "usage: dl-bench suite --out DIR [--quick] [--device N] [--reps R]\n"
        "                      [--apps-dir DIR] [--dl-run PATH]\n"
        "                      [--dl-annotate PATH]\n"
        "\n"
        "Runs the benchmark suite (benchmarks/README.md) and writes\n"
        "DIR/*.csv, DIR/*.png (gnuplot) and DIR/report.md.\n"
        "\n"
        "  --out DIR          output folder (created if missing)\n"
        "  --quick            small sizes: every part in about a minute\n"
        "  --device N         index into 'dl-bench devices' (default 0)\n"
        "  --reps R           timed repetitions per figure (default 5,\n"
        "                     3 with --quick)\n"
        "  --apps-dir DIR     where dl-app-lbm & co. and their .cl files are\n"
        "                     (default: next to dl-bench, or its apps/)\n"
        "  --dl-run PATH      the dl-run launcher (default: found next to\n"
        "                     dl-bench or in the build tree)\n"
        "  --dl-annotate PATH dl-annotate (likewise)\n"
        "  --help             this text\n"
        "\n"
        "Exit status: 0 every figure verified and every file written;\n"
        "1 a part failed or a result did not match its host reference;\n"
        "2 invalid arguments.\n",
        out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("dl-bench suite: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    bench_suite_usage(stderr);
    return BENCH_EXIT_USAGE;
}

/* ------------------------------------------------------- tool discovery */

static int executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, X_OK) == 0;
}

/* The folder of /proc/self/exe, e.g. <build>/benchmarks or <prefix>/bin. */
static void self_dir(char *out, size_t room)
{
    ssize_t n = readlink("/proc/self/exe", out, room - 1);
    out[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(out, room, ".");
}

/* First of dir/rel for rel in rels that is an executable file, copied into
 * a static buffer; NULL if none. */
static const char *find_tool(const char *dir, const char *const *rels,
                             char *buf, size_t room)
{
    for (; *rels; rels++) {
        snprintf(buf, room, "%s/%s", dir, *rels);
        if (executable_file(buf))
            return buf;
    }
    return NULL;
}

static void discover(suite *s)
{
    static char self[PATH_MAX], apps[PATH_MAX + 64], run[PATH_MAX + 64],
        annot[PATH_MAX + 64];
    self_dir(self, sizeof self);
    if (!s->apps_dir) {
        static const char *const rels[] = {"apps/dl-app-lbm", "dl-app-lbm",
                                           NULL};
        if (find_tool(self, rels, apps, sizeof apps)) {
            *strrchr(apps, '/') = '\0';
            s->apps_dir = apps;
        }
    }
    if (!s->dl_run) {
        static const char *const rels[] = {"dl-run", "../interpose/dl-run",
                                           NULL};
        s->dl_run = find_tool(self, rels, run, sizeof run);
    }
    if (!s->dl_annotate) {
        static const char *const rels[] = {"dl-annotate",
                                           "../annotate/dl-annotate", NULL};
        s->dl_annotate = find_tool(self, rels, annot, sizeof annot);
    }
}

/* --------------------------------------------------------------- options */

typedef struct cli {
    size_t device, reps;
    int have_reps;
} cli;

static int parse(int argc, char **argv, suite *s, cli *c)
{
    bench_args a;
    bench_args_init(&a, "suite", argc, argv);
    const char *opt, *v;
    while ((opt = bench_args_next(&a))) {
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            bench_suite_usage(stdout);
            return BENCH_EXIT_OK;
        }
        if (strcmp(opt, "--quick") == 0) {
            if (a.inline_value)
                return usage_error("option %s takes no value", opt);
            s->quick = 1;
            continue;
        }
        static const char *const valued[] = {"--out", "--device", "--reps",
                                             "--apps-dir", "--dl-run",
                                             "--dl-annotate"};
        int known = 0;
        for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
            known |= strcmp(opt, valued[i]) == 0;
        if (!known)
            return usage_error("unknown option '%s'", opt);
        if (!(v = bench_args_value(&a, opt)))
            return usage_error("missing value for %s", opt);
        if (strcmp(opt, "--out") == 0)
            s->out_dir = v;
        else if (strcmp(opt, "--apps-dir") == 0)
            s->apps_dir = v;
        else if (strcmp(opt, "--dl-run") == 0)
            s->dl_run = v;
        else if (strcmp(opt, "--dl-annotate") == 0)
            s->dl_annotate = v;
        else if (!bench_parse_size(opt, v, strcmp(opt, "--reps") == 0
                                               ? &c->reps : &c->device))
            return usage_error("invalid value for %s", opt);
        else if (strcmp(opt, "--reps") == 0)
            c->have_reps = 1;
    }
    if (!s->out_dir || !*s->out_dir)
        return usage_error("%s", "--out DIR is required");
    if (c->have_reps && (c->reps == 0 || c->reps > 1000))
        return usage_error("%s", "--reps must be between 1 and 1000");
    s->reps = c->have_reps ? c->reps : s->quick ? 3 : 5;
    return -1;
}

/* ----------------------------------------------------------- the run */

/* The copy bandwidth of the report header: 64 MiB (1 MiB with --quick),
 * the better of clEnqueueCopyBuffer and copy.cl, median of the reps. */
static int measure_copy(suite *s)
{
    size_t bytes = s->quick ? (size_t)1 << 20 : (size_t)64 << 20;
    cl_int err;
    cl_mem a = clCreateBuffer(s->cl.context, CL_MEM_READ_WRITE, bytes, NULL,
                              &err);
    cl_mem b = err == CL_SUCCESS ? clCreateBuffer(s->cl.context,
                                                  CL_MEM_READ_WRITE, bytes,
                                                  NULL, &err) : NULL;
    double tb[1000], tk[1000], dummy;
    int ok = bench_cl_ok(err, "clCreateBuffer") && bench_copy_prepare(&s->cl);
    bench_copy copy = {&s->cl, a, b, bytes};
    const cl_uint zero = 0;
    ok = ok && bench_cl_ok(clEnqueueFillBuffer(s->cl.queue, a, &zero,
                                               sizeof zero, 0, bytes, 0, NULL,
                                               NULL), "clEnqueueFillBuffer");
    /* warm-up: first touch of both buffers */
    ok = ok && bench_cl_time(&s->cl, BENCH_TIMER_WALL, bench_copy_kernel,
                             &copy, &dummy);
    for (size_t r = 0; r < s->reps && ok; r++)
        ok = bench_cl_time(&s->cl, BENCH_TIMER_EVENT, bench_copy_buffer,
                           &copy, &tb[r]) &&
             bench_cl_time(&s->cl, BENCH_TIMER_EVENT, bench_copy_kernel,
                           &copy, &tk[r]);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    if (!ok)
        return 0;
    suite_stat sb = suite_stats(tb, s->reps), sk = suite_stats(tk, s->reps);
    suite_stat *best = sb.median < sk.median ? &sb : &sk;
    double twice = 2.0 * (double)bytes;
    s->copy_gbps = twice / best->median / 1e9;
    s->copy_min = twice / best->max / 1e9;
    s->copy_max = twice / best->min / 1e9;
    return 1;
}

static int detect_gnuplot(void)
{
    static const char *const terms[] = {"set terminal pngcairo",
                                        "set terminal png"};
    for (int i = 0; i < 2; i++) {
        const char *argv[] = {"gnuplot", "-e", terms[i], NULL};
        suite_child c = {.argv = argv};
        int rc = suite_spawn(&c);
        int clean = rc == 0 && !strstr(c.err, "unknown") &&
                    !strstr(c.err, "rror");
        suite_child_free(&c);
        if (clean)
            return i + 1;
    }
    return 0;
}

static double load_average(void)
{
    double load[1] = {-1.0};
    return getloadavg(load, 1) == 1 ? load[0] : -1.0;
}

static void report_head(suite *s)
{
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    FILE *r = s->report;
    fprintf(r, "# dl-bench suite report\n\n"
               "* device: %s (%u compute units)\n* date: %s\n"
               "* mode: %s, %zu timed repetitions per figure (median "
               "reported; min-max in the CSV files)\n"
               "* host load average (1 min) at the start: %.2f on %ld "
               "online CPUs (other processes compete with the device "
               "threads; the end of the report gives the value at the end)\n"
               "* copy bandwidth of this run: %.2f GB/s (median; %.2f-%.2f), "
               "the better of clEnqueueCopyBuffer and a vectorised copy "
               "kernel, counting bytes read + written\n\n"
               "Every conversion and every microbenchmark result below was "
               "checked against a host reference; an unverified figure is "
               "shown as `unverified`, never as a number. Each marshaling "
               "figure's ratio is to the copy bandwidth measured "
               "interleaved with that figure (same bytes, same moment), so "
               "ratios stay comparable on a loaded machine while absolute "
               "GB/s do not.\n",
            s->cl.name, s->cl.compute_units, date,
            s->quick ? "`--quick` (small sizes: figures are not "
                       "representative)" : "full",
            s->reps, load_average(), sysconf(_SC_NPROCESSORS_ONLN),
            s->copy_gbps, s->copy_min, s->copy_max);
}

static void report_targets(suite *s)
{
    FILE *r = s->report;
    fputs("\n## Targets\n\nIssue 2's copy-ratio targets (POCL on the 2-core "
          "development machine) and issue 5's application and spread "
          "targets.\n\n| target | goal | this run | status |\n"
          "|---|---|---|---|\n", r);
    for (size_t i = 0; i < s->ntargets; i++) {
        suite_target *t = &s->targets[i];
        fprintf(r, "| %s | %s | %s | %s |\n", t->name, t->goal, t->reached,
                t->status > 0 ? "met" : t->status == 0 ? "**not met**"
                                                       : "not measured");
    }
}

static int run_parts(suite *s)
{
    int ok = 1;
    s->part = 1;
    s->part_name = "layout microbenchmark";
    if (!suite_layout_run(s)) {
        ok = 0;
        s->failures++;
    }
    if (!suite_marshal_run(s)) {
        ok = 0;
        s->failures++;
    }
    s->part = 6;
    s->part_name = "applications";
    if (!suite_apps_run(s)) {
        ok = 0;
        s->failures++;
    }
    suite_progress_done(s);
    return ok;
}

int bench_suite_main(int argc, char **argv)
{
    static suite s; /* large (targets); zeroed */
    memset(&s, 0, sizeof s);
    cli c = {0, 0, 0};
    int code = parse(argc, argv, &s, &c);
    if (code >= 0)
        return code;
    if (mkdir(s.out_dir, 0777) != 0 && errno != EEXIST) {
        perror(s.out_dir);
        return BENCH_EXIT_FAIL;
    }
    discover(&s);
    s.gnuplot = detect_gnuplot();
    if (!s.gnuplot)
        fputs("dl-bench suite: gnuplot (with the pngcairo or png terminal) "
              "not found: no plots (Debian: apt-get install gnuplot-nox)\n",
              stderr);
    if (!bench_cl_open(&s.cl, c.device))
        return BENCH_EXIT_FAIL;
    dl_status st = dl_engine_create(s.cl.context, s.cl.device, &s.engine);
    if (st != DL_SUCCESS) {
        fprintf(stderr, "dl-bench suite: dl_engine_create failed (%s): %s\n",
                dl_status_name(st), dl_last_error());
        bench_cl_close(&s.cl);
        return BENCH_EXIT_FAIL;
    }
    int ok = (s.report = suite_open(&s, "report.md")) != NULL;
    if (ok && !measure_copy(&s)) {
        fputs("dl-bench suite: the copy baseline failed\n", stderr);
        ok = 0;
    }
    if (ok) {
        report_head(&s);
        ok = run_parts(&s);
        report_targets(&s);
        fprintf(s.report, "\n---\nProduced by `dl-bench suite%s --out %s`; "
                          "load average (1 min) at the end: %.2f.\n",
                s.quick ? " --quick" : "", s.out_dir, load_average());
    }
    if (s.report)
        ok = suite_close(s.report, "report.md") && ok;
    dl_engine_release(s.engine);
    bench_cl_close(&s.cl);
    if (s.unverified)
        fprintf(stderr, "dl-bench suite: %zu result(s) did not match the "
                        "host reference\n", s.unverified);
    fprintf(stderr, "dl-bench suite: %s (%s/report.md)\n",
            ok && !s.unverified ? "done" : "FAILED", s.out_dir);
    return ok && !s.unverified ? BENCH_EXIT_OK : BENCH_EXIT_FAIL;
}
