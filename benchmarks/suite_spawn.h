/* suite_spawn.h - runs a child program and keeps what it printed (the
 * application benchmarks and gnuplot). */
#ifndef DL_BENCH_SUITE_SPAWN_H
#define DL_BENCH_SUITE_SPAWN_H

#include <stddef.h>

typedef struct suite_child {
    const char *const *argv; /* argv[0] is looked up in PATH if no '/' */
    const char *cwd;         /* NULL: inherit                          */
    char *out, *err;         /* what it printed (NUL-terminated, capped) */
    double seconds;          /* wall time                               */
} suite_child;

/* Runs the child to completion.  Returns its exit status, 128+N if it
 * died of signal N, or -1 if it could not be started (message in err). */
int suite_spawn(suite_child *child);
void suite_child_free(suite_child *child);

/* The number after `key=` in a line like "a=1 key=2.5" (NAN if absent). */
double suite_field(const char *text, const char *key);
/* Whether two files hold the same bytes (0 if either cannot be read). */
int suite_files_equal(const char *a, const char *b);

#endif
