/* accept_run.c - the cases of `dl-bench accept` and their interleaved
 * runs: plain, dl-run, plain, dl-run, ... so that a slow phase of a busy
 * host hits both variants alike; medians are compared.  Every output
 * (stdout and the --output bytes) must equal the plain run's. */
#include "accept.h"
#include "suite.h"
#include "suite_spawn.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const accept_variant_names[AV_COUNT] = {"plain", "dl-run",
                                                    "dl-run-cold"};

/* ----------------------------------------------------------- the cases */

/* The application programs at the suite's sizes (suite_apps.c). */
typedef struct app_spec {
    const char *name, *prog, *kernel;
    const char *args_full[10], *args_quick[10];
    const char *defines_full, *defines_quick; /* for dl-annotate */
    const char *user_full, *user_quick; /* `//DL:` lines of scalar arrays */
    const char *goal;
} app_spec;

static const app_spec apps[] = {
    {"lbm", "dl-app-lbm", "lbm.cl",
     {"--nx", "120", "--ny", "120", "--nz", "150", "--steps", "100", NULL},
     {"--nx", "24", "--ny", "16", "--nz", "20", "--steps", "20", NULL},
     "-DNX=120 -DNY=120 -DNZ=150 -DOMEGA=1.5f",
     "-DNX=24 -DNY=16 -DNZ=20 -DOMEGA=1.5f",
     "//DL: AoS: src[2160000][20]\n//DL: AoS: dst[2160000][20]\n",
     "//DL: AoS: src[7680][20]\n//DL: AoS: dst[7680][20]\n", ">= 2x"},
    {"spmv", "dl-app-spmv", "spmv.cl",
     {"--shape", "bcsstk31", "--iters", "30", NULL},
     {"--rows", "3000", "--k", "40", "--iters", "4", NULL},
     "-DROWS=35588 -DK=197", "-DROWS=3000 -DK=40",
     "//DL: AoS: val[35588][197]\n//DL: AoS: col[35588][197]\n",
     "//DL: AoS: val[3000][40]\n//DL: AoS: col[3000][40]\n", "<= 1.02"},
    {"blackscholes", "dl-app-blackscholes", "blackscholes.cl",
     {"--options", "4194304", "--iters", "30", NULL},
     {"--options", "16384", "--iters", "4", NULL},
     "-DNOPT=4194304", "-DNOPT=16384", NULL, NULL, "<= 1.02"},
};
#define NAPPS (sizeof apps / sizeof *apps)

/* Annotated example programs of tests/integration whose stdout does not
 * depend on timing. */
static const char *const scenarios[] = {"iterate", "access", "two_layouts",
                                        "shapes"};

/* LBM step counts for the break-even (100 is the lbm case itself). */
static const char *const be_steps_full[] = {"1", "2", "4", "8", "16",
                                           NULL};
static const char *const be_steps_quick[] = {"1", NULL};

static void add(const char **argv, const char *arg)
{
    size_t k = 0;
    while (argv[k])
        k++;
    if (k + 1 < ACCEPT_MAX_ARGS)
        argv[k] = arg;
}

static void add_both(accept_case *c, const char *arg)
{
    add(c->plain, arg);
    add(c->dl, arg);
}

static int read_text(const char *path, char *buf, size_t room)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, room - 1, f);
    buf[n] = '\0';
    int ok = !ferror(f) && feof(f);
    fclose(f);
    return ok;
}

/* dl-annotate -D... --layout da on the app's kernel, with the user's
 * `//DL:` lines put before its first __kernel (scalar arrays); the
 * result goes to c->kernel.  1 on success. */
