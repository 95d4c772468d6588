/* srcmacros.c - the #define and #undef lines of a source, with the
 * conditional block around each (see srcmacros.h).  One linear pass;
 * comments, literals and line splices are skipped as a C compiler's
 * phases 1-3 would; a header found in a -I directory is scanned where it
 * is included. */
#define _GNU_SOURCE /* asprintf */
#include "srcmacros.h"
#include "error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Headers included from headers, at most this deep; and their size. */
#define MAX_INCLUDE_DEPTH 8
#define MAX_HEADER_BYTES  (4u << 20)

/* An open #if/#ifdef/#ifndef block. */
typedef struct frame {
    unsigned line;
    char *guard; /* NAME of `#ifndef NAME`, else NULL               */
    int in_else; /* past an #elif or #else                          */
    int taken;   /* an #ifndef of a name surely undefined there     */
} frame;

/* Where the scan is in one file (the source, or a header). */
typedef struct file_pos {
    const char *s;
    size_t len, pos;
    unsigned line;
    const char *file; /* the header's path, NULL: the source */
} file_pos;

typedef struct scan {
    const char *s;
    size_t len, pos;
    unsigned line;
    const char *file;
    const char *options; /* the build options, "" if none */
    unsigned depth;      /* of #include */
    dl_srcmacros *m;
    frame *frames;
    size_t nframes, cap_frames;
    char *text; /* the directive being read, comments removed */
    size_t ntext, cap_text;
} scan;

/* The next blank-separated word of the options at *at: its start and
 * length, or 0 at the end. */
static size_t next_word(const char **at, const char **word)
{
    const char *p = *at;
    while (*p && isspace((unsigned char)*p))
        p++;
    *word = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    *at = p;
    return (size_t)(p - *word);
}

int dl_options_define(const char *options, const char *name, const char **value,
                      size_t *len)
{
    size_t n = strlen(name);
    int found = 0;
    const char *at = options, *w;
    size_t wl;
    while ((wl = next_word(&at, &w)) > 0) {
        if (wl < 2 || w[0] != '-' || (w[1] != 'D' && w[1] != 'U'))
            continue;
        int define = w[1] == 'D';
        const char *d = w + 2;
        size_t dl = wl - 2;
        if (dl == 0 && (dl = next_word(&at, &d)) == 0)
            break; /* "-D" at the end */
        if (dl < n || memcmp(d, name, n) != 0 ||
            (dl > n && (!define || d[n] != '=')))
            continue;
        found = define;
        *value = dl > n ? d + n + 1 : "1";
        *len = dl > n ? dl - n - 1 : 1;
    }
    return found;
}

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
    if (sc->ntext + n + 1 > sc->cap_text) {
        size_t cap = (sc->ntext + n + 1) * 2;
        char *grown = realloc(sc->text, cap);
        if (!grown)
            return 0;
        sc->text = grown;
        sc->cap_text = cap;
    }
    memcpy(sc->text + sc->ntext, bytes, n);
    sc->ntext += n;
    sc->text[sc->ntext] = '\0';
    return 1;
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
    sc->ntext = 0;
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

/* Whether `name` may be defined where an `#ifndef name` is read: by the
 * build options, an earlier #define or #undef of it, or a header not
 * read. */
