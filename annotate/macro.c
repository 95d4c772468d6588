/* macro.c - accesses written through macros, as published kernels write
 * them: `as_uint(g[i])` (the access spelled in a macro's argument, which
 * is text of the input), and `SRC_N(g)` (a function-like macro whose body
 * holds the access, `((g)[CALC_INDEX(...)])`: the invocation's text is
 * what the rewrite replaces).  libclang 14 maps a location in a macro
 * body to the invocation's name in the file and one in an argument to
 * where the argument is written; the list of the input's macro
 * invocations (the detailed preprocessing record) tells the two apart.
 * The record also says which macros the source itself defines: a count
 * that names one may be one the runtime cannot read (dla_source_macro).
 * The operator of a binary node spelled in a macro body is read from the
 * tokens of the file that spells it (the definition). */
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

/* The main file's macro invocations, sorted by where they begin. */
static dla_range *expansions;
static unsigned nexpansions;

/* The tokens of a file that spells part of an expression (the input or
 * a header holding a macro's definition), for the operator before a
 * location. */
typedef struct spelled_file {
    CXFile file;
    CXToken *toks;
    unsigned ntoks;
    unsigned *offsets;
} spelled_file;

static spelled_file files[16];
static unsigned nfiles;
static CXTranslationUnit files_tu;
static CXFile main_file;

/* The names of the macros that the input and its own headers define
 * (not the command line's -D, nor system headers). */
static char **source_macros;
static unsigned nsource_macros;

static void add_source_macro(CXCursor c)
{
    CXFile file = NULL;
    CXSourceLocation at = clang_getCursorLocation(c);
    clang_getFileLocation(at, &file, NULL, NULL, NULL);
    if (!file || clang_Location_isInSystemHeader(at))
        return;
    char **grown = realloc(source_macros, (nsource_macros + 1) * sizeof *grown);
    if (!grown)
        return;
    source_macros = grown;
    if ((source_macros[nsource_macros] = dla_spelling(c)) != NULL)
        nsource_macros++;
}

int dla_source_macro(const char *name)
{
    for (unsigned i = 0; i < nsource_macros; i++)
        if (strcmp(source_macros[i], name) == 0)
            return 1;
    return 0;
}

static enum CXChildVisitResult add_expansion(CXCursor c, CXCursor parent,
                                             CXClientData data)
{
    (void)parent;
    (void)data;
    dla_range r;
    if (clang_getCursorKind(c) == CXCursor_MacroDefinition)
        add_source_macro(c);
    if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
        return CXChildVisit_Continue;
    CXSourceRange ext = clang_getCursorExtent(c);
    CXFile file = NULL;
    clang_getFileLocation(clang_getRangeStart(ext), &file, NULL, NULL,
                          &r.begin);
    clang_getFileLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &r.end);
    if (!file || !clang_File_isEqual(file, main_file) || r.end <= r.begin)
        return CXChildVisit_Continue;
    if ((nexpansions & (nexpansions + 1)) == 0 || nexpansions == 0) {
        dla_range *grown =
            realloc(expansions, (2 * nexpansions + 2) * sizeof *grown);
        if (!grown)
            return CXChildVisit_Break;
        expansions = grown;
    }
    expansions[nexpansions++] = r;
    return CXChildVisit_Continue;
}

static int cmp_range(const void *x, const void *y)
{
    const dla_range *a = x, *b = y;
    return (a->begin > b->begin) - (a->begin < b->begin);
}

void dla_macros_init(CXTranslationUnit tu, CXFile main)
{
    dla_macros_free();
    files_tu = tu;
    main_file = main;
    clang_visitChildren(clang_getTranslationUnitCursor(tu), add_expansion,
                        NULL);
    if (nexpansions)
        qsort(expansions, nexpansions, sizeof *expansions, cmp_range);
}

void dla_macros_free(void)
{
    free(expansions);
    expansions = NULL;
    nexpansions = 0;
    for (unsigned i = 0; i < nsource_macros; i++)
        free(source_macros[i]);
    free(source_macros);
    source_macros = NULL;
    nsource_macros = 0;
    for (unsigned i = 0; i < nfiles; i++) {
        clang_disposeTokens(files_tu, files[i].toks, files[i].ntoks);
        free(files[i].offsets);
    }
    nfiles = 0;
}

int dla_expansion_at(unsigned offset, dla_range *inv)
{
    unsigned lo = 0, hi = nexpansions;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (expansions[mid].begin < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == nexpansions || expansions[lo].begin != offset)
        return 0;
    if (inv)
        *inv = expansions[lo];
    return 1;
}

/* Offsets in the main file that libclang maps a cursor's extent to (a
 * macro body's tokens map to the invocation's name). */
static int file_offsets(CXCursor c, unsigned *b, unsigned *e)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    CXFile fb = NULL, fe = NULL;
    clang_getFileLocation(clang_getRangeStart(ext), &fb, NULL, NULL, b);
    clang_getFileLocation(clang_getRangeEnd(ext), &fe, NULL, NULL, e);
    return fb && fe && main_file && clang_File_isEqual(fb, main_file) &&
           clang_File_isEqual(fe, main_file);
}