static int annotate_app(accept_ctx *ctx, const app_spec *a, accept_case *c)
{
    static char text[1 << 20];
    char src[4200], user_path[4300];
    snprintf(src, sizeof src, "%s/%s", ctx->apps_dir, a->kernel);
    if (!read_text(src, text, sizeof text)) {
        fprintf(stderr, "dl-bench accept: cannot read %s\n", src);
        return 0;
    }
    const char *user = ctx->quick ? a->user_quick : a->user_full;
    snprintf(user_path, sizeof user_path, "%s/kernels/%s.user.cl",
             ctx->out_dir, a->name);
    char *kern = strstr(text, "__kernel");
    FILE *o = fopen(user_path, "wb");
    if (!o || !kern) {
        fprintf(stderr, "dl-bench accept: cannot prepare %s\n", user_path);
        if (o)
            fclose(o);
        return 0;
    }
    fwrite(text, 1, (size_t)(kern - text), o);
    if (user && !strstr(text, "//DL:"))
        fputs(user, o);
    fputs(kern, o);
    if (fclose(o) != 0)
        return 0;

    snprintf(c->kernel, sizeof c->kernel, "%s/kernels/%s.da.cl",
             ctx->out_dir, a->name);
    char defs[256];
    snprintf(defs, sizeof defs, "%s",
             ctx->quick ? a->defines_quick : a->defines_full);
    const char *argv[ACCEPT_MAX_ARGS] = {ctx->dl_annotate};
    for (char *tok = strtok(defs, " "); tok; tok = strtok(NULL, " "))
        add(argv, tok);
    add(argv, "--layout");
    add(argv, "da");
    add(argv, user_path);
    add(argv, "-o");
    add(argv, c->kernel);
    suite_child ch = {.argv = argv};
    int rc = suite_spawn(&ch);
    if (rc != 0)
        fprintf(stderr, "dl-bench accept: dl-annotate %s exited with %d:\n"
                        "%s\n", user_path, rc, ch.err);
    suite_child_free(&ch);
    return rc == 0;
}

/* The iteration count of an app's arguments (--steps or --iters). */
static size_t iterations_of(const char *const *args)
{
    for (; args[0] && args[1]; args += 2)
        if (!strcmp(args[0], "--steps") || !strcmp(args[0], "--iters"))
            return strtoul(args[1], NULL, 10);
    return 0;
}

static accept_case *new_case(accept_case *cases, size_t *n, size_t room,
                             const char *group, const char *goal,
                             size_t iterations, const char *fmt,
                             const char *arg)
{
    if (*n >= room)
        return NULL;
    accept_case *c = &cases[(*n)++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, fmt, arg);
    c->group = group;
    c->goal = goal;
    c->iterations = iterations;
    return c;
}