static int maybe_defined(const scan *sc, const char *name)
{
    const char *v;
    size_t n;
    if (sc->m->include_line || dl_options_define(sc->options, name, &v, &n))
        return 1;
    for (size_t i = 0; i < sc->m->ndefs; i++)
        if (strcmp(sc->m->defs[i].name, name) == 0)
            return 1;
    return 0;
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
    /* an include guard, around a whole file or a pasted header: entered
     * by the program's one build, so no block that may be skipped */
    f->taken = f->guard && !maybe_defined(sc, f->guard);
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
    /* blocks surely entered (include guards) do not count */
    const frame *top = NULL;
    size_t nreal = 0;
    for (size_t i = 0; i < sc->nframes; i++)
        if (!sc->frames[i].taken) {
            top = &sc->frames[i];
            nreal++;
        }
    d->if_line = top ? top->line : 0;
    d->file = sc->file;
    d->name = strndup(name, n);
    d->guarded = nreal == 1 && !top->in_else && top->guard && d->name &&
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

static int include(scan *sc, unsigned line, const char *rest);

/* Acts on one directive read into sc->text, which began on `line`. */
static int directive(scan *sc, unsigned line)
{
    const char *rest = sc->text, *kw;
    size_t n = ident(&rest, &kw);
#define IS(word) (n == strlen(word) && memcmp(kw, word, n) == 0)
    if (IS("define") || IS("undef"))
        return add_def(sc, line, rest, IS("undef"));
    if (IS("if") || IS("ifdef") || IS("ifndef"))
        return push_frame(sc, line, rest, IS("ifndef"));
    if ((IS("elif") || IS("else")) && sc->nframes) {
        sc->frames[sc->nframes - 1].in_else = 1;
        sc->frames[sc->nframes - 1].taken = 0; /* never entered */
    }
    if (IS("endif") && sc->nframes)
        free(sc->frames[--sc->nframes].guard);
    if (IS("include"))
        return include(sc, line, rest);
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

/* The text of a header (malloc'd), or NULL. */
static char *read_header(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(MAX_HEADER_BYTES);
    size_t n = text ? fread(text, 1, MAX_HEADER_BYTES, f) : 0;
    int whole = text && !ferror(f) && n < MAX_HEADER_BYTES;
    fclose(f);
    if (!whole) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

/* A found header: its path and text (malloc'd). */
typedef struct header {
    char *path, *text;
    size_t len;
    int ambiguous; /* another candidate holds another text */
} header;

/* Tries dir/name as a candidate of h; 0 when out of memory. */
static int try_dir(header *h, const char *dir, size_t dl, const char *name)
{
    char *path = NULL;
    if (asprintf(&path, "%.*s/%s", (int)dl, dir, name) < 0)
        return 0;
    size_t len = 0;
    char *text = read_header(path, &len);
    if (text && !h->path) {
        h->path = path;
        h->text = text;
        h->len = len;
        return 1;
    }
    if (text && (len != h->len || memcmp(text, h->text, len) != 0))
        h->ambiguous = 1;
    free(text);
    free(path);
    return 1;
}

/* Finds `name` where compilers look: for "name" the directory of the
 * file that includes it (the current directory for the source, where
 * POCL looks), then the -I directories of the options in order.  Which
 * candidate a compiler takes first differs between implementations, so
 * every one that exists must hold the same text.  0 when out of memory;
 * h->path NULL: not found, or ambiguous. */
static int find_header(const scan *sc, const char *name, int quoted, header *h)
{
    *h = (header){0};
    const char *slash = sc->file ? strrchr(sc->file, '/') : NULL;
    int ok = !quoted ? 1
             : slash ? try_dir(h, sc->file, (size_t)(slash - sc->file), name)
                     : try_dir(h, ".", 1, name);
    const char *at = sc->options, *w;
    size_t wl;
    while (ok && (wl = next_word(&at, &w)) > 0) {
        if (wl < 2 || w[0] != '-' || w[1] != 'I')
            continue;
        const char *dir = w + 2;
        size_t dl = wl - 2;
        if (dl == 0 && (dl = next_word(&at, &dir)) == 0)
            break;
        if (dl >= 2 && (dir[0] == '"' || dir[0] == '\'') &&
            dir[dl - 1] == dir[0]) {
            dir++; /* -I"dir" */
            dl -= 2;
        }
        ok = try_dir(h, dir, dl, name);
    }
    if (!ok || h->ambiguous) {
        free(h->path);
        free(h->text);
        h->path = h->text = NULL;
    }
    return ok;
}

/* Whether the header at `path` was read before (a second #include of it
 * adds nothing: guarded, or the same definitions again). */
static int header_read(const dl_srcmacros *m, const char *path)
{
    for (size_t i = 0; i < m->nheaders; i++)
        if (strcmp(m->headers[i], path) == 0)
            return 1;
    return 0;
}

static void save_pos(const scan *sc, file_pos *p)
{
    *p = (file_pos){sc->s, sc->len, sc->pos, sc->line, sc->file};
}

static void load_pos(scan *sc, const file_pos *p)
{
    sc->s = p->s;
    sc->len = p->len;
    sc->pos = p->pos;
    sc->line = p->line;
    sc->file = p->file;
}

/* Scans the header at `path` (kept in m->headers) as if its text stood
 * at the #include.  0 when out of memory. */
static int scan_header(scan *sc, char *path, const char *text, size_t len)
{
    dl_srcmacros *m = sc->m;
    char **grown = realloc(m->headers, (m->nheaders + 1) * sizeof *grown);
    if (!grown)
        return 0;
    m->headers = grown;
    m->headers[m->nheaders++] = path;
    file_pos back;
    save_pos(sc, &back);
    load_pos(sc, &(file_pos){text, len, 0, 1, path});
    sc->depth++;
    int ok = scan_source(sc);
    sc->depth--;
    load_pos(sc, &back);
    return ok;
}

/* Notes the first #include the scan does not read, for messages. */
static int unread(scan *sc, unsigned line, const char *rest)
{
    dl_srcmacros *m = sc->m;
    if (m->include_line)
        return 1;
    m->include_line = line;
    m->include_file = sc->file ? strdup(sc->file) : NULL;
    return (m->include = trimmed(rest)) && (!sc->file || m->include_file);
}

/* `#include "name"` or `<name>`: the header found in a -I directory is
 * scanned in place. */
static int include(scan *sc, unsigned line, const char *rest)
{
    while (*rest && isspace((unsigned char)*rest))
        rest++;
    char close = *rest == '"' ? '"' : *rest == '<' ? '>' : 0;
    const char *end = close ? strchr(rest + 1, close) : NULL;
    if (!end || end == rest + 1 || sc->depth >= MAX_INCLUDE_DEPTH)
        return unread(sc, line, rest);
    char *name = strndup(rest + 1, (size_t)(end - rest - 1));
    if (!name)
        return 0;
    header h;
    int found = find_header(sc, name, close == '"', &h);
    free(name);
    if (!found)
        return 0;
    if (h.path && header_read(sc->m, h.path)) {
        free(h.path);
        free(h.text);
        return 1;
    }
    if (!h.path)
        return unread(sc, line, rest);
    int ok = scan_header(sc, h.path, h.text, h.len);
    free(h.text);
    return ok;
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
    free(m->include_file);
    for (size_t i = 0; i < m->nheaders; i++)
        free(m->headers[i]);
    free(m->headers);
    free(m->label);
    free(m);
}

dl_status dl_srcmacros_scan(const char *src, size_t len, const char *label,
                            dl_srcmacros **out)
{
    return dl_srcmacros_scan_opts(src, len, label, NULL, out);
}

dl_status dl_srcmacros_scan_opts(const char *src, size_t len, const char *label,
                                 const char *options, dl_srcmacros **out)
{
    DL_RETURN_ERROR_ON(!out || (!src && len), DL_INVALID_ARGUMENT,
                       "no source to scan");
    *out = NULL;
    dl_srcmacros *m = calloc(1, sizeof *m);
    DL_RETURN_ERROR_ON(!m, DL_OUT_OF_MEMORY, "out of host memory");
    scan sc = {.s = src,
               .len = len,
               .line = 1,
               .options = options ? options : "",
               .m = m};
    int ok = (m->label = strdup(label ? label : "the source")) != NULL &&
             scan_source(&sc);
    for (size_t i = 0; i < sc.nframes; i++)
        free(sc.frames[i].guard);
    free(sc.frames);
    free(sc.text);
    if (!ok) {
        dl_srcmacros_free(m);
        return dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    }
    *out = m;
    return DL_SUCCESS;
}

/* The file a definition is in, for messages. */
static const char *where(const dl_srcmacros *m, const dl_srcmacro *d)
{
    return d->file ? d->file : m->label;
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
                           name, where(m, d), d->line);
        DL_RETURN_ERROR_ON(first, DL_INVALID_ARGUMENT,
                           "'%s' is defined more than once (%s:%u and "
                           "line %u): its value depends on where it is used",
                           name, where(m, first), first->line, d->line);
        first = d;
    }
    if (!first)
        return DL_SUCCESS;
    DL_RETURN_ERROR_ON(first->function_like, DL_INVALID_ARGUMENT,
                       "'%s' is a function-like macro (%s:%u)", name,
                       where(m, first), first->line);
    DL_RETURN_ERROR_ON(first->if_line && !first->guarded, DL_INVALID_ARGUMENT,
                       "'%s' is defined at %s:%u inside the conditional "
                       "block of line %u, which dlayout does not evaluate",
                       name, where(m, first), first->line, first->if_line);
    *def = first;
    return DL_SUCCESS;
}
