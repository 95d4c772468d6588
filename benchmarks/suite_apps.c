/* suite_apps.c - part 6 of `dl-bench suite`: the three application programs
 * (benchmarks/apps) run plainly and, when dl-annotate and dl-run exist,
 * annotated and under `dl-run --stats` (DL paper, Figures 5 and 6).
 *
 * The programs are ordinary OpenCL hosts, so they run as child processes:
 * one digest line on stdout, a timing line on stderr (kernel_ms = the sum
 * of their kernel events), the raw output bytes in --output.  Every run's
 * output is compared byte for byte with the plain run of the same size. */
#include "suite.h"
#include "suite_spawn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ITERS 12
#define MAX_ARGS 24

typedef struct app {
    const char *name;   /* lbm, spmv, blackscholes       */
    const char *prog;   /* dl-app-lbm                     */
    const char *kernel; /* lbm.cl                         */
    const char *iter_opt; /* --steps / --iters            */
    const char *args_quick[8], *args_full[8];
    const char *defines_quick, *defines_full; /* for dl-annotate */
    /* The user's `//DL:` lines for scalar arrays (docs/annotations.md),
     * added before the kernel when its file has none; NULL for struct
     * pointers, which dl-annotate finds by itself. */
    const char *user_quick, *user_full;
    size_t iters_full[MAX_ITERS], iters_quick[MAX_ITERS]; /* 0-ended */
} app;

static const app apps[] = {
    {"lbm", "dl-app-lbm", "lbm.cl", "--steps",
     {"--nx", "24", "--ny", "16", "--nz", "20", NULL},
     {"--nx", "120", "--ny", "120", "--nz", "150", NULL},
     "-DNX=24 -DNY=16 -DNZ=20 -DOMEGA=1.5f",
     "-DNX=120 -DNY=120 -DNZ=150 -DOMEGA=1.5f",
     "//DL: AoS: src[7680][20]\n//DL: AoS: dst[7680][20]\n",
     "//DL: AoS: src[2160000][20]\n//DL: AoS: dst[2160000][20]\n",
     {1, 4, 20, 100, 0}, {1, 3, 0}},
    {"spmv", "dl-app-spmv", "spmv.cl", "--iters",
     {"--rows", "3000", "--k", "40", NULL},
     {"--shape", "bcsstk31", NULL},
     "-DROWS=3000 -DK=40", "-DROWS=35588 -DK=197",
     "//DL: AoS: val[3000][40]\n//DL: AoS: col[3000][40]\n",
     "//DL: AoS: val[35588][197]\n//DL: AoS: col[35588][197]\n",
     {1, 2, 4, 8, 16, 30, 0}, {1, 3, 0}},
    {"blackscholes", "dl-app-blackscholes", "blackscholes.cl", "--iters",
     {"--options", "16384", NULL},
     {"--options", "4194304", NULL},
     "-DNOPT=16384", "-DNOPT=4194304", NULL, NULL,
     {1, 2, 4, 8, 16, 30, 0}, {1, 3, 0}},
};
#define NAPPS (sizeof apps / sizeof *apps)

/* What runs: the program as shipped, the hand-written DA LBM, and for each
 * dl-annotate target the annotated kernel without dlayout (it must run as
 * written) and under `dl-run --stats`. */
typedef enum mode { PLAIN, HAND_DA, ANNOTATED, DLRUN } mode;
static const char *const mode_names[] = {"plain", "hand-da", "annotated",
                                         "dl-run"};
/* dl-annotate --layout targets; --quick runs only the first. */
static const char *const targets[] = {"asta", "da"};
#define NTARGETS 2

/* One (app, iterations, mode) cell: medians over the repetitions. */
typedef struct run_stat {
    int ran, match; /* ran: every repetition exited 0 */
    suite_stat kernel_ms, total_ms;
    double marshal_ms; /* from dlayout-stats, median */
    char stats[512];   /* the last dlayout-stats line */
} run_stat;

typedef struct ctx {
    suite *s;
    const app *a;
    char dir[4096];                      /* DIR/apps                   */
    char kernel_dl[NTARGETS][4200];      /* annotated kernel per target */
    char ref_out[4200];                  /* plain output of this size  */
    char *ref_digest;                    /* its stdout                 */
} ctx;

/* Runs the app `reps` times in mode m (target t for the dlayout modes)
 * for `iters` iterations; every output is compared with the plain run. */