size_t accept_cases(accept_ctx *ctx, accept_case *cases, size_t room)
{
    static char progs[NAPPS + 1][4200];
    size_t n = 0;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/kernels", ctx->out_dir);
    mkdir(dir, 0777);
    for (size_t i = 0; i < NAPPS; i++) {
        const app_spec *a = &apps[i];
        const char *const *args = ctx->quick ? a->args_quick : a->args_full;
        snprintf(progs[i], sizeof progs[i], "%s/%s", ctx->apps_dir, a->prog);
        accept_case *c = new_case(cases, &n, room, "apps", a->goal,
                                  iterations_of(args), "%s", a->name);
        if (!c || !annotate_app(ctx, a, c))
            return 0;
        add(c->plain, progs[i]);
        add(c->dl, progs[i]);
        for (const char *const *p = args; *p; p++)
            add_both(c, *p);
        add(c->dl, "--kernel");
        add(c->dl, c->kernel);
        c->output = 1;
        c->cold = i == 0; /* LBM: the cold versus warm cache */
        if (i == 0) {
            /* The same LBM at a few steps: the break-even. */
            const char *const *steps = ctx->quick ? be_steps_quick
                                                  : be_steps_full;
            for (size_t s = 0; steps[s]; s++) {
                accept_case *b = new_case(cases, &n, room, "lbm-break-even",
                                          "", strtoul(steps[s], NULL, 10),
                                          "lbm-steps-%s", steps[s]);
                if (!b)
                    return 0;
                memcpy(b->kernel, c->kernel, sizeof b->kernel);
                add(b->plain, progs[i]);
                add(b->dl, progs[i]);
                for (const char *const *p = args; *p && p[1]; p += 2)
                    if (strcmp(*p, "--steps") != 0) {
                        add_both(b, p[0]);
                        add_both(b, p[1]);
                    }
                add_both(b, "--steps");
                add_both(b, steps[s]);
                add(b->dl, "--kernel");
                add(b->dl, b->kernel);
                b->output = 1;
            }
        }
    }
    snprintf(progs[NAPPS], sizeof progs[NAPPS], "%s/dl-app-empty-launch",
             ctx->apps_dir);
    const char *launches = ctx->quick ? "20000" : "100000";
    for (int annotated = 0; annotated < 2; annotated++) {
        accept_case *c = new_case(cases, &n, room, "empty", "<= 1.02",
                                  strtoul(launches, NULL, 10), "%s",
                                  annotated ? "empty-launch-annotated"
                                            : "empty-launch");
        if (!c)
            return 0;
        add(c->plain, progs[NAPPS]);
        add(c->dl, progs[NAPPS]);
        add_both(c, "--launches");
        add_both(c, launches);
        if (annotated)
            add_both(c, "--annotated");
        c->output = 1;
    }
    /* --quick: the first two, to stay within a minute */
    size_t nscen = ctx->quick ? 2 : sizeof scenarios / sizeof *scenarios;
    for (size_t i = 0; ctx->it_app && i < nscen; i++) {
        accept_case *c = new_case(cases, &n, room, "tests", "<= 1.02", 1,
                                  "it-%s", scenarios[i]);
        if (!c)
            return 0;
        add(c->plain, ctx->it_app);
        add(c->dl, ctx->it_app);
        add_both(c, scenarios[i]);
    }
    return n;
}

/* Removes the files of a binary-cache directory (the directory stays). */
static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    char path[4400];
    while ((ent = readdir(d)))
        if (ent->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
            unlink(path);
        }
    closedir(d);
}

typedef struct one_run {
    double wall_ms, total_ms, marshal_ms;
    char stats[400];
} one_run;

/* Runs variant v once; the output goes to `out`.  Compares stdout with
 * *ref (set by the first plain run).  0 on a failed run. */
static int run_once(accept_ctx *ctx, accept_case *c, accept_variant v,
                    const char *out, char **ref, one_run *r)
{
    const char *argv[ACCEPT_MAX_ARGS + 8] = {0};
    size_t k = 0;
    if (v != AV_PLAIN) {
        argv[k++] = ctx->dl_run;
        argv[k++] = "--stats";
        argv[k++] = "--";
    }
    for (const char *const *p = v == AV_PLAIN ? c->plain : c->dl; *p; p++)
        argv[k++] = *p;
    if (c->output) {
        argv[k++] = "--output";
        argv[k++] = out;
    }
    if (v == AV_WARM)
        setenv("DL_BINARY_DIR", ctx->warm_dir, 1);
    if (v == AV_COLD)
        empty_dir(ctx->cold_dir);
    suite_child ch = {.argv = argv};
    int rc = suite_spawn(&ch);
    unsetenv("DL_BINARY_DIR");
    r->wall_ms = ch.seconds * 1e3;
    r->total_ms = suite_field(ch.err, "total_ms");
    const char *line = strstr(ch.err, "dlayout-stats:");
    r->marshal_ms = line ? suite_field(line, "marshal_ms") : NAN;
    r->stats[0] = '\0';
    if (line)
        snprintf(r->stats, sizeof r->stats, "%.*s",
                 (int)strcspn(line, "\n"), line);
    int ok = rc == 0 && (v == AV_PLAIN || line);
    if (!ok)
        fprintf(stderr, "dl-bench accept: %s %s exited with %d%s:\n%.2000s\n",
                c->name, accept_variant_names[v], rc,
                rc == 0 ? " without a dlayout-stats line" : "", ch.err);
    else if (!*ref)
        *ref = strdup(ch.out);
    else if (strcmp(*ref, ch.out) != 0)
        c->match = 0;
    suite_child_free(&ch);
    return ok;
}