int dla_spelled_range(CXCursor c, dla_range *r)
{
    unsigned b, e;
    if (!file_offsets(c, &b, &e) || b >= e || dla_expansion_at(b, NULL) ||
        dla_expansion_at(e, NULL))
        return 0;
    /* no invocation overlaps the text partly: each lies inside it, holds
     * it in an argument (then its ')' follows: a text that ends where an
     * invocation ends ends in that macro's body), or lies apart */
    for (unsigned i = 0; i < nexpansions && expansions[i].begin < e; i++) {
        dla_range x = expansions[i];
        if (x.end > b && !(x.begin >= b && x.end <= e) &&
            !(x.begin < b && x.end > e))
            return 0;
    }
    r->begin = b;
    r->end = e;
    return 1;
}

/* Whether node `up` (or any node) is an ancestor of n, or n itself. */
static int is_ancestor(const dla_tree *t, int up, int n)
{
    while (n >= 0 && n != up)
        n = t->nodes[n].parent;
    return n == up;
}

/* The invocation that a node spanning file offsets [b, e] comes from:
 * it begins at the invocation's name (a body token) or in one of its
 * arguments (`(g[CALC_INDEX(...)])` begins with the argument g), and it
 * ends in the body, which maps to the name (an invocation inside another
 * macro's argument) or past the closing parenthesis.  The innermost such
 * invocation, or 0. */
static int expansion_around(unsigned b, unsigned e, dla_range *inv)
{
    int found = 0;
    for (unsigned i = 0; i < nexpansions && expansions[i].begin <= b; i++) {
        dla_range x = expansions[i];
        if (b < x.end && (e == x.begin || e == x.end) &&
            (!found || x.begin > inv->begin)) {
            *inv = x;
            found = 1;
        }
    }
    return found;
}

int dla_invocation_of(ctx *c, int node, dla_range *inv)
{
    dla_tree *t = &c->tree;
    unsigned b, e;
    dla_range x;
    if (!file_offsets(t->nodes[node].cur, &b, &e) ||
        !expansion_around(b, e, &x))
        return 0;
    /* Parentheses above the node may come from the body; the first other
     * ancestor must not begin in the expansion and end there (a body
     * `(g)[i] * 2.0f`, or `x * (g)[i]` with x an argument). */
    int up = dla_up(t, node, NULL);
    unsigned ub, ue;
    if (up >= 0 && file_offsets(t->nodes[up].cur, &ub, &ue) && ub >= x.begin &&
        ub < x.end && ue <= x.end)
        return 0;
    /* Nothing else begins in the expansion: no operand of an ancestor
     * (`#define M (g)[i] * 2` then `x + M`), no other statement. */
    for (int i = 0; i < t->n; i++) {
        unsigned ib, ie;
        if (is_ancestor(t, node, i) || is_ancestor(t, i, node))
            continue;
        if (file_offsets(t->nodes[i].cur, &ib, &ie) && ib >= x.begin &&
            ib < x.end)
            return 0;
    }
    *inv = x;
    return 1;
}

/* The tokens of `file`, tokenized once. */
static spelled_file *spelled(CXFile file)
{
    for (unsigned i = 0; i < nfiles; i++)
        if (clang_File_isEqual(files[i].file, file))
            return &files[i];
    if (nfiles == sizeof files / sizeof *files)
        return NULL;
    size_t size = 0;
    if (!clang_getFileContents(files_tu, file, &size))
        return NULL;
    spelled_file *f = &files[nfiles];
    memset(f, 0, sizeof *f);
    f->file = file;
    CXSourceRange all = clang_getRange(
        clang_getLocationForOffset(files_tu, file, 0),
        clang_getLocationForOffset(files_tu, file, (unsigned)size));
    clang_tokenize(files_tu, all, &f->toks, &f->ntoks);
    f->offsets = malloc((f->ntoks ? f->ntoks : 1) * sizeof *f->offsets);
    if (!f->offsets) {
        clang_disposeTokens(files_tu, f->toks, f->ntoks);
        return NULL;
    }
    for (unsigned i = 0; i < f->ntoks; i++)
        clang_getFileLocation(clang_getTokenLocation(files_tu, f->toks[i]),
                              NULL, NULL, NULL, &f->offsets[i]);
    nfiles++;
    return f;
}

/* Where the first token of `c` is written: in the input for a token of
 * the input or of a macro's argument, else (a macro body's token) in the
 * macro's definition, which libclang's raw tokens give. */
static int first_token(CXTranslationUnit tu, CXCursor c, CXFile *file,
                       unsigned *off)
{
    CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(c));
    clang_getFileLocation(at, file, NULL, NULL, off);
    if (*file && main_file && clang_File_isEqual(*file, main_file) &&
        !dla_expansion_at(*off, NULL))
        return 1;
    CXToken *tok = clang_getToken(tu, at);
    if (!tok)
        return 0;
    clang_getFileLocation(clang_getTokenLocation(tu, *tok), file, NULL, NULL,
                          off);
    clang_disposeTokens(tu, tok, 1);
    return *file != NULL;
}

int dla_spelled_operator(CXTranslationUnit tu, CXCursor rhs, char *op,
                         size_t size)
{
    op[0] = 0;
    CXFile file = NULL;
    unsigned off;
    spelled_file *f = first_token(tu, rhs, &file, &off) ? spelled(file) : NULL;
    if (!f)
        return 0;
    unsigned lo = 0, hi = f->ntoks;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (f->offsets[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || lo == f->ntoks || f->offsets[lo] != off ||
        clang_getTokenKind(f->toks[lo - 1]) != CXToken_Punctuation)
        return 0;
    CXString s = clang_getTokenSpelling(tu, f->toks[lo - 1]);
    strncpy(op, clang_getCString(s), size - 1);
    op[size - 1] = 0;
    clang_disposeString(s);
    return 1;
}
