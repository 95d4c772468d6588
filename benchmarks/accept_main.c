/* accept_main.c - `dl-bench accept`: options, the tools, the environment
 * every child runs in, and the report (accept.csv, accept.md). */
#include "accept.h"
#include "bench.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void bench_accept_usage(FILE *out)
{
    fputs(
        "usage: dl-bench accept --out DIR [--quick] [--reps R]\n"
        "                       [--apps-dir DIR] [--dl-run PATH]\n"
        "                       [--dl-annotate PATH] [--it-app PATH]\n"
        "\n"
        "The acceptance measurements of the adaptive control (issue 6):\n"
        "the application programs, a 100,000-launch near-empty kernel\n"
        "(annotated and not), annotated test programs, and LBM at a few\n"
        "steps for the break-even, each run plainly and under\n"
        "`dl-run --stats` (DL_POLICY=auto) in interleaved repetitions.\n"
        "Every output must equal the plain run's, byte for byte.  Writes\n"
        "DIR/accept.csv and DIR/accept.md (benchmarks/README.md).\n"
        "\n"
        "  --out DIR          output folder (created if missing)\n"
        "  --quick            small sizes, one repetition: under a minute;\n"
        "                     checks the outputs, its timings mean little\n"
        "  --reps R           timed repetitions (default 5, 1 with --quick)\n"
        "  --apps-dir DIR     dl-app-lbm & co. (default: next to dl-bench)\n"
        "  --dl-run PATH      the launcher (default: found next to dl-bench\n"
        "                     or in the build tree)\n"
        "  --dl-annotate PATH likewise\n"
        "  --it-app PATH      tests/integration's dl-it-app (likewise;\n"
        "                     without it those cases are left out)\n"
        "\n"
        "Exit status: 0 every run succeeded with the plain run's output;\n"
        "1 a run failed or an output differed; 2 invalid arguments.\n",
        out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("dl-bench accept: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n\n", stderr);
    bench_accept_usage(stderr);
    return BENCH_EXIT_USAGE;
}

/* ------------------------------------------------------- tool discovery */

/* The first of self_dir/rel that is an executable file, kept in buf. */
static const char *find_tool(const char *const *rels, char *buf,
                             size_t room)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    for (; *rels; rels++) {
        snprintf(buf, room, "%s/%s", slash ? self : ".", *rels);
        struct stat st;
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
            access(buf, X_OK) == 0)
            return buf;
    }
    return NULL;
}

static void discover(accept_ctx *ctx)
{
    static char apps[PATH_MAX + 64], run[PATH_MAX + 64],
        annot[PATH_MAX + 64], it[PATH_MAX + 64];
    if (!ctx->apps_dir) {
        static const char *const rels[] = {"apps/dl-app-lbm", "dl-app-lbm",
                                           NULL};
        if (find_tool(rels, apps, sizeof apps)) {
            *strrchr(apps, '/') = '\0';
            ctx->apps_dir = apps;
        }
    }
    if (!ctx->dl_run) {
        static const char *const rels[] = {"dl-run", "../interpose/dl-run",
                                           NULL};
        ctx->dl_run = find_tool(rels, run, sizeof run);
    }
    if (!ctx->dl_annotate) {
        static const char *const rels[] = {"dl-annotate",
                                           "../annotate/dl-annotate", NULL};
        ctx->dl_annotate = find_tool(rels, annot, sizeof annot);
    }
    if (!ctx->it_app) {
        static const char *const rels[] = {"../tests/integration/dl-it-app",
                                           NULL};
        ctx->it_app = find_tool(rels, it, sizeof it);
    }
}

