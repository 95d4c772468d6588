/* suite_spawn.c - fork/exec with stdout and stderr captured in temporary
 * files (no pipes, so a chatty child cannot block on a full pipe), and
 * reading what the child left: a `key=value` figure, its output file. */
#include "suite_spawn.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CAPTURE_MAX (256 * 1024)

static char *slurp(FILE *f)
{
    char *buf = calloc(1, CAPTURE_MAX + 1);
    if (!buf)
        return NULL;
    rewind(f);
    size_t n = fread(buf, 1, CAPTURE_MAX, f);
    buf[n] = '\0';
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int suite_spawn(suite_child *c)
{
    c->out = c->err = NULL;
    FILE *out = tmpfile(), *err = tmpfile();
    int status = -1;
    double t0 = now();
    pid_t pid = out && err ? fork() : -1;
    if (pid == 0) {
        dup2(fileno(out), STDOUT_FILENO);
        dup2(fileno(err), STDERR_FILENO);
        if (c->cwd && chdir(c->cwd) != 0) {
            fprintf(stderr, "chdir %s: %s\n", c->cwd, strerror(errno));
            _exit(127);
        }
        execvp(c->argv[0], (char *const *)c->argv);
        fprintf(stderr, "cannot run %s: %s\n", c->argv[0], strerror(errno));
        _exit(127);
    }
    if (pid > 0) {
        int ws;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    }
    c->seconds = now() - t0;
    c->out = out ? slurp(out) : NULL;
    c->err = err ? slurp(err) : NULL;
    if (pid < 0 && c->err) {
        snprintf(c->err, CAPTURE_MAX, "cannot start %s: %s", c->argv[0],
                 strerror(errno));
    }
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    if (!c->out)
        c->out = calloc(1, 1);
    if (!c->err)
        c->err = calloc(1, 1);
    return status;
}

void suite_child_free(suite_child *c)
{
    free(c->out);
    free(c->err);
    c->out = c->err = NULL;
}

double suite_field(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = text; (p = strstr(p, key)); p++)
        if ((p == text || p[-1] == ' ' || p[-1] == ':') && p[n] == '=')
            return strtod(p + n + 1, NULL);
    return NAN;
}

int suite_files_equal(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    static char ba[1 << 16], bb[1 << 16];
    while (same) {
        size_t na = fread(ba, 1, sizeof ba, fa);
        size_t nb = fread(bb, 1, sizeof bb, fb);
        same = na == nb && memcmp(ba, bb, na) == 0;
        if (na < sizeof ba)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}