static int run_mode(ctx *c, mode m, int t, size_t iters, size_t reps,
                    run_stat *rs)
{
    suite *s = c->s;
    const app *a = c->a;
    char prog[4200], n[32], out[4300], label[32];
    snprintf(prog, sizeof prog, "%s/%s", s->apps_dir, a->prog);
    snprintf(n, sizeof n, "%zu", iters);
    snprintf(label, sizeof label, "%s%s%s", mode_names[m],
             m >= ANNOTATED ? "-" : "", m >= ANNOTATED ? targets[t] : "");
    snprintf(out, sizeof out, "%s/%s-%s.bin", c->dir, a->name, label);
    const char *argv[MAX_ARGS];
    size_t k = 0;
    if (m == DLRUN) {
        argv[k++] = s->dl_run;
        argv[k++] = "--stats";
        argv[k++] = "--";
    }
    argv[k++] = prog;
    for (const char *const *p = s->quick ? a->args_quick : a->args_full; *p;
         p++)
        argv[k++] = *p;
    argv[k++] = a->iter_opt;
    argv[k++] = n;
    argv[k++] = "--output";
    argv[k++] = m == PLAIN ? c->ref_out : out;
    if (m == HAND_DA) {
        argv[k++] = "--layout";
        argv[k++] = "da";
    }
    if (m >= ANNOTATED) {
        argv[k++] = "--kernel";
        argv[k++] = c->kernel_dl[t];
    }
    argv[k] = NULL;

    double kms[64], tms[64], mms[64];
    if (reps > 64)
        reps = 64;
    memset(rs, 0, sizeof *rs);
    rs->match = 1;
    for (size_t r = 0; r < reps; r++) {
        suite_progress(s, "%s %s %s=%zu (%zu/%zu)", a->name, label,
                       a->iter_opt + 2, iters, r + 1, reps);
        suite_child ch = {.argv = argv};
        int rc = suite_spawn(&ch);
        if (rc != 0) {
            fprintf(stderr, "dl-bench suite: %s %s exited with %d:\n%s\n",
                    a->prog, label, rc, ch.err);
            suite_child_free(&ch);
            return 0;
        }
        kms[r] = suite_field(ch.err, "kernel_ms");
        tms[r] = suite_field(ch.err, "total_ms");
        mms[r] = 0.0;
        if (m == PLAIN && r == 0) {
            free(c->ref_digest);
            c->ref_digest = strdup(ch.out);
        } else if (!c->ref_digest || strcmp(ch.out, c->ref_digest) != 0 ||
                   (m != PLAIN && !suite_files_equal(out, c->ref_out))) {
            rs->match = 0;
        }
        if (m == DLRUN) {
            const char *line = strstr(ch.err, "dlayout-stats:");
            mms[r] = line ? suite_field(line, "marshal_ms") : NAN;
            if (line) {
                size_t len = strcspn(line, "\n");
                if (len >= sizeof rs->stats)
                    len = sizeof rs->stats - 1;
                memcpy(rs->stats, line, len);
                rs->stats[len] = '\0';
            }
        }
        suite_child_free(&ch);
        if (isnan(kms[r]) || isnan(tms[r]) || isnan(mms[r])) {
            fprintf(stderr, "dl-bench suite: %s %s printed no %s\n", a->prog,
                    label, isnan(mms[r]) ? "dlayout-stats line with "
                    "marshal_ms" : "kernel_ms and total_ms");
            return 0;
        }
    }
    rs->ran = 1;
    rs->kernel_ms = suite_stats(kms, reps);
    rs->total_ms = suite_stats(tms, reps);
    rs->marshal_ms = suite_stats(mms, reps).median;
    if (!rs->match) {
        fprintf(stderr, "dl-bench suite: %s %s %zu: output differs from the "
                        "plain run\n", a->name, label, iters);
        s->unverified++;
    }
    return 1;
}

/* The kernel file dl-annotate reads: the shipped one, or for scalar-array
 * kernels without annotations a copy with the user's `//DL:` lines put
 * before the first __kernel (what a user of dlayout writes by hand). */
static int annotate_input(ctx *c, char *path, size_t room, char *why,
                          size_t wroom)
{
    suite *s = c->s;
    const char *user = s->quick ? c->a->user_quick : c->a->user_full;
    snprintf(path, room, "%s/%s", s->apps_dir, c->a->kernel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, wroom, "kernel source %.200s not found", path);
        return 0;
    }
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    if (!user || strstr(text, "//DL:") || strstr(text, "// DL:"))
        return 1;
    char *kern = strstr(text, "__kernel");
    if (!kern) {
        snprintf(why, wroom, "no __kernel in %.200s", path);
        return 0;
    }
    snprintf(path, room, "%s/%s.user.cl", c->dir, c->a->name);
    FILE *o = fopen(path, "wb");
    if (!o) {
        snprintf(why, wroom, "cannot write %.200s", path);
        return 0;
    }
    fwrite(text, 1, (size_t)(kern - text), o);
    fputs(user, o);
    fputs(kern, o);
    return suite_close(o, path);
}

