/* ast.c - see ast.h. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

typedef struct build_ctx {
    dla_tree *t;
    int parent;
    int failed;
} build_ctx;

static int add_node(dla_tree *t, CXCursor c, int parent)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 256;
        dla_node *nodes = realloc(t->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes)
            return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    int i = t->n++;
    t->nodes[i] = (dla_node){c, clang_getCursorKind(c), parent, -1, -1, -1, 0};
    if (parent >= 0) {
        dla_node *p = &t->nodes[parent];
        if (p->last >= 0) {
            t->nodes[p->last].next = i;
            t->nodes[i].nth = t->nodes[p->last].nth + 1;
        } else {
            p->first = i;
        }
        p->last = i;
    }
    return i;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent,
                                     CXClientData data)
{
    (void)parent;
    build_ctx *ctx = data;
    int i = add_node(ctx->t, c, ctx->parent);
    if (i < 0) {
        ctx->failed = 1;
        return CXChildVisit_Break;
    }
    build_ctx sub = {ctx->t, i, 0};
    clang_visitChildren(c, visit, &sub);
    if (sub.failed) {
        ctx->failed = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

int dla_tree_build(dla_tree *t, CXTranslationUnit tu, CXCursor root)
{
    memset(t, 0, sizeof *t);
    t->tu = tu;
    int r = add_node(t, root, -1);
    if (r < 0)
        return -1;
    build_ctx ctx = {t, r, 0};
    clang_visitChildren(root, visit, &ctx);
    return ctx.failed ? -1 : 0;
}

void dla_tree_free(dla_tree *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

int dla_child(const dla_tree *t, int node, int nth)
{
    if (node < 0)
        return -1;
    for (int c = t->nodes[node].first; c >= 0; c = t->nodes[c].next)
        if (nth-- == 0)
            return c;
    return -1;
}

int dla_is_return(const dla_tree *t, int node)
{
    if (node >= 0 && t->nodes[node].kind == CXCursor_CompoundStmt &&
        t->nodes[node].first >= 0 && t->nodes[t->nodes[node].first].next < 0)
        node = t->nodes[node].first;
    return node >= 0 && t->nodes[node].kind == CXCursor_ReturnStmt;
}

static int is_implicit(const dla_tree *t, int node)
{
    enum CXCursorKind k = t->nodes[node].kind;
    return k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr;
}

int dla_strip(const dla_tree *t, int node)
{
    while (node >= 0 && is_implicit(t, node) && t->nodes[node].first >= 0 &&
           t->nodes[t->nodes[node].first].next < 0)
        node = t->nodes[node].first;
    return node;
}

int dla_up(const dla_tree *t, int node, int *from)
{
    int below = node;
    int p = t->nodes[node].parent;
    while (p >= 0 && is_implicit(t, p)) {
        below = p;
        p = t->nodes[p].parent;
    }
    if (from)
        *from = below;
    return p;
}

/* The expansion offset of l in the main file; 0 for a location spelled
 * in a macro's argument, which expands elsewhere than it is written
 * (dla_spelled_range reads those). */
static int location_offset(CXSourceLocation l, unsigned *offset)
{
    if (!clang_Location_isFromMainFile(l))
        return 0;
    CXFile file;
    unsigned line, col, written;
    clang_getExpansionLocation(l, &file, &line, &col, offset);
    clang_getFileLocation(l, NULL, NULL, NULL, &written);
    return written == *offset;
}

static CXFile main_file;

void dla_set_main_file(CXFile file)
{
    main_file = file;
}

/* The expansion offset of l if that lies in the main file: for a range
 * that starts or ends in a macro expansion, the invocation's text. */
static int expansion_offset(CXSourceLocation l, unsigned *offset)
{
    CXFile file = NULL;
    unsigned line, col;
    clang_getExpansionLocation(l, &file, &line, &col, offset);
    return file && main_file && clang_File_isEqual(file, main_file);
}

