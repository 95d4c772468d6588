/* bench_index.c - reads the index arrays of `dl-bench coalesce`. */
#include "bench_index.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *path, const char *why)
{
    fprintf(stderr, "dl-bench coalesce: %s: %s\n", path, why);
    return 0;
}

/* The whole file into a new buffer of *size bytes. */
static int read_all(const char *path, char **buf, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap);
    for (size_t got = 1; data && got > 0; n += got) {
        if (n == cap) {
            char *bigger = realloc(data, cap *= 2);
            if (!bigger) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
        }
        got = fread(data + n, 1, cap - n, f);
    }
    int bad = ferror(f);
    fclose(f);
    if (!data || bad) {
        free(data);
        return fail(path, data ? "read error" : "out of memory");
    }
    *buf = data;
    *size = n;
    return 1;
}

/* The entries were little-endian on disk. */
static void to_host_order(unsigned char *p, size_t count, unsigned bytes)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < count; i++, p += bytes)
        for (unsigned k = 0; k < bytes / 2; k++) {
            unsigned char t = p[k];
            p[k] = p[bytes - 1 - k];
            p[bytes - 1 - k] = t;
        }
#else
    (void)p, (void)count, (void)bytes;
#endif
}

/* Parses one line into *value; 0 for a blank or comment line, -1 when it
 * is not an integer. */
static int parse_line(char *line, int64_t *value)
{
    line += strspn(line, " \t\r");
    if (*line == '\0' || *line == '\n' || *line == '#')
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(line, &end, 10);
    end += strspn(end, " \t\r\n");
    if (errno || end == line || *end != '\0')
        return -1;
    *value = v;
    return 1;
}

/* Text: one integer per line, into 8-byte entries. */
static int parse_text(const char *path, char *buf, size_t size,
                      bench_index *out)
{
    int64_t *v = malloc((size / 2 + 1) * sizeof *v); /* "0\n" per entry */
    if (!v)
        return fail(path, "out of memory");
    size_t n = 0, lineno = 1;
    for (char *line = buf; line < buf + size; lineno++) {
        char *nl = memchr(line, '\n', (size_t)(buf + size - line));
        char *next = nl ? nl + 1 : buf + size;
        if (nl)
            *nl = '\0';
        /* A NUL byte inside a line: binary data, not text. */
        int r = strlen(line) == (size_t)(next - line) - (nl != NULL)
                    ? parse_line(line, &v[n])
                    : -1;
        if (r < 0) {
            fprintf(stderr, "dl-bench coalesce: %s:%zu: not an integer\n", path,
                    lineno);
            free(v);
            return 0;
        }
        n += (size_t)r;
        line = next;
    }
    *out = (bench_index){v, n, 8};
    return 1;
}

int bench_index_load(const char *path, unsigned bytes, int text,
                     bench_index *out)
{
    char *buf;
    size_t size;
    if (!read_all(path, &buf, &size))
        return 0;
    if (text) {
        /* NUL-terminated lines need one byte more than the file. */
        char *t = realloc(buf, size + 1);
        if (t)
            t[size] = '\0';
        int ok = t && parse_text(path, t, size, out);
        free(t ? t : buf);
        return ok;
    }
    if (size % bytes) {
        free(buf);
        return fail(path, bytes == 4 ? "size is not a multiple of 4 bytes"
                                     : "size is not a multiple of 8 bytes");
    }
    to_host_order((unsigned char *)buf, size / bytes, bytes);
    *out = (bench_index){buf, size / bytes, bytes};
    return 1;
}

void bench_index_free(bench_index *index)
{
    free(index->data);
    index->data = NULL;
    index->count = 0;
}
