/* log.h - the runtime's one logger.
 *
 * Every line starts with "dlayout: " and the level, so that messages from
 * the interposed runtime stand out inside an application's own output:
 *
 *   dlayout: warning: prog.cl:12: unknown argument 'g' in kernel 'foo'
 *
 * The level and the destination come from DL_LOG and DL_LOG_FILE
 * (controls.def).  All functions are thread-safe: a line is formatted
 * first and written with a single locked call, so lines of different
 * threads never interleave. */
#ifndef DL_LOG_H
#define DL_LOG_H

#include "dlayout.h"

/* Ordered from most to least severe: a message is written when its level
 * is <= the configured level. */
typedef enum dl_log_level {
    DL_LOG_LEVEL_ERROR = 0,
    DL_LOG_LEVEL_WARN,
    DL_LOG_LEVEL_INFO,
    DL_LOG_LEVEL_DEBUG
} dl_log_level;

/* Sets the level and the destination: path NULL or "" means stderr.  The
 * file is opened for appending.  If it cannot be opened the logger keeps
 * stderr, says so there, and returns DL_INVALID_ARGUMENT. */
dl_status dl_log_configure(dl_log_level level, const char *path);
void dl_log_set_level(dl_log_level level);
dl_log_level dl_log_get_level(void);
/* Cheap test, to skip building expensive debug messages. */
int dl_log_enabled(dl_log_level level);
/* Closes a log file (back to stderr). */
void dl_log_close(void);

/* "error", "warning", "info", "debug". */
const char *dl_log_level_name(dl_log_level level);

void dl_log(dl_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* For messages about a line of a source (an OpenCL program, an
 * annotation): the line is named as file:line before the message. */
void dl_log_at(dl_log_level level, const char *file, unsigned line,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define DL_LOG_ERROR(...) dl_log(DL_LOG_LEVEL_ERROR, __VA_ARGS__)
#define DL_LOG_WARN(...)  dl_log(DL_LOG_LEVEL_WARN, __VA_ARGS__)
#define DL_LOG_INFO(...)  dl_log(DL_LOG_LEVEL_INFO, __VA_ARGS__)
#define DL_LOG_DEBUG(...) dl_log(DL_LOG_LEVEL_DEBUG, __VA_ARGS__)

#define DL_LOG_ERROR_AT(file, line, ...)                                       \
    dl_log_at(DL_LOG_LEVEL_ERROR, (file), (line), __VA_ARGS__)
#define DL_LOG_WARN_AT(file, line, ...)                                        \
    dl_log_at(DL_LOG_LEVEL_WARN, (file), (line), __VA_ARGS__)
#define DL_LOG_INFO_AT(file, line, ...)                                        \
    dl_log_at(DL_LOG_LEVEL_INFO, (file), (line), __VA_ARGS__)
#define DL_LOG_DEBUG_AT(file, line, ...)                                       \
    dl_log_at(DL_LOG_LEVEL_DEBUG, (file), (line), __VA_ARGS__)

#endif