/* dl-annotate -D... --layout L SRC -o DIR/apps/NAME.L.cl; 1 on success. */
static int annotate(ctx *c, int t, char *why, size_t room)
{
    suite *s = c->s;
    char src[4200];
    if (!annotate_input(c, src, sizeof src, why, room))
        return 0;
    snprintf(c->kernel_dl[t], sizeof c->kernel_dl[t], "%s/%s.%s.cl", c->dir,
             c->a->name, targets[t]);
    char defs[256];
    snprintf(defs, sizeof defs, "%s",
             s->quick ? c->a->defines_quick : c->a->defines_full);
    const char *argv[MAX_ARGS];
    size_t k = 0;
    argv[k++] = s->dl_annotate;
    for (char *tok = strtok(defs, " "); tok && k < MAX_ARGS - 8;
         tok = strtok(NULL, " "))
        argv[k++] = tok;
    argv[k++] = "--layout";
    argv[k++] = targets[t];
    argv[k++] = src;
    argv[k++] = "-o";
    argv[k++] = c->kernel_dl[t];
    argv[k] = NULL;
    suite_child ch = {.argv = argv};
    int rc = suite_spawn(&ch);
    if (rc != 0)
        snprintf(why, room, "dl-annotate --layout %s exited with %d: %.200s",
                 targets[t], rc, ch.err);
    suite_child_free(&ch);
    return rc == 0;
}

static void csv_row(FILE *csv, const ctx *c, mode m, int t, size_t iters,
                    const run_stat *rs, double net_total, double net_kernel)
{
    fprintf(csv, "%s,%s,%s,%zu,", c->a->name, mode_names[m],
            m >= ANNOTATED ? targets[t] : m == HAND_DA ? "da" : "aos", iters);
    if (!rs->match) {
        fputs("NA,NA,NA,NA,NA,NA,NA,NA,NA,0\n", csv);
        return;
    }
    fprintf(csv, "%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,", rs->kernel_ms.median,
            rs->kernel_ms.min, rs->kernel_ms.max, rs->total_ms.median,
            rs->total_ms.min, rs->total_ms.max);
    if (m == DLRUN)
        fprintf(csv, "%.4f,%.4f,%.4f,1\n", rs->marshal_ms, net_total,
                net_kernel);
    else
        fputs("NA,NA,NA,1\n", csv);
}

/* Everything measured for one application and target, for the report. */
typedef struct app_result {
    int ok, annotated[NTARGETS], dlrun[NTARGETS];
    char why[320];             /* why the dlayout runs are missing */
    double kernel_plain, kernel_da;  /* ms per iteration, largest N */
    double kernel_dl[NTARGETS];
    size_t be_total[NTARGETS], be_kernel[NTARGETS]; /* 0: not reached */
    char stats[NTARGETS][512];
} app_result;

/* The compared output files can be large (LBM: 173 MB each); once
 * compared they are of no further use. */
static void remove_outputs(const ctx *c)
{
    char path[4400];
    remove(c->ref_out);
    snprintf(path, sizeof path, "%s/%s-hand-da.bin", c->dir, c->a->name);
    remove(path);
    for (int t = 0; t < NTARGETS; t++)
        for (mode m = ANNOTATED; m <= DLRUN; m++) {
            snprintf(path, sizeof path, "%s/%s-%s-%s.bin", c->dir,
                     c->a->name, mode_names[m], targets[t]);
            remove(path);
        }
}

/* Break-even: the smallest measured N from which the net speedup stays
 * >= 1 at every larger measured N (one lucky N on a noisy host does not
 * count).  Called with increasing N; 0 means "not (yet) reached". */
static size_t break_even_step(size_t so_far, size_t n, double net)
{
    if (!(net >= 1.0))
        return 0;
    return so_far ? so_far : n;
}

static int ntargets(const suite *s) { return s->quick ? 1 : NTARGETS; }

