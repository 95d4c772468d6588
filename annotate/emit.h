/* emit.h - what the parts of the output writer share: the growing text
 * buffer, and the pieces that emit.c assembles around each kernel. */
#ifndef DLA_EMIT_H
#define DLA_EMIT_H

#include "dla.h"
#include "text.h"

/* The runtime's growing text (runtime/core/text.h), by the short names
 * the writer's many appends use. */
typedef dl_text buf;

static inline void put(buf *b, const char *s, size_t n)
{
    dl_text_put(b, s, n);
}

static inline void puts_(buf *b, const char *s)
{
    dl_text_puts(b, s);
}

static inline void putf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void putf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dl_text_vprintf(b, fmt, ap);
    va_end(ap);
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
