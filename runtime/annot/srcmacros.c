/* srcmacros.c - the #define and #undef lines of a source, with the
 * conditional block around each (see srcmacros.h).  One linear pass;
 * comments, literals and line splices are skipped as a C compiler's
 * phases 1-3 would. */
#include "srcmacros.h"
#include "error.h"
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* An open #if/#ifdef/#ifndef block. */
typedef struct frame {
    unsigned line;
    char *guard; /* NAME of `#ifndef NAME`, else NULL */
    int in_else; /* past an #elif or #else            */
} frame;

typedef struct scan {
    const char *s;
    size_t len, pos;
    unsigned line;
    dl_srcmacros *m;
    frame *frames;
    size_t nframes, cap_frames;
    dl_text text; /* the directive being read, comments removed */
} scan;

static int is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* A backslash-newline (or backslash-CR-LF) at pos: its length, else 0. */
static size_t splice_at(const scan *sc, size_t pos)
{
    if (pos + 1 < sc->len && sc->s[pos] == '\\' && sc->s[pos + 1] == '\n')
        return 2;
    if (pos + 2 < sc->len && sc->s[pos] == '\\' && sc->s[pos + 1] == '\r' &&
        sc->s[pos + 2] == '\n')
        return 3;
    return 0;
}

/* Skips a block comment that starts at pos, counting its lines. */
static void skip_block_comment(scan *sc)
{
    sc->pos += 2;
    while (sc->pos < sc->len &&
           !(sc->s[sc->pos] == '*' && sc->pos + 1 < sc->len &&
             sc->s[sc->pos + 1] == '/'))
        sc->line += sc->s[sc->pos++] == '\n';
    sc->pos = sc->pos < sc->len ? sc->pos + 2 : sc->len;
}

/* Skips a line comment up to its (unspliced) newline, left unread. */
static void skip_line_comment(scan *sc)
{
    while (sc->pos < sc->len && sc->s[sc->pos] != '\n') {
        size_t n = splice_at(sc, sc->pos);
        sc->line += n != 0;
        sc->pos += n ? n : 1;
    }
}

/* Appends n bytes to the directive's text; 0 when out of memory. */
static int put(scan *sc, const char *bytes, size_t n)
{
    dl_text_put(&sc->text, bytes, n);
    return !sc->text.failed;
}

/* Skips a string or character literal that starts at pos (to its
 * closing quote or the end of the line). */
static void skip_literal(scan *sc)
{
    char quote = sc->s[sc->pos++];
    while (sc->pos < sc->len && sc->s[sc->pos] != quote &&
           sc->s[sc->pos] != '\n') {
        size_t n = splice_at(sc, sc->pos);
        sc->line += n != 0;
        sc->pos += n                                                 ? n
                   : sc->s[sc->pos] == '\\' && sc->pos + 1 < sc->len ? 2
                                                                     : 1;
    }
    if (sc->pos < sc->len && sc->s[sc->pos] == quote)
        sc->pos++;
}

static int copy_literal(scan *sc)
{
    size_t start = sc->pos;
    skip_literal(sc);
    return put(sc, sc->s + start, sc->pos - start);
}

/* Reads the directive after the '#' at pos into sc->text: one logical
 * line, splices joined, each comment a blank. */
static int read_directive(scan *sc)
{
    sc->text.len = 0;
    if (!put(sc, "", 0))
        return 0;
    sc->pos++;
    while (sc->pos < sc->len && sc->s[sc->pos] != '\n') {
        size_t n = splice_at(sc, sc->pos);
        const char *at = sc->s + sc->pos;
        int ok = 1;
        if (n) {
            sc->pos += n;
            sc->line++;
        } else if (at[0] == '/' && sc->pos + 1 < sc->len && at[1] == '*') {
            skip_block_comment(sc);
            ok = put(sc, " ", 1);
        } else if (at[0] == '/' && sc->pos + 1 < sc->len && at[1] == '/') {
            skip_line_comment(sc);
        } else if (at[0] == '"' || at[0] == '\'') {
            ok = copy_literal(sc);
        } else {
            ok = put(sc, at, 1);
            sc->pos++;
        }
        if (!ok)
            return 0;
    }
    return 1;
}

/* The identifier at *p after blanks: its length (0 if none); *p moves
 * past it. */
static size_t ident(const char **p, const char **start)
{
    while (**p && isspace((unsigned char)**p))
        (*p)++;
    *start = *p;
    while (**p && is_ident_char(**p))
        (*p)++;
    return isdigit((unsigned char)**start) ? 0 : (size_t)(*p - *start);
}

static char *trimmed(const char *p)
{
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    return strndup(p, n);
}

static int push_frame(scan *sc, unsigned line, const char *rest, int ifndef)
{
    if (sc->nframes == sc->cap_frames) {
        size_t cap = sc->cap_frames * 2 + 8;
        frame *grown = realloc(sc->frames, cap * sizeof *grown);
        if (!grown)
            return 0;
        sc->frames = grown;
        sc->cap_frames = cap;
    }
    frame *f = &sc->frames[sc->nframes++];
    *f = (frame){.line = line};
    const char *name;
    size_t n = ident(&rest, &name);
    while (*rest && isspace((unsigned char)*rest))
        rest++;
    if (ifndef && n && !*rest && !(f->guard = strndup(name, n)))
        return 0;
    return 1;
}