static int parse(int argc, char **argv, accept_ctx *ctx)
{
    bench_args a;
    bench_args_init(&a, "accept", argc, argv);
    const char *opt, *v;
    size_t reps = 0;
    int have_reps = 0;
    while ((opt = bench_args_next(&a))) {
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            bench_accept_usage(stdout);
            return BENCH_EXIT_OK;
        }
        if (strcmp(opt, "--quick") == 0) {
            if (a.inline_value)
                return usage_error("option %s takes no value", opt);
            ctx->quick = 1;
            continue;
        }
        static const char *const valued[] = {"--out", "--reps", "--apps-dir",
                                             "--dl-run", "--dl-annotate",
                                             "--it-app"};
        int known = 0;
        for (size_t i = 0; i < sizeof valued / sizeof *valued; i++)
            known |= strcmp(opt, valued[i]) == 0;
        if (!known)
            return usage_error("unknown option '%s'", opt);
        if (!(v = bench_args_value(&a, opt)))
            return usage_error("missing value for %s", opt);
        if (strcmp(opt, "--out") == 0)
            ctx->out_dir = v;
        else if (strcmp(opt, "--apps-dir") == 0)
            ctx->apps_dir = v;
        else if (strcmp(opt, "--dl-run") == 0)
            ctx->dl_run = v;
        else if (strcmp(opt, "--dl-annotate") == 0)
            ctx->dl_annotate = v;
        else if (strcmp(opt, "--it-app") == 0)
            ctx->it_app = v;
        else if (!bench_parse_size(opt, v, &reps))
            return usage_error("invalid value for %s", opt);
        else
            have_reps = 1;
    }
    if (!ctx->out_dir || !*ctx->out_dir)
        return usage_error("%s", "--out DIR is required");
    if (have_reps && (reps == 0 || reps > ACCEPT_MAX_REPS))
        return usage_error("%s", "--reps must be between 1 and 64");
    ctx->reps = have_reps ? reps : ctx->quick ? 1 : 5;
    return -1;
}

/* ----------------------------------------------------- the environment */

/* Copies the device calibrations of the user's cache (if any) into
 * OUT/xdg, so that no measured run calibrates (docs/tuning.md). */
static void copy_calibrations(const char *to_dir)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char from[4200];
    if (xdg && *xdg)
        snprintf(from, sizeof from, "%s/dlayout", xdg);
    else if (home && *home)
        snprintf(from, sizeof from, "%s/.cache/dlayout", home);
    else
        return;
    DIR *d = opendir(from);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (strncmp(ent->d_name, "calibration-", 12) != 0)
            continue;
        char src[4500], dst[4500];
        snprintf(src, sizeof src, "%s/%s", from, ent->d_name);
        snprintf(dst, sizeof dst, "%s/%s", to_dir, ent->d_name);
        FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
        char buf[8192];
        size_t n;
        while (out && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        if (in)
            fclose(in);
        if (out)
            fclose(out);
    }
    closedir(d);
}

/* Every child sees the defaults of every DL_* control (the user's own
 * settings would skew the measurement) and OUT/xdg as its cache. */
static int prepare_env(accept_ctx *ctx)
{
    static const char *const controls[] = {
        "DL_LOG", "DL_LOG_FILE", "DL_STATS", "DL_DISABLE", "DL_DUMP_DIR",
        "DL_BINARY_DIR", "DL_INJECT_DIR", "DL_TILE", "DL_ALGO", "DL_POLICY"};
    char dl[4112]; /* xdg + "/dlayout" */
    snprintf(ctx->xdg, sizeof ctx->xdg, "%s/xdg", ctx->out_dir);
    snprintf(dl, sizeof dl, "%s/dlayout", ctx->xdg);
    snprintf(ctx->cold_dir, sizeof ctx->cold_dir, "%s/binaries", dl);
    snprintf(ctx->warm_dir, sizeof ctx->warm_dir, "%s/bin-warm",
             ctx->out_dir);
    mkdir(ctx->xdg, 0777);
    mkdir(dl, 0777);
    copy_calibrations(dl);
    for (size_t i = 0; i < sizeof controls / sizeof *controls; i++)
        unsetenv(controls[i]);
    return setenv("XDG_CACHE_HOME", ctx->xdg, 1) == 0;
}

/* --------------------------------------------------------------- report */

static double ratio(const accept_case *c, accept_variant v)
{
    return c->ran[v] && c->ran[AV_PLAIN] ? c->wall_ms[v] / c->wall_ms[AV_PLAIN]
                                         : NAN;
}

/* 1 met, 0 not, -1 no goal or not measured. */
static int met(const accept_case *c, accept_variant v)
{
    double r = ratio(c, v);
    if (isnan(r) || !*c->goal)
        return -1;
    if (strcmp(c->goal, ">= 2x") == 0)
        return r <= 0.5;
    return r <= 1.02;
}

