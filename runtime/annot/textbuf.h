/* textbuf.h - snprintf-style formatting in pieces: the annotation and
 * dimension formatters append to a caller's buffer, which may be too
 * small or NULL, and report the length the whole text needs. */
#ifndef DL_TEXTBUF_H
#define DL_TEXTBUF_H

#include <stddef.h>

typedef struct dl_textbuf {
    char *buf;   /* NULL: only count */
    size_t size; /* bytes of buf */
    size_t n;    /* length of the whole text so far, kept or not */
} dl_textbuf;

/* Appends as much of the formatted text as fits (always terminated when
 * size > 0) and counts all of it. */
void dl_textbuf_put(dl_textbuf *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
