/* text.c - the growing text (text.h). */
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `more` bytes and the terminator; 0 when out of memory. */
static int reserve(dl_text *t, size_t more)
{
    if (t->failed)
        return 0;
    if (t->len + more + 1 <= t->cap)
        return 1;
    size_t cap = t->cap ? t->cap : 1024;
    while (t->len + more + 1 > cap)
        cap *= 2;
    char *grown = realloc(t->text, cap);
    if (!grown) {
        t->failed = 1;
        return 0;
    }
    t->text = grown;
    t->cap = cap;
    return 1;
}

void dl_text_put(dl_text *t, const char *bytes, size_t n)
{
    if (!reserve(t, n))
        return;
    memcpy(t->text + t->len, bytes, n);
    t->len += n;
    t->text[t->len] = '\0';
}

void dl_text_puts(dl_text *t, const char *s)
{
    dl_text_put(t, s, strlen(s));
}

/* Formats in place when the room left suffices, else grows and again. */
void dl_text_vprintf(dl_text *t, const char *fmt, va_list ap)
{
    while (!t->failed) {
        va_list aq;
        va_copy(aq, ap);
        size_t room = t->cap - t->len;
        int n = vsnprintf(t->text ? t->text + t->len : NULL, room, fmt, aq);
        va_end(aq);
        if (n < 0) {
            t->failed = 1;
        } else if ((size_t)n < room) {
            t->len += (size_t)n;
            return;
        } else if (reserve(t, (size_t)n)) {
            continue;
        }
        if (t->text) /* a cut attempt wrote past the end */
            t->text[t->len] = '\0';
    }
}

void dl_text_printf(dl_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dl_text_vprintf(t, fmt, ap);
    va_end(ap);
}
