/* suite_util.c - what every part of `dl-bench suite` uses: output files,
 * the progress line, the target table, child processes and plots. */
#include "suite.h"
#include "suite_spawn.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* benchmarks/plot/ *.gp, embedded at build time (meson.build). */
const char *bench_plot_source(const char *name);

FILE *suite_open(suite *s, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->out_dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        perror(path);
    return f;
}

int suite_close(FILE *f, const char *name)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "dl-bench suite: writing %s failed\n", name);
        return 0;
    }
    return 1;
}

/* On a terminal the line is redrawn in place; otherwise (logs, meson)
 * every step is a line of its own. */
void suite_progress(suite *s, const char *fmt, ...)
{
    int tty = isatty(STDERR_FILENO);
    fprintf(stderr, "%s[part %d/%d %s] ", tty ? "\r\033[K" : "", s->part,
            SUITE_PARTS, s->part_name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(tty ? "" : "\n", stderr);
    fflush(stderr);
}

void suite_progress_done(suite *s)
{
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    (void)s;
}

void suite_target_add(suite *s, const char *name, const char *goal,
                      int status, const char *fmt, ...)
{
    if (s->ntargets == SUITE_MAX_TARGETS)
        return;
    suite_target *t = &s->targets[s->ntargets++];
    snprintf(t->name, sizeof t->name, "%s", name);
    snprintf(t->goal, sizeof t->goal, "%s", goal);
    t->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->reached, sizeof t->reached, fmt, ap);
    va_end(ap);
}

void suite_plot(suite *s, const char *script, const char *png,
                const char *caption)
{
    if (!s->gnuplot)
        return;
    const char *text = bench_plot_source(script);
    FILE *f = text ? suite_open(s, script) : NULL;
    if (!f)
        return;
    fputs(text, f);
    if (!suite_close(f, script))
        return;
    char term[64];
    snprintf(term, sizeof term, "term='%s'",
             s->gnuplot == 1 ? "pngcairo" : "png");
    const char *argv[] = {"gnuplot", "-e", term, script, NULL};
    suite_child child = {.argv = argv, .cwd = s->out_dir};
    int rc = suite_spawn(&child);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", s->out_dir, png);
    if (rc != 0 || access(path, R_OK) != 0) {
        fprintf(stderr, "dl-bench suite: gnuplot %s failed (%d): %s\n",
                script, rc, child.err);
        fprintf(s->report, "\n(plot %s: gnuplot failed)\n", png);
    } else {
        fprintf(s->report, "\n![%s](%s)\n", caption, png);
    }
    suite_child_free(&child);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

suite_stat suite_stats(double *v, size_t n)
{
    suite_stat st = {0, 0, 0};
    if (n == 0)
        return st;
    qsort(v, n, sizeof *v, cmp_double);
    st.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    st.min = v[0];
    st.max = v[n - 1];
    return st;
}