static void csv_rows(FILE *f, const accept_case *c)
{
    for (int v = 0; v < AV_COUNT; v++) {
        if (!c->ran[v])
            continue;
        double tr = c->total_ms[v] / c->total_ms[AV_PLAIN];
        fprintf(f, "%s,%s,%s,%zu,%.1f,%.1f,%.1f,", c->group, c->name,
                accept_variant_names[v], c->iterations, c->wall_ms[v],
                c->wall_min[v], c->wall_max[v]);
        if (isnan(c->total_ms[v]))
            fputs("NA,", f);
        else
            fprintf(f, "%.1f,", c->total_ms[v]);
        if (isnan(c->marshal_ms[v]))
            fputs("NA,", f);
        else
            fprintf(f, "%.1f,", c->marshal_ms[v]);
        fprintf(f, "%.4f,", ratio(c, (accept_variant)v));
        if (isnan(tr))
            fputs("NA,", f);
        else
            fprintf(f, "%.4f,", tr);
        int m = v == AV_PLAIN ? -1 : met(c, (accept_variant)v);
        fprintf(f, "%s,%s,%d\n", *c->goal ? c->goal : "NA",
                m < 0 ? "NA" : m ? "1" : "0", c->match);
    }
}

static const char *mark(int m) { return m < 0 ? "-" : m ? "yes" : "**no**"; }

static void md_row(FILE *f, const accept_case *c, accept_variant v)
{
    double plain = c->wall_ms[AV_PLAIN], dl = c->wall_ms[v];
    fprintf(f, "| %s%s | %zu | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.3f "
               "(%.2fx) | %s | %s | %s |\n",
            c->name, v == AV_COLD ? " (cold binary cache)" : "",
            c->iterations, plain, c->wall_min[AV_PLAIN],
            c->wall_max[AV_PLAIN], dl, c->wall_min[v], c->wall_max[v],
            dl / plain, plain / dl, *c->goal ? c->goal : "-",
            mark(met(c, v)), c->match ? "yes" : "**no**");
}

/* qsort: cases by step count. */
static int by_iterations(const void *a, const void *b)
{
    const accept_case *x = *(const accept_case *const *)a;
    const accept_case *y = *(const accept_case *const *)b;
    return (x->iterations > y->iterations) - (x->iterations < y->iterations);
}

/* Break-even: the smallest measured step count from which dl-run's wall
 * time stays at or below plain's for every larger count measured.  Step
 * counts that dl-run ran without converting (the tuner's plain samples)
 * compare the plain program with itself, and do not count. */
static void break_even(FILE *f, const accept_case *cases, size_t n)
{
    const accept_case *rows[24];
    size_t nrows = 0;
    for (size_t i = 0; i < n && nrows < 24; i++)
        if ((strcmp(cases[i].group, "lbm-break-even") == 0 ||
             strcmp(cases[i].name, "lbm") == 0) &&
            cases[i].ran[AV_WARM])
            rows[nrows++] = &cases[i];
    if (!nrows)
        return;
    qsort(rows, nrows, sizeof *rows, by_iterations);
    fputs("\n### LBM break-even (DA chosen by the tuner)\n\n"
          "| steps | plain ms | dl-run ms | speedup (wall) | program "
          "total_ms plain / dl-run | marshal_ms |\n|---|---|---|---|---|---|\n",
          f);
    size_t be = 0;
    for (size_t i = 0; i < nrows; i++) {
        const accept_case *c = rows[i];
        double s = c->wall_ms[AV_PLAIN] / c->wall_ms[AV_WARM];
        fprintf(f, "| %zu | %.0f | %.0f | %.2fx | %.0f / %.0f | %.0f |\n",
                c->iterations, c->wall_ms[AV_PLAIN], c->wall_ms[AV_WARM], s,
                c->total_ms[AV_PLAIN], c->total_ms[AV_WARM],
                c->marshal_ms[AV_WARM]);
        if (strstr(c->stats[AV_WARM], " marshals=0 "))
            continue; /* nothing transformed: noise either way */
        if (s < 1.0)
            be = 0;
        else if (!be)
            be = c->iterations;
    }
    if (be)
        fprintf(f, "\nBreak-even (end to end, wall): **%zu steps** (paper: "
                   "within 4; goal: 2).\n", be);
    else
        fputs("\nBreak-even (end to end, wall): **not reached** within the "
              "measured steps.\n", f);
}

