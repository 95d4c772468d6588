/* emit.h - what the parts of the output writer share: the growing text
 * buffer, and the pieces that emit.c assembles around each kernel. */
#ifndef DLA_EMIT_H
#define DLA_EMIT_H

#include "dla.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *s;
    size_t len, cap;
    int failed;
} buf;

static inline void put(buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static inline void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static inline void putf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void putf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = dla_vprintf(fmt, ap);
    va_end(ap);
    if (!s) {
        b->failed = 1;
        return;
    }
    puts_(b, s);
    free(s);
}

/* preamble.c: what goes before a transformed kernel (the macros its
 * branch uses, the copies of its helpers, its annotations). */
void dla_emit_preamble(buf *b, const dla_source *src, const dla_kernel *k);

/* rewrite.c: the kernel's body, the transformed branch with its accesses
 * rewritten under DL_ACTIVE_<kernel>, the original under #else; -1 when
 * out of memory. */
int dla_emit_body(buf *b, const dla_source *src, const dla_kernel *k);

/* rewrite.c: the copy of a helper for this kernel and argument. */
void dla_emit_helper_copy(buf *b, const dla_source *src, const dla_kernel *k,
                          const dla_arg *a, const dla_helper *h);

#endif
