/* srcmacros.h - the `#define NAME VALUE` lines of a program's source, so
 * that a dimension expression may name the sizes a published kernel
 * defines in its own text (Parboil's `#define PADDED_X 128`).
 *
 * The scan reads only preprocessor lines (comments, literals and line
 * splices are understood) and keeps every #define and #undef with its
 * line and the conditional block around it.  It does not preprocess: a
 * macro is usable only when its value cannot depend on what the scan
 * does not know.  dl_srcmacros_find declines, with the line, a macro
 * defined more than once or also #undef'd, a function-like macro, and a
 * definition inside #if/#ifdef/#ifndef/#else, except the one form it can
 * resolve: `#ifndef NAME` / `#define NAME ...` / `#endif` at the top
 * level, a default the build options override.
 *
 * Two wrappers are read through.  An include guard, `#ifndef G` whose G
 * is surely undefined there (neither the build options nor an earlier
 * line define or #undef it, and no header before it went unread), is
 * entered by the program's one build: it is no block (its #else part
 * is).  And a header the compiler finds, the same text wherever it
 * looks (srcheader.h), is scanned where it is included, once.  A header
 * not found, or found with different texts, is named in the message of
 * a macro that is not found.  The build options' -D values are
 * buildopts.h's. */
#ifndef DL_SRCMACROS_H
#define DL_SRCMACROS_H

#include "dlayout.h"

typedef struct dl_srcmacro {
    char *name;
    char *value; /* the replacement text, comments removed       */
    unsigned line;
    int undef; /* an #undef line, not a definition              */
    int function_like;
    int guarded;      /* alone in `#ifndef NAME` at the top level      */
    unsigned if_line; /* the innermost #if/#ifdef/#ifndef around it, 0 */
    const char *file; /* the header it is in (owned by dl_srcmacros),
                         NULL: the source itself */
} dl_srcmacro;

typedef struct dl_srcmacros {
    char *label; /* the program's name, for messages          */
    dl_srcmacro *defs;
    size_t ndefs;
    unsigned include_line; /* the first #include not read, 0 when none  */
    char *include;         /* what that line includes                   */
    char *include_file;    /* the file of that line, NULL: the source   */
    char **headers;        /* the headers read (paths), in order        */
    size_t nheaders;
} dl_srcmacros;

/* Scans src[0..len) (NUL bytes allowed).  `label` names the source in
 * messages ("prog.cl").  Fails only for lack of memory. */
dl_status dl_srcmacros_scan(const char *src, size_t len, const char *label,
                            dl_srcmacros **out);
/* The same with the program's build options (NULL: none): its -I
 * directories are searched for the headers the source includes, and a
 * whole-file guard its -D names is not transparent. */
dl_status dl_srcmacros_scan_opts(const char *src, size_t len, const char *label,
                                 const char *options, dl_srcmacros **out);

void dl_srcmacros_free(dl_srcmacros *m);

/* The one usable definition of `name`: DL_SUCCESS with *def, or with
 * *def NULL when the source neither defines nor #undefs it; otherwise
 * DL_INVALID_ARGUMENT with a message naming label:line.  m may be NULL
 * (no source). */
dl_status dl_srcmacros_find(const dl_srcmacros *m, const char *name,
                            const dl_srcmacro **def);

#endif