static int write_report(accept_ctx *ctx, accept_case *cases, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/accept.csv", ctx->out_dir);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/accept.md", ctx->out_dir);
    FILE *md = fopen(path, "w");
    if (!csv || !md) {
        perror(path);
        if (csv)
            fclose(csv);
        if (md)
            fclose(md);
        return 0;
    }
    fputs("group,case,variant,iterations,wall_ms,wall_ms_min,wall_ms_max,"
          "total_ms,marshal_ms,ratio_wall,ratio_total,goal,met,verified\n",
          csv);
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    double load[1] = {NAN};
    FILE *la = fopen("/proc/loadavg", "r");
    if (la) {
        if (fscanf(la, "%lf", &load[0]) != 1)
            load[0] = NAN;
        fclose(la);
    }
    fprintf(md, "# dlayout acceptance (issue 6), %s\n\n"
                "`dl-bench accept%s`, %zu interleaved repetitions (plain, "
                "dl-run, plain, dl-run, ...; %d times as many for programs "
                "under %.1f s), medians; %s; load average at "
                "the end %.2f on %ld CPUs.  Wall = the whole process, from "
                "spawn to exit, every conversion and program build "
                "included; ratio = dl-run / plain (below 1: dl-run is "
                "faster).  dl-run runs `dl-run --stats` with every DL_* "
                "control at its default (DL_POLICY=auto) and a warm binary "
                "cache, except the rows marked cold (default cache emptied "
                "before each run).  Every output, stdout and the result "
                "bytes, is compared with the plain run's.\n\n"
                "| case | iterations | plain ms (min-max) | dl-run ms "
                "(min-max) | ratio (speedup) | goal | met | same output |\n"
                "|---|---|---|---|---|---|---|---|\n",
            when, ctx->quick ? " --quick" : "", ctx->reps,
            ACCEPT_SHORT_FACTOR, ACCEPT_SHORT_MS / 1000.0,
            ctx->quick ? "**--quick: small sizes, timings not meaningful**"
                       : "full sizes (LBM 120x120x150, SpMV bcsstk31, "
                         "Black-Scholes 4M options)",
            load[0], sysconf(_SC_NPROCESSORS_ONLN));
    for (size_t i = 0; i < n; i++) {
        const accept_case *c = &cases[i];
        csv_rows(csv, c);
        if (strcmp(c->group, "lbm-break-even") == 0 || !c->ran[AV_WARM])
            continue;
        md_row(md, c, AV_WARM);
        if (c->ran[AV_COLD])
            md_row(md, c, AV_COLD);
    }
    break_even(md, cases, n);
    fputs("\n### dlayout-stats of the last dl-run of each case\n\n", md);
    for (size_t i = 0; i < n; i++)
        for (int v = AV_WARM; v < AV_COUNT; v++)
            if (cases[i].ran[v] && cases[i].stats[v][0])
                fprintf(md, "- %s %s: `%s`\n", cases[i].name,
                        accept_variant_names[v], cases[i].stats[v]);
    int ok = !ferror(csv) && !ferror(md);
    ok = (fclose(csv) == 0) && ok;
    ok = (fclose(md) == 0) && ok;
    if (!ok)
        fprintf(stderr, "dl-bench accept: writing the report failed\n");
    return ok;
}

int bench_accept_main(int argc, char **argv)
{
    static accept_ctx ctx; /* zeroed */
    int rc = parse(argc, argv, &ctx);
    if (rc >= 0)
        return rc;
    discover(&ctx);
    const char *missing = !ctx.apps_dir      ? "the application programs"
                          : !ctx.dl_run      ? "dl-run"
                          : !ctx.dl_annotate ? "dl-annotate"
                                             : NULL;
    if (missing) {
        fprintf(stderr, "dl-bench accept: %s not found (see --help)\n",
                missing);
        return BENCH_EXIT_FAIL;
    }
    mkdir(ctx.out_dir, 0777);
    if (!prepare_env(&ctx)) {
        perror("dl-bench accept: setenv");
        return BENCH_EXIT_FAIL;
    }
    static accept_case cases[24];
    size_t n = accept_cases(&ctx, cases, sizeof cases / sizeof *cases);
    if (!n)
        return BENCH_EXIT_FAIL;
    for (size_t i = 0; i < n; i++)
        (void)accept_measure(&ctx, &cases[i]);
    if (!write_report(&ctx, cases, n))
        return BENCH_EXIT_FAIL;
    fprintf(stderr, "dl-bench accept: %s/accept.md, %s/accept.csv%s\n",
            ctx.out_dir, ctx.out_dir,
            ctx.failures ? " (some runs failed or differed)" : "");
    return ctx.failures ? BENCH_EXIT_FAIL : BENCH_EXIT_OK;
}
