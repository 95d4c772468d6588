/* textbuf.c - the one appending formatter of the annotation language's
 * printers (annotation_grammar.c, dims.c); see textbuf.h. */
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>

void dl_textbuf_put(dl_textbuf *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t used = t->n < t->size ? t->n : t->size;
    int k = vsnprintf(t->buf ? t->buf + used : NULL,
                      t->buf ? t->size - used : 0, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->n += (size_t)k;
}