static int add_def(scan *sc, unsigned line, const char *rest, int undef)
{
    const char *name;
    size_t n = ident(&rest, &name);
    if (!n)
        return 1; /* not a definition the compiler would accept either */
    dl_srcmacros *m = sc->m;
    dl_srcmacro *grown = realloc(m->defs, (m->ndefs + 1) * sizeof *grown);
    if (!grown)
        return 0;
    m->defs = grown;
    dl_srcmacro *d = &m->defs[m->ndefs];
    *d = (dl_srcmacro){
        .line = line, .undef = undef, .function_like = !undef && *rest == '('};
    const frame *top = sc->nframes ? &sc->frames[sc->nframes - 1] : NULL;
    d->if_line = top ? top->line : 0;
    d->name = strndup(name, n);
    d->guarded = sc->nframes == 1 && !top->in_else && top->guard && d->name &&
                 strcmp(top->guard, d->name) == 0;
    d->value = trimmed(rest);
    if (!d->name || !d->value) {
        free(d->name);
        free(d->value);
        return 0;
    }
    m->ndefs++;
    return 1;
}

/* Acts on one directive read into sc->text, which began on `line`. */
static int directive(scan *sc, unsigned line)
{
    const char *rest = sc->text.text, *kw;
    size_t n = ident(&rest, &kw);
#define IS(word) (n == strlen(word) && memcmp(kw, word, n) == 0)
    if (IS("define") || IS("undef"))
        return add_def(sc, line, rest, IS("undef"));
    if (IS("if") || IS("ifdef") || IS("ifndef"))
        return push_frame(sc, line, rest, IS("ifndef"));
    if ((IS("elif") || IS("else")) && sc->nframes)
        sc->frames[sc->nframes - 1].in_else = 1;
    if (IS("endif") && sc->nframes)
        free(sc->frames[--sc->nframes].guard);
    if (IS("include") && !sc->m->include_line) {
        sc->m->include_line = line;
        if (!(sc->m->include = trimmed(rest)))
            return 0;
    }
#undef IS
    return 1;
}

/* The pass over the source: directives are the lines whose first
 * non-blank character, outside comments, is '#'. */
static int scan_source(scan *sc)
{
    int line_start = 1;
    while (sc->pos < sc->len) {
        const char *at = sc->s + sc->pos;
        size_t n = splice_at(sc, sc->pos);
        if (n) {
            sc->pos += n;
            sc->line++;
        } else if (at[0] == '\n') {
            sc->pos++;
            sc->line++;
            line_start = 1;
        } else if (at[0] == '/' && sc->pos + 1 < sc->len && at[1] == '*') {
            skip_block_comment(sc);
        } else if (at[0] == '/' && sc->pos + 1 < sc->len && at[1] == '/') {
            skip_line_comment(sc);
        } else if (at[0] == '#' && line_start) {
            unsigned line = sc->line;
            if (!read_directive(sc) || !directive(sc, line))
                return 0;
        } else if (at[0] == '"' || at[0] == '\'') {
            skip_literal(sc);
            line_start = 0;
        } else {
            line_start &= isspace((unsigned char)at[0]) != 0;
            sc->pos++;
        }
    }
    return 1;
}

void dl_srcmacros_free(dl_srcmacros *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->ndefs; i++) {
        free(m->defs[i].name);
        free(m->defs[i].value);
    }
    free(m->defs);
    free(m->include);
    free(m->label);
    free(m);
}

dl_status dl_srcmacros_scan(const char *src, size_t len, const char *label,
                            dl_srcmacros **out)
{
    DL_RETURN_ERROR_ON(!out || (!src && len), DL_INVALID_ARGUMENT,
                       "no source to scan");
    *out = NULL;
    dl_srcmacros *m = calloc(1, sizeof *m);
    DL_RETURN_ERROR_ON(!m, DL_OUT_OF_MEMORY, "out of host memory");
    scan sc = {.s = src, .len = len, .line = 1, .m = m};
    int ok = (m->label = strdup(label ? label : "the source")) != NULL &&
             scan_source(&sc);
    for (size_t i = 0; i < sc.nframes; i++)
        free(sc.frames[i].guard);
    free(sc.frames);
    free(sc.text.text);
    if (!ok) {
        dl_srcmacros_free(m);
        return dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    }
    *out = m;
    return DL_SUCCESS;
}

dl_status dl_srcmacros_find(const dl_srcmacros *m, const char *name,
                            const dl_srcmacro **def)
{
    DL_RETURN_ERROR_ON(!name || !def, DL_INVALID_ARGUMENT, "no macro name");
    *def = NULL;
    const dl_srcmacro *first = NULL;
    for (size_t i = 0; m && i < m->ndefs; i++) {
        const dl_srcmacro *d = &m->defs[i];
        if (strcmp(d->name, name) != 0)
            continue;
        DL_RETURN_ERROR_ON(d->undef, DL_INVALID_ARGUMENT,
                           "'%s' is #undef'd at %s:%u: its value depends "
                           "on where it is used",
                           name, m->label, d->line);
        DL_RETURN_ERROR_ON(first, DL_INVALID_ARGUMENT,
                           "'%s' is defined more than once (%s:%u and "
                           "line %u): its value depends on where it is used",
                           name, m->label, first->line, d->line);
        first = d;
    }
    if (!first)
        return DL_SUCCESS;
    DL_RETURN_ERROR_ON(first->function_like, DL_INVALID_ARGUMENT,
                       "'%s' is a function-like macro (%s:%u)", name, m->label,
                       first->line);
    DL_RETURN_ERROR_ON(first->if_line && !first->guarded, DL_INVALID_ARGUMENT,
                       "'%s' is defined at %s:%u inside the conditional "
                       "block of line %u, which dlayout does not evaluate",
                       name, m->label, first->line, first->if_line);
    *def = first;
    return DL_SUCCESS;
}