static int run_app(ctx *c, FILE *csv, FILE *net, app_result *res)
{
    suite *s = c->s;
    const app *a = c->a;
    snprintf(c->ref_out, sizeof c->ref_out, "%s/%s-plain.bin", c->dir,
             a->name);
    int tools = s->dl_run && s->dl_annotate;
    if (!tools)
        snprintf(res->why, sizeof res->why, "%s",
                 !s->dl_annotate && !s->dl_run ? "dl-annotate and dl-run "
                 "not found" : !s->dl_annotate ? "dl-annotate not found"
                 : "dl-run not found");
    for (int t = 0; tools && t < ntargets(s); t++)
        res->annotated[t] = annotate(c, t, res->why, sizeof res->why);
    const size_t *iters = s->quick ? a->iters_quick : a->iters_full;
    size_t reps = s->quick ? 1 : 2; /* LBM runs take ~20 s each here */
    /* apps_net.dat: one block per (app, target) for plot/apps.gp */
    static char block[NTARGETS][4096];
    for (int t = 0; t < NTARGETS; t++)
        snprintf(block[t], sizeof block[t], "\"%s %s\"\n", a->name,
                 targets[t]);
    for (size_t i = 0; iters[i]; i++) {
        size_t n = iters[i];
        run_stat plain, da, ann, dl;
        if (!run_mode(c, PLAIN, 0, n, reps, &plain))
            return 0;
        csv_row(csv, c, PLAIN, 0, n, &plain, NAN, NAN);
        res->kernel_plain = plain.kernel_ms.median / (double)n;
        if (strcmp(a->name, "lbm") == 0) {
            if (!run_mode(c, HAND_DA, 0, n, reps, &da))
                return 0;
            csv_row(csv, c, HAND_DA, 0, n, &da, NAN, NAN);
            if (da.match)
                res->kernel_da = da.kernel_ms.median / (double)n;
        }
        for (int t = 0; t < ntargets(s); t++) {
            if (!res->annotated[t])
                continue;
            if (!run_mode(c, ANNOTATED, t, n, 1, &ann) ||
                !run_mode(c, DLRUN, t, n, reps, &dl))
                return 0;
            double net_total = plain.total_ms.median / dl.total_ms.median;
            double net_kernel = plain.kernel_ms.median /
                                (dl.kernel_ms.median + dl.marshal_ms);
            csv_row(csv, c, ANNOTATED, t, n, &ann, NAN, NAN);
            csv_row(csv, c, DLRUN, t, n, &dl, net_total, net_kernel);
            if (!dl.match || !ann.match)
                continue;
            size_t len = strlen(block[t]);
            snprintf(block[t] + len, sizeof block[t] - len, "%zu %.4f %.4f\n",
                     n, net_total, net_kernel);
            res->be_total[t] = break_even_step(res->be_total[t], n,
                                               net_total);
            res->be_kernel[t] = break_even_step(res->be_kernel[t], n,
                                                net_kernel);
            res->dlrun[t] = 1;
            res->kernel_dl[t] = dl.kernel_ms.median / (double)n;
            memcpy(res->stats[t], dl.stats, sizeof res->stats[t]);
        }
    }
    for (int t = 0; t < ntargets(s); t++)
        if (res->dlrun[t])
            fprintf(net, "%s\n\n", block[t]);
    remove_outputs(c);
    res->ok = 1;
    /* With both tools present, a failed annotation is a failure of the
     * toolchain under test, not a reason to skip quietly. */
    for (int t = 0; tools && t < ntargets(s); t++)
        if (!res->annotated[t]) {
            fprintf(stderr, "dl-bench suite: %s: %s\n", a->name, res->why);
            return 0;
        }
    return 1;
}

static void break_even(FILE *r, size_t n)
{
    if (n)
        fprintf(r, " %zu |", n);
    else
        fputs(" not reached |", r);
}