int dla_cursor_range_loose(CXCursor c, dla_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    if (expansion_offset(clang_getRangeStart(ext), &r->begin) &&
        expansion_offset(clang_getRangeEnd(ext), &r->end) && r->begin < r->end)
        return 1;
    return dla_spelled_range(c, r); /* in a macro's argument */
}

int dla_cursor_range(CXCursor c, dla_range *r)
{
    CXSourceRange ext = clang_getCursorExtent(c);
    return location_offset(clang_getRangeStart(ext), &r->begin) &&
           location_offset(clang_getRangeEnd(ext), &r->end) &&
           r->begin <= r->end;
}

/* The spelling of the first token of `c` at or after byte `from`. */
static const char *token_at(CXTranslationUnit tu, CXCursor c, unsigned from,
                            int last)
{
    static char buf[8];
    buf[0] = 0;
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, clang_getCursorExtent(c), &toks, &n);
    for (unsigned i = 0; i < n; i++) {
        unsigned idx = last ? n - 1 - i : i;
        unsigned off;
        if (!location_offset(clang_getTokenLocation(tu, toks[idx]), &off))
            continue;
        if (!last && off < from)
            continue;
        if (clang_getTokenKind(toks[idx]) == CXToken_Punctuation) {
            CXString s = clang_getTokenSpelling(tu, toks[idx]);
            strncpy(buf, clang_getCString(s), sizeof buf - 1);
            buf[sizeof buf - 1] = 0;
            clang_disposeString(s);
        }
        break;
    }
    clang_disposeTokens(tu, toks, n);
    return buf;
}

const char *dla_binop(const dla_tree *t, int node)
{
    static char op[8];
    dla_range lhs, whole;
    int l = dla_child(t, node, 0);
    if (l < 0)
        return "";
    if (dla_cursor_range(t->nodes[node].cur, &whole) &&
        (dla_cursor_range(t->nodes[l].cur, &lhs) ||
         dla_cursor_range_loose(t->nodes[l].cur, &lhs)) &&
        lhs.end < whole.end)
        return token_at(t->tu, t->nodes[node].cur, lhs.end, 0);
    /* spelled in a macro's body: the token before the right operand */
    int r = dla_child(t, node, 1);
    if (r >= 0 && dla_spelled_operator(t->tu, t->nodes[r].cur, op, sizeof op))
        return op;
    return "";
}

const char *dla_unop(const dla_tree *t, int node)
{
    dla_range r;
    if (!dla_cursor_range(t->nodes[node].cur, &r))
        return "";
    const char *first = token_at(t->tu, t->nodes[node].cur, r.begin, 0);
    if (*first)
        return first;
    return token_at(t->tu, t->nodes[node].cur, 0, 1); /* postfix */
}

int dla_range_has_side_effects(CXTranslationUnit tu, CXFile file, dla_range r)
{
    CXSourceRange range =
        clang_getRange(clang_getLocationForOffset(tu, file, r.begin),
                       clang_getLocationForOffset(tu, file, r.end));
    CXToken *toks = NULL;
    unsigned n = 0;
    int found = 0;
    clang_tokenize(tu, range, &toks, &n);
    for (unsigned i = 0; i < n && !found; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *p = clang_getCString(s);
        size_t len = strlen(p);
        found = strcmp(p, "++") == 0 || strcmp(p, "--") == 0 ||
                (len >= 1 && p[len - 1] == '=' && strcmp(p, "==") != 0 &&
                 strcmp(p, "<=") != 0 && strcmp(p, ">=") != 0 &&
                 strcmp(p, "!=") != 0);
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return found;
}

int dla_const_int(CXCursor c, long long *value)
{
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (!ev)
        return 0;
    int ok = clang_EvalResult_getKind(ev) == CXEval_Int;
    if (ok)
        *value = clang_EvalResult_getAsLongLong(ev);
    clang_EvalResult_dispose(ev);
    return ok;
}

char *dla_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = dla_strdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}

char *dla_type_spelling(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *r = dla_strdup(clang_getCString(s));
    clang_disposeString(s);
    return r;
}
