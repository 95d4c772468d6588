/* log.c - one logger for the whole runtime (see log.h). */
#include "log.h"
#include "error.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The level is read on every call, often from many threads, so it is an
 * atomic rather than something behind the lock. */
static atomic_int log_level = DL_LOG_LEVEL_WARN;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file; /* NULL: stderr */

static const char *const level_names[] = {"error", "warning", "info", "debug"};

const char *dl_log_level_name(dl_log_level level)
{
    return (unsigned)level < sizeof level_names / sizeof *level_names
               ? level_names[level]
               : "log";
}

void dl_log_set_level(dl_log_level level)
{
    /* As int: the enum type may be unsigned. */
    int l = (int)level;
    if (l < DL_LOG_LEVEL_ERROR)
        l = DL_LOG_LEVEL_ERROR;
    if (l > DL_LOG_LEVEL_DEBUG)
        l = DL_LOG_LEVEL_DEBUG;
    atomic_store(&log_level, l);
}

dl_log_level dl_log_get_level(void)
{
    return (dl_log_level)atomic_load(&log_level);
}

int dl_log_enabled(dl_log_level level)
{
    return (int)level <= atomic_load(&log_level);
}

void dl_log_close(void)
{
    pthread_mutex_lock(&log_lock);
    if (log_file)
        fclose(log_file);
    log_file = NULL;
    pthread_mutex_unlock(&log_lock);
}

dl_status dl_log_configure(dl_log_level level, const char *path)
{
    dl_log_set_level(level);
    dl_log_close();
    if (!path || !*path)
        return DL_SUCCESS;
    FILE *f = fopen(path, "a");
    if (!f) {
        int err = errno;
        DL_LOG_WARN("cannot open log file '%s' (%s); logging to stderr", path,
                    strerror(err));
        return dl_fail(DL_INVALID_ARGUMENT, "cannot open log file '%s': %s",
                       path, strerror(err));
    }
    pthread_mutex_lock(&log_lock);
    log_file = f;
    pthread_mutex_unlock(&log_lock);
    return DL_SUCCESS;
}

/* Formats "dlayout: LEVEL: [where: ]message\n" and writes it at once. */
static void emit(dl_log_level level, const char *file, unsigned line,
                 const char *fmt, va_list ap)
{
    char stack[1024];
    char *msg = stack;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(stack, sizeof stack, fmt, ap);
    /* A long message (a whole annotation quoted back) gets its own buffer
     * rather than being cut. */
    if (n >= (int)sizeof stack) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            vsnprintf(big, (size_t)n + 1, fmt, copy);
            msg = big;
        }
    }
    va_end(copy);

    pthread_mutex_lock(&log_lock);
    FILE *out = log_file ? log_file : stderr;
    fprintf(out, "dlayout: %s: ", dl_log_level_name(level));
    if (file)
        fprintf(out, "%s:%u: ", file, line);
    fprintf(out, "%s\n", msg);
    fflush(out);
    pthread_mutex_unlock(&log_lock);
    if (msg != stack)
        free(msg);
}

void dl_log(dl_log_level level, const char *fmt, ...)
{
    if (!dl_log_enabled(level))
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(level, NULL, 0, fmt, ap);
    va_end(ap);
}

void dl_log_at(dl_log_level level, const char *file, unsigned line,
               const char *fmt, ...)
{
    if (!dl_log_enabled(level))
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(level, file ? file : "<source>", line, fmt, ap);
    va_end(ap);
}
