/* text.h - the one growing text of the runtime and its tools: appended
 * to in pieces, always terminated, and marked failed (appending nothing
 * more) once out of memory, so that callers check once at the end: the
 * kernel specialisation (spec.c), the activated build's options
 * (rt_programs.c), the source-macro scan (srcmacros.c) and dl-annotate's
 * output writer.  A zeroed dl_text is empty; free its `text`.  (The
 * annotation printers' dl_textbuf, runtime/annot/textbuf.h, fills a
 * caller's fixed buffer instead.) */
#ifndef DL_TEXT_H
#define DL_TEXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct dl_text {
    char *text; /* NULL until something is appended */
    size_t len, cap;
    int failed; /* out of memory while appending */
} dl_text;

/* Appends n bytes. */
void dl_text_put(dl_text *t, const char *bytes, size_t n);
/* Appends a string. */
void dl_text_puts(dl_text *t, const char *s);
/* Appends formatted text. */
void dl_text_printf(dl_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void dl_text_vprintf(dl_text *t, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

#endif
