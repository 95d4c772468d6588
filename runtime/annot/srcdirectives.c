/* srcdirectives.c - the preprocessor lines of a source (see
 * srcdirectives.h).  One linear pass; comments, literals and line
 * splices are skipped as a C compiler's phases 1-3 would. */
#include "srcdirectives.h"

#include <ctype.h>

dl_srcdirectives dl_srcdirectives_start(const char *s, size_t len)
{
    return (dl_srcdirectives){.s = s, .len = len, .line = 1, .line_start = 1};
}

/* A backslash-newline (or backslash-CR-LF) at pos: its length, else 0. */
static size_t splice_at(const dl_srcdirectives *r, size_t pos)
{
    if (pos + 1 < r->len && r->s[pos] == '\\' && r->s[pos + 1] == '\n')
        return 2;
    if (pos + 2 < r->len && r->s[pos] == '\\' && r->s[pos + 1] == '\r' &&
        r->s[pos + 2] == '\n')
        return 3;
    return 0;
}

/* Skips a block comment that starts at pos, counting its lines. */
static void skip_block_comment(dl_srcdirectives *r)
{
    r->pos += 2;
    while (r->pos < r->len && !(r->s[r->pos] == '*' && r->pos + 1 < r->len &&
                                r->s[r->pos + 1] == '/'))
        r->line += r->s[r->pos++] == '\n';
    r->pos = r->pos < r->len ? r->pos + 2 : r->len;
}

/* Skips a line comment up to its (unspliced) newline, left unread. */
static void skip_line_comment(dl_srcdirectives *r)
{
    while (r->pos < r->len && r->s[r->pos] != '\n') {
        size_t n = splice_at(r, r->pos);
        r->line += n != 0;
        r->pos += n ? n : 1;
    }
}

/* Skips a string or character literal that starts at pos (to its
 * closing quote or the end of the line). */
static void skip_literal(dl_srcdirectives *r)
{
    char quote = r->s[r->pos++];
    while (r->pos < r->len && r->s[r->pos] != quote && r->s[r->pos] != '\n') {
        size_t n = splice_at(r, r->pos);
        r->line += n != 0;
        r->pos += n ? n : r->s[r->pos] == '\\' && r->pos + 1 < r->len ? 2 : 1;
    }
    if (r->pos < r->len && r->s[r->pos] == quote)
        r->pos++;
}

/* Appends n bytes to the directive's text; 0 when out of memory. */
static int put(dl_text *text, const char *bytes, size_t n)
{
    dl_text_put(text, bytes, n);
    return !text->failed;
}

static int copy_literal(dl_srcdirectives *r, dl_text *text)
{
    size_t start = r->pos;
    skip_literal(r);
    return put(text, r->s + start, r->pos - start);
}

/* Reads the directive after the '#' at pos into text: one logical line,
 * splices joined, each comment a blank. */
static int read_directive(dl_srcdirectives *r, dl_text *text)
{
    text->len = 0;
    if (!put(text, "", 0))
        return 0;
    r->pos++;
    while (r->pos < r->len && r->s[r->pos] != '\n') {
        size_t n = splice_at(r, r->pos);
        const char *at = r->s + r->pos;
        int ok = 1;
        if (n) {
            r->pos += n;
            r->line++;
        } else if (at[0] == '/' && r->pos + 1 < r->len && at[1] == '*') {
            skip_block_comment(r);
            ok = put(text, " ", 1);
        } else if (at[0] == '/' && r->pos + 1 < r->len && at[1] == '/') {
            skip_line_comment(r);
        } else if (at[0] == '"' || at[0] == '\'') {
            ok = copy_literal(r, text);
        } else {
            ok = put(text, at, 1);
            r->pos++;
        }
        if (!ok)
            return 0;
    }
    return 1;
}

int dl_srcdirectives_next(dl_srcdirectives *r, dl_text *text, unsigned *line)
{
    while (r->pos < r->len) {
        const char *at = r->s + r->pos;
        size_t n = splice_at(r, r->pos);
        if (n) {
            r->pos += n;
            r->line++;
        } else if (at[0] == '\n') {
            r->pos++;
            r->line++;
            r->line_start = 1;
        } else if (at[0] == '/' && r->pos + 1 < r->len && at[1] == '*') {
            skip_block_comment(r);
        } else if (at[0] == '/' && r->pos + 1 < r->len && at[1] == '/') {
            skip_line_comment(r);
        } else if (at[0] == '#' && r->line_start) {
            *line = r->line;
            return read_directive(r, text) ? 1 : -1;
        } else if (at[0] == '"' || at[0] == '\'') {
            skip_literal(r);
            r->line_start = 0;
        } else {
            r->line_start &= isspace((unsigned char)at[0]) != 0;
            r->pos++;
        }
    }
    return 0;
}
