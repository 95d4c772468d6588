/* cache_dir.h - where dlayout keeps what it learns across runs: the
 * device calibrations and the binary cache of marshal programs. */
#ifndef DL_CACHE_DIR_H
#define DL_CACHE_DIR_H

#include "dlayout.h"

#include <stddef.h>

/* Writes "$XDG_CACHE_HOME/dlayout/<name>" (or "$HOME/.cache/dlayout/<name>"
 * without XDG_CACHE_HOME) to buf.  DL_UNSUPPORTED when neither is set (as
 * in a process with elevated privileges: secure_getenv), DL_SIZE_OVERFLOW
 * when the path does not fit. */
dl_status dl_cache_path(char *buf, size_t size, const char *name);

#endif