static void report(suite *s, app_result res[NAPPS], int any)
{
    FILE *r = s->report;
    fprintf(r, "\n## 6. Applications (Figures 5 and 6)\n\n"
               "The three ordinary OpenCL programs of benchmarks/apps, run "
               "as child processes (%s). Every run's output bytes and digest "
               "line are compared with the plain run of the same size and "
               "iteration count. `ms/iter` is the programs' own sum of kernel "
               "events per iteration at the largest iteration count. For "
               "the dlayout runs the kernel was annotated by `dl-annotate "
               "--layout L` (LBM and SpMV, which use scalar arrays, get the "
               "user's `//DL: AoS: a[M][S]` line first) and run under "
               "`dl-run --stats`. Two net speedups are reported (CSV: "
               "`apps.csv`): **end to end** = plain total_ms / dlayout "
               "total_ms (the programs' wall time from the first upload to "
               "the last read-back, so it includes dlayout's conversions, "
               "restores and its one-time marshaling-kernel builds); "
               "**kernel + marshal** = plain kernel time / (dlayout kernel "
               "time + the runtime's marshal_ms, its host time in "
               "conversions, plan builds included). Break-even: the "
               "smallest measured iteration count (%s) from which the net "
               "speedup stays at 1 or above for every larger count "
               "measured.\n\n",
            s->quick ? "`--quick`: small sizes, 1 and 3 iterations"
                     : "full sizes, LBM 120x120x150, SpMV bcsstk31, "
                       "Black-Scholes 4M options",
            s->quick ? "1, 3" : "1, 2, 4, 8, 16, 30; LBM 1, 4, 20, 100");
    fputs("| app | plain ms/iter | hand-written DA ms/iter |\n"
          "|---|---|---|\n", r);
    for (size_t i = 0; i < NAPPS; i++) {
        if (!res[i].ok) {
            fprintf(r, "| %s | failed | |\n", apps[i].name);
            continue;
        }
        fprintf(r, "| %s | %.3f |", apps[i].name, res[i].kernel_plain);
        if (res[i].kernel_da > 0)
            fprintf(r, " %.3f (%.2fx) |\n", res[i].kernel_da,
                    res[i].kernel_plain / res[i].kernel_da);
        else
            fputs(" - |\n", r);
    }
    if (!any) {
        fprintf(r, "\nNot run under dlayout: %s.\n", res[0].why);
        suite_target_add(s, "break-even iterations, AoS->ASTA apps",
                         "<= 4 (paper)", -1, "%s", res[0].why);
        return;
    }
    fputs("\n| app | target | dlayout ms/iter (kernel-only speedup) | "
          "break-even end to end | break-even kernel + marshal | "
          "dlayout-stats (largest N) |\n|---|---|---|---|---|---|\n", r);
    size_t worst = 0;
    int all = 1;
    for (size_t i = 0; i < NAPPS; i++)
        for (int t = 0; t < ntargets(s); t++) {
            app_result *x = &res[i];
            fprintf(r, "| %s | %s |", apps[i].name, targets[t]);
            if (!x->dlrun[t]) {
                fprintf(r, " not run: %s | | | |\n",
                        x->annotated[t] ? "a run failed" : x->why);
                all = t ? all : 0;
                continue;
            }
            fprintf(r, " %.3f (%.2fx) |", x->kernel_dl[t],
                    x->kernel_plain / x->kernel_dl[t]);
            break_even(r, x->be_total[t]);
            break_even(r, x->be_kernel[t]);
            fprintf(r, " `%s` |\n", x->stats[t]);
            if (t == 0) {
                if (!x->be_total[t])
                    all = 0;
                else if (x->be_total[t] > worst)
                    worst = x->be_total[t];
            }
        }
    suite_plot(s, "apps.gp", "apps.png",
               "Net speedup against iterations (solid: end to end; "
               "dashed: kernel + marshal)");
    if (!all)
        suite_target_add(s, "break-even iterations, AoS->ASTA apps (end to "
                         "end)", "<= 4 (paper)", 0, "some app did not break "
                         "even within the measured range");
    else
        suite_target_add(s, "break-even iterations, AoS->ASTA apps (end to "
                         "end)", "<= 4 (paper)", worst <= 4, "worst %zu",
                         worst);
}

int suite_apps_run(suite *s)
{
    FILE *r = s->report;
    if (!s->apps_dir) {
        fputs("\n## 6. Applications\n\nNot run: dl-app-lbm & co. not found "
              "(give --apps-dir).\n", r);
        suite_target_add(s, "break-even iterations, AoS->ASTA apps",
                         "<= 4 (paper)", -1, "applications not found");
        return 0;
    }
    ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    snprintf(c.dir, sizeof c.dir, "%s/apps", s->out_dir);
    mkdir(c.dir, 0777);
    FILE *csv = suite_open(s, "apps.csv");
    FILE *net = suite_open(s, "apps_net.dat");
    if (!csv || !net) {
        if (csv)
            fclose(csv);
        if (net)
            fclose(net);
        return 0;
    }
    fputs("app,mode,layout,iterations,kernel_ms,kernel_ms_min,kernel_ms_max,"
          "total_ms,total_ms_min,total_ms_max,marshal_ms,net_end_to_end,"
          "net_kernel_marshal,verified\n", csv);
    static app_result res[NAPPS];
    memset(res, 0, sizeof res);
    int ok = 1, any = 0;
    for (size_t i = 0; i < NAPPS; i++) {
        c.a = &apps[i];
        if (!run_app(&c, csv, net, &res[i]))
            ok = 0;
        for (int t = 0; t < NTARGETS; t++)
            any |= res[i].dlrun[t];
    }
    free(c.ref_digest);
    ok = suite_close(csv, "apps.csv") && ok;
    ok = suite_close(net, "apps_net.dat") && ok;
    report(s, res, any);
    return ok;
}
