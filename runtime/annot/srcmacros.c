/* srcmacros.c - the #define and #undef lines of a source, with the
 * conditional block around each (see srcmacros.h).  The directives come
 * from srcdirectives.c; a header the compiler would find (srcheader.c) is
 * scanned where it is included. */
#include "srcmacros.h"
#include "buildopts.h"
#include "error.h"
#include "srcdirectives.h"
#include "srcheader.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Headers included from headers, at most this deep. */
#define MAX_INCLUDE_DEPTH 8

/* An open #if/#ifdef/#ifndef block. */
typedef struct frame {
    unsigned line;
    char *guard; /* NAME of `#ifndef NAME`, else NULL               */
    int in_else; /* past an #elif or #else                          */
    int taken;   /* an #ifndef of a name surely undefined there     */
} frame;

/* Where the scan is in one file (the source, or a header). */
typedef struct file_pos {
    dl_srcdirectives at;
    const char *file; /* the header's path, NULL: the source */
} file_pos;

typedef struct scan {
    file_pos in;
    const char *options; /* the build options, "" if none */
    unsigned depth;      /* of #include */
    dl_srcmacros *m;
    frame *frames;
    size_t nframes, cap_frames;
    dl_text text; /* the directive being read, comments removed */
} scan;

static int is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
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
    d->file = sc->in.file;
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
    const char *rest = sc->text.text, *kw;
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

/* The pass over the file sc->in: every directive, in order. */
static int scan_source(scan *sc)
{
    unsigned line;
    int got;
    while ((got = dl_srcdirectives_next(&sc->in.at, &sc->text, &line)) > 0)
        if (!directive(sc, line))
            return 0;
    return got == 0;
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
    file_pos back = sc->in;
    sc->in = (file_pos){dl_srcdirectives_start(text, len), path};
    sc->depth++;
    int ok = scan_source(sc);
    sc->depth--;
    sc->in = back;
    return ok;
}

/* Notes the first #include the scan does not read, for messages. */
static int unread(scan *sc, unsigned line, const char *rest)
{
    dl_srcmacros *m = sc->m;
    if (m->include_line)
        return 1;
    m->include_line = line;
    m->include_file = sc->in.file ? strdup(sc->in.file) : NULL;
    return (m->include = trimmed(rest)) && (!sc->in.file || m->include_file);
}

/* `#include "name"` or `<name>`: the header found where the compiler
 * would find it is scanned in place. */
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
    dl_srcheader h;
    int found =
        dl_srcheader_find(sc->in.file, sc->options, name, close == '"', &h);
    free(name);
    if (!found)
        return 0;
    if (h.path && header_read(sc->m, h.path)) {
        dl_srcheader_free(&h);
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
    scan sc = {.in = {dl_srcdirectives_start(src, len), NULL},
               .options = options ? options : "",
               .m = m};
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