static void output_path(const accept_ctx *ctx, const accept_case *c,
                        const char *what, char *buf, size_t room)
{
    snprintf(buf, room, "%s/outputs/%s.%s.bin", ctx->out_dir, c->name, what);
}

int accept_measure(accept_ctx *ctx, accept_case *c)
{
    char out[AV_COUNT][4400], ref_out[4400], dir[4200];
    snprintf(dir, sizeof dir, "%s/outputs", ctx->out_dir);
    mkdir(dir, 0777);
    for (int v = 0; v < AV_COUNT; v++)
        output_path(ctx, c, accept_variant_names[v], out[v], sizeof out[v]);
    output_path(ctx, c, "reference", ref_out, sizeof ref_out);
    int nv = c->cold ? AV_COUNT : AV_COLD;
    size_t reps = ctx->reps > ACCEPT_MAX_REPS ? ACCEPT_MAX_REPS : ctx->reps;
    static double wall[AV_COUNT][ACCEPT_MAX_REPS],
        total[AV_COUNT][ACCEPT_MAX_REPS], marshal[AV_COUNT][ACCEPT_MAX_REPS];
    char *ref = NULL;
    one_run r;
    c->match = 1;
    /* Untimed warm-up: the plain reference, and the dl-run that fills
     * OUT/bin-warm (and POCL's cache, and the calibration if missing). */
    fprintf(stderr, "[accept] %s: warm-up\n", c->name);
    int ok = run_once(ctx, c, AV_PLAIN, ref_out, &ref, &r);
    double plain_ms = r.wall_ms;
    ok = ok && run_once(ctx, c, AV_WARM, out[AV_WARM], &ref, &r);
    if (ok && c->output && !suite_files_equal(out[AV_WARM], ref_out))
        c->match = 0;
    if (!ctx->quick && plain_ms < ACCEPT_SHORT_MS)
        reps = reps * ACCEPT_SHORT_FACTOR > ACCEPT_MAX_REPS
                   ? ACCEPT_MAX_REPS
                   : reps * ACCEPT_SHORT_FACTOR;
    c->reps = reps;
    for (size_t i = 0; ok && i < reps; i++)
        for (int v = 0; ok && v < nv; v++) {
            fprintf(stderr, "[accept] %s: %s %zu/%zu\n", c->name,
                    accept_variant_names[v], i + 1, reps);
            ok = run_once(ctx, c, (accept_variant)v, out[v], &ref, &r);
            wall[v][i] = r.wall_ms;
            total[v][i] = r.total_ms;
            marshal[v][i] = r.marshal_ms;
            memcpy(c->stats[v], r.stats, sizeof c->stats[v]);
            if (ok && c->output && !suite_files_equal(out[v], ref_out))
                c->match = 0;
        }
    free(ref);
    for (int v = 0; v < AV_COUNT; v++)
        remove(out[v]); /* LBM: 173 MB each */
    remove(ref_out);
    if (!ok) {
        ctx->failures++;
        return 0;
    }
    for (int v = 0; v < nv; v++) {
        suite_stat w = suite_stats(wall[v], reps);
        c->ran[v] = 1;
        c->wall_ms[v] = w.median;
        c->wall_min[v] = w.min;
        c->wall_max[v] = w.max;
        c->total_ms[v] = suite_stats(total[v], reps).median;
        c->marshal_ms[v] = suite_stats(marshal[v], reps).median;
    }
    if (!c->match) {
        fprintf(stderr, "dl-bench accept: %s: an output differs from the "
                        "plain run\n", c->name);
        ctx->failures++;
    }
    return c->match;
}
