/* bench_index.h - an index array read from a file for `dl-bench coalesce`:
 * raw little-endian signed integers of 4 or 8 bytes, or text with one
 * integer per line. */
#ifndef DL_BENCH_INDEX_H
#define DL_BENCH_INDEX_H

#include <stddef.h>

typedef struct bench_index {
    void *data; /* count entries of `bytes` bytes, host byte order */
    size_t count;
    unsigned bytes; /* 4 or 8 */
} bench_index;

/* Reads `path`: raw entries of `bytes` (4 or 8) bytes, or with `text` one
 * decimal integer per line (blank lines and '#' comments skipped), kept
 * as 8-byte entries.  1 on success, 0 with a message on stderr. */
int bench_index_load(const char *path, unsigned bytes, int text,
                     bench_index *out);
void bench_index_free(bench_index *index);

#endif
