/* srcdirectives.h - the preprocessor lines of a C source, read as a C
 * compiler's translation phases 1-3 would: a directive is a line whose
 * first non-blank character, outside comments, is '#'; line splices are
 * joined, comments are skipped (a blank inside a directive) and string
 * and character literals are passed over whole.  Nothing is kept but the
 * position, so any text, garbage included, reads in linear time. */
#ifndef DL_SRCDIRECTIVES_H
#define DL_SRCDIRECTIVES_H

#include "text.h"

#include <stddef.h>

/* Where the reading is in one text: plain data, saved and restored by
 * copying (a header read in the middle of a source). */
typedef struct dl_srcdirectives {
    const char *s;
    size_t len, pos;
    unsigned line;
    int line_start; /* nothing but blanks since the last newline */
} dl_srcdirectives;

/* Starts reading s[0..len) (NUL bytes allowed) at its line 1. */
dl_srcdirectives dl_srcdirectives_start(const char *s, size_t len);

/* Reads the next directive into *text (the logical line after the '#',
 * terminated) and the line it begins on: 1, or 0 at the end of the text,
 * -1 when out of memory. */
int dl_srcdirectives_next(dl_srcdirectives *r, dl_text *text, unsigned *line);

#endif
