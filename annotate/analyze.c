/* analyze.c - finds the kernels of the input and, for each pointer
 * argument, decides whether its accesses can be rewritten for another
 * layout of the ASTA family: a record argument (a __global struct
 * pointer) or a scalar array that an annotation declares as records.
 * Every use of such an argument must have one of the known forms; any
 * other use declines the argument, with a reason.  Declining is always
 * safe: the argument keeps its original layout. */
#include "analyze.h"
#include "srcmacros.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

int decline(dla_arg *a, const char *why)
{
    if (!a->reason)
        a->reason = dla_strdup(why);
    return -1;
}

dla_access *new_access(dla_arg *a)
{
    unsigned n = a->naccesses;
    if (n == 0 || (n & (n - 1)) == 0) { /* capacities 1, 2, 4, ... */
        dla_access *grown =
            realloc(a->accesses, (n ? 2 * n : 1) * sizeof *grown);
        if (!grown)
            return NULL;
        a->accesses = grown;
    }
    dla_access *acc = &a->accesses[a->naccesses++];
    memset(acc, 0, sizeof *acc);
    acc->element_const = -1;
    acc->index_node = -1;
    acc->count_node = -1;
    return acc;
}

int node_range(const ctx *c, int node, dla_range *r)
{
    return node >= 0 && (dla_cursor_range(c->tree.nodes[node].cur, r) ||
                         dla_spelled_range(c->tree.nodes[node].cur, r));
}

int refers_to(const ctx *c, int node, CXCursor decl)
{
    if (c->tree.nodes[node].kind != CXCursor_DeclRefExpr)
        return 0;
    return clang_equalCursors(
        clang_getCursorReferenced(c->tree.nodes[node].cur), decl);
}

int is_call_to(const ctx *c, int node, const char *prefix)
{
    if (node < 0 || c->tree.nodes[node].kind != CXCursor_CallExpr)
        return 0;
    char *name = dla_spelling(c->tree.nodes[node].cur);
    int yes = name && strncmp(name, prefix, strlen(prefix)) == 0;
    free(name);
    return yes;
}

/* An index must be evaluable more than once: no side effects, no calls
 * other than the work-item functions. */
int check_index(ctx *c, dla_arg *a, int node, dla_range r)
{
    if (dla_range_has_side_effects(c->tu, c->file, r))
        return decline(a, "an index has side effects (assignment or "
                          "increment)");
    int end = node + 1;
    while (end < c->tree.n) { /* preorder: the subtree is contiguous */
        int p = end;
        while (p >= 0 && p != node)
            p = c->tree.nodes[p].parent;
        if (p != node)
            break;
        end++;
    }
    for (int i = node; i < end; i++)
        if (c->tree.nodes[i].kind == CXCursor_CallExpr &&
            !is_call_to(c, i, "get_"))
            return decline(a, "an index calls a function");
    return 0;
}

/* ------------------------------------------------------------ kernels */

int dla_is_kernel(CXTranslationUnit tu, CXCursor fn)
{
    CXSourceRange ext = clang_getCursorExtent(fn);
    CXSourceRange head =
        clang_getRange(clang_getRangeStart(ext), clang_getCursorLocation(fn));
    CXToken *toks = NULL;
    unsigned n = 0;
    int yes = 0;
    clang_tokenize(tu, head, &toks, &n);
    for (unsigned i = 0; i < n && !yes; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        yes = strcmp(clang_getCString(s), "__kernel") == 0 ||
              strcmp(clang_getCString(s), "kernel") == 0;
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return yes;
}

static int is_global_pointer(CXType t, CXType *pointee)
{
    if (t.kind != CXType_Pointer)
        return 0;
    *pointee = clang_getPointeeType(t);
    if (pointee->kind == CXType_Invalid)
        return 0;
    char *s = dla_type_spelling(*pointee);
    int yes = s && strstr(s, "__global") != NULL;
    free(s);
    return yes;
}

/* SHOC MD's `__global POSVECTYPE *position` (a float4) annotated as
 * records of its lanes, `position[n] record(size=16; 0:4, 4:4, 8:4,
 * 12:4)`: the vector is a record whose fields are its lanes, accessed
 * whole or one lane at a time (`position[j].x`).  1 when the pointer is
 * to a vector and annotated with one vector a record (declined with a
 * reason if the record is not its lanes), else 0. */
static int vector_record(dla_arg *a, CXType pointee)
{
    CXType canon = clang_getCanonicalType(pointee);
    if ((canon.kind != CXType_Vector && canon.kind != CXType_ExtVector) ||
        a->user->ndims != 1)
        return 0;
    CXType lane = clang_getElementType(canon);
    long long lanes = clang_getNumElements(canon),
              size = clang_Type_getSizeOf(lane),
              whole = clang_Type_getSizeOf(canon);
    if (lanes < 2 || size <= 0 || lanes * size != whole ||
        a->user->nfields != (uint32_t)lanes ||
        !dla_annot_elementwise(a->user, (uint32_t)size)) {
        decline(a, "record(...) of a vector is not one field per lane");
        return 1;
    }
    a->record_type = record_type_name(pointee);
    a->lane_type = dla_type_spelling(lane);
    a->parts = calloc((size_t)lanes, sizeof *a->parts);
    if (!a->record_type || !a->lane_type || !a->parts) {
        decline(a, "a vector type that has no name code can use");
        return 1;
    }
    for (long long i = 0; i < lanes; i++)
        a->parts[i] = (dla_part){(unsigned)(i * size), (unsigned)size, 0, NULL};
    a->nparts = a->nfields = (unsigned)lanes;
    a->record_size = (unsigned)whole;
    return 1;
}

/* `p += C;` or `p -= C;` (use d), a statement of the body itself before
 * any other use, C an integer constant expression: in the transformed
 * body the statement goes and C is added to every index of p (1).  0:
 * not such a statement; -1: declined. */
static int bump_use(ctx *c, dla_arg *a, int d)
{
    dla_tree *t = &c->tree;
    int from;
    int up = dla_up(t, d, &from);
    if (up < 0 || t->nodes[up].kind != CXCursor_CompoundAssignOperator ||
        dla_child(t, up, 0) != from)
        return 0;
    const char *op = dla_binop(t, up);
    int minus = strcmp(op, "-=") == 0;
    if (!minus && strcmp(op, "+=") != 0)
        return decline(a, "the pointer escapes: stored or modified");
    if (t->nodes[up].parent != 0 || a->bump || a->naccesses)
        return decline(a, "the pointer is moved other than once, as the "
                          "body's statement before any use");
    int rhs = dla_child(t, up, 1);
    long long value;
    dla_range text;
    if (!dla_const_int(t->nodes[rhs].cur, &value) ||
        !dla_cursor_range_loose(t->nodes[rhs].cur, &text))
        return decline(a, "the pointer is moved by a value that is not a "
                          "constant");
    dla_access *acc = new_access(a);
    char *c_text = dla_substr(&c->prog->src, text);
    if (!acc || !c_text || !node_range(c, up, &acc->whole)) {
        free(c_text);
        return decline(a, "the pointer is moved inside a macro expansion");
    }
    acc->kind = DLA_BUMP;
    a->bump = dla_printf("%s(long)(%s)", minus ? "-" : "", c_text);
    free(c_text);
    return a->bump ? 1 : decline(a, "out of memory");
}

/* The compiler arguments as build options, for dl_dims_define_src. */
static char *options_of(const dla_options *opt)
{
    size_t n = 1;
    for (int i = 0; i < opt->nclang; i++)
        n += strlen(opt->clang_args[i]) + 1;
    char *s = calloc(n, 1);
    for (int i = 0; s && i < opt->nclang; i++) {
        strcat(s, opt->clang_args[i]);
        strcat(s, " ");
    }
    return s;
}

/* A note when the user's count names a macro of the source (or of its
 * headers) that the runtime cannot evaluate from the program's source
 * string by its rules (srcmacros.h), with the runtime's reason; NULL
 * when it can, or when the count names no such macro. */
static char *source_macro_note(const ctx *c, dl_dims_expr *count)
{
    const char *name = NULL;
    for (uint32_t i = 0; !name && i < count->nnodes; i++)
        if (count->nodes[i].op == DL_DIMS_MACRO &&
            dla_source_macro(count->nodes[i].name))
            name = count->nodes[i].name;
    if (!name)
        return NULL;
    const dla_source *in = &c->prog->src;
    dl_srcmacros *src = NULL;
    char *options = options_of(c->opt);
    dl_status st = options ? dl_srcmacros_scan_opts(in->text, in->len, in->name,
                                                    options, &src)
                           : DL_OUT_OF_MEMORY;
    if (st == DL_SUCCESS)
        st = dl_dims_define_src(count, options, src);
    char *note =
        st == DL_SUCCESS
            ? NULL
            : dla_printf("its count names '%s', a macro of the source that the "
                         "runtime cannot evaluate from the program's source "
                         "string and build options (%s): the kernel runs as "
                         "written",
                         name, dl_last_error());
    dl_srcmacros_free(src);
    free(options);
    return note;
}

static void analyze_arg(ctx *c, dla_arg *a, CXCursor param)
{
    dla_kernel *k = c->k;
    CXType pointee;
    a->user = k->annot ? dl_annot_find_arg(k->annot, a->index) : NULL;
    if (!is_global_pointer(clang_getCursorType(param), &pointee))
        return;
    CXType canon = clang_getCanonicalType(pointee);
    int is_struct = canon.kind == CXType_Record &&
                    clang_getCursorKind(clang_getTypeDeclaration(canon)) ==
                        CXCursor_StructDecl;
    if (!is_struct && !a->user) {
        a->reason = dla_strdup("not a struct pointer and not annotated as "
                               "records");
        return;
    }
    a->candidate = 1;
    if (a->user && a->user->from.kind != DL_KIND_AOS) {
        decline(a, "the annotation says the host layout is not aos");
        return;
    }
    if (is_struct) {
        a->record_type = record_type_name(pointee);
        if (record_parts(a, pointee))
            return;
    } else if (vector_record(a, pointee)) {
        if (a->reason)
            return;
    } else {
        if (a->user->ndims < 2 || a->user->nfields < 2) {
            decline(a, "one element per record: every layout is the same");
            return;
        }
        long long elem = clang_Type_getSizeOf(pointee);
        if (elem <= 0 || elem > UINT32_MAX ||
            !dla_annot_elementwise(a->user, (uint32_t)elem)) {
            decline(a, "record(...) is not one field per element of the "
                       "array: its fields cannot be indexed as elements");
            return;
        }
        a->scalar = 1;
        a->per_record = a->user->nfields;
        a->elem_size = a->user->record_size / a->user->nfields;
        a->record_size = a->user->record_size;
    }
    dla_tree *t = &c->tree;
    for (int i = 0; i < t->n; i++) {
        if (!refers_to(c, i, param))
            continue;
        int moved = bump_use(c, a, i);
        if (moved < 0)
            return;
        if (!moved &&
            (a->scalar ? scalar_use(c, a, i) : struct_use(c, a, i)) != 0)
            return;
    }
    if (a->naccesses == (a->bump ? 1u : 0u)) {
        decline(a, "not accessed");
        return;
    }
    if (a->bump && !a->user) {
        decline(a, "the pointer is moved (p += C): annotate the record "
                   "count of the whole buffer");
        return;
    }
    if (a->user) {
        char buf[256];
        size_t at = 0;
        for (uint32_t d = 0; d < a->user->ndims && at < sizeof buf; d++) {
            at += (size_t)snprintf(buf + at, sizeof buf - at, "[");
            if (at < sizeof buf)
                at += (size_t)dl_dims_format(a->user->dims[d], buf + at,
                                             sizeof buf - at);
            if (at < sizeof buf)
                at += (size_t)snprintf(buf + at, sizeof buf - at, "]");
        }
        if (at >= sizeof buf) {
            decline(a, "the annotation's dimensions are too long");
            return;
        }
        a->count = dla_strdup(buf);
        if (a->user->count)
            a->count_note = source_macro_note(c, a->user->count);
    } else {
        a->count = infer_count(c, a);
        if (!a->count)
            return;
    }
    a->target = c->opt->layout;
    a->tile = c->opt->tile;
    if (a->user && a->user->to.kind != a->user->from.kind) {
        a->target =
            a->user->to.kind == DL_KIND_DA ? DLA_TARGET_DA : DLA_TARGET_ASTA;
        a->tile = a->user->to.tile;
        if (a->user->to.kind == DL_KIND_AOS) {
            decline(a, "the annotation asks for aos: nothing to rewrite");
            return;
        }
    }
    if (dla_annot_canonical(k, a))
        return;
    a->transformed = 1;
}

static dla_kernel *add_kernel(dla_program *p)
{
    dla_kernel *k = realloc(p->kernels, (p->nkernels + 1) * sizeof *k);
    if (!k)
        return NULL;
    p->kernels = k;
    k = &p->kernels[p->nkernels++];
    memset(k, 0, sizeof *k);
    return k;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

static int analyze_kernel(ctx *c, CXCursor fn)
{
    dla_kernel *k = add_kernel(c->prog);
    if (!k)
        return -1;
    c->k = k;
    c->gid_checked = clang_getNullCursor();
    k->name = dla_spelling(fn);
    CXSourceLocation loc = clang_getCursorLocation(fn);
    clang_getExpansionLocation(loc, NULL, &k->line, NULL, NULL);
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(fn, find_body, &body);
    if (!dla_cursor_range(fn, &k->decl) || !dla_cursor_range(body, &k->body) ||
        k->body.end < k->body.begin + 2)
        return 0; /* made by a macro: left alone */
    const char *text = c->prog->src.text;
    k->line_start = k->decl.begin;
    while (k->line_start > 0 && text[k->line_start - 1] != '\n')
        k->line_start--;
    for (unsigned i = k->line_start; i < k->decl.begin; i++)
        if (text[i] != ' ' && text[i] != '\t')
            k->mid_line = 1;
    if (k->mid_line)
        k->line_start = k->decl.begin;
    k->signature =
        dla_substr(&c->prog->src, (dla_range){k->decl.begin, k->body.begin});
    char *b = dla_substr(&c->prog->src, k->body);
    k->already = b && strstr(b, "DL_ACTIVE_") != NULL;
    k->already_tiled = b && strstr(b, DLA_TILED_MARK) != NULL;
    free(b);
    k->annot = c->prog->annots ? dl_annot_find(c->prog->annots, k->name) : NULL;
    int nparams = clang_Cursor_getNumArguments(fn);
    if (nparams <= 0)
        return 0;
    k->nargs = (unsigned)nparams;
    k->args = calloc(k->nargs, sizeof *k->args);
    if (!k->args || dla_tree_build(&c->tree, c->tu, body))
        return -1;
    for (unsigned i = 0; i < k->nargs; i++) {
        CXCursor param = clang_Cursor_getArgument(fn, i);
        k->args[i].index = i;
        k->args[i].name = dla_spelling(param);
        if (!k->already)
            analyze_arg(c, &k->args[i], param);
        else
            k->args[i].reason = dla_strdup("the kernel is already "
                                           "rewritten");
    }
    if (!k->already && dla_tiled(c))
        return -1;
    if (dla_find_indirect(c, fn) || dla_chunks(c) || dla_jobswap(c, fn) ||
        dla_share(c))
        return -1;
    /* The runtime converts every argument whose annotation asks for it:
     * one that cannot be rewritten keeps its annotation without the
     * target, so that the runtime converts nothing of it. */
    for (unsigned i = 0; i < k->nargs; i++) {
        dla_arg *a = &k->args[i];
        if (a->transformed || !a->user ||
            (a->user->to.kind == a->user->from.kind &&
             a->user->to.tile == a->user->from.tile))
            continue;
        dl_annot_arg plain = *a->user;
        plain.to = plain.from;
        char text[4096];
        int len = dl_annot_format(&plain, text, sizeof text);
        if (len > 0 && (size_t)len < sizeof text)
            a->neutral = dla_printf("%s", text);
        if (!a->neutral)
            return -1;
    }
    dla_tree_free(&c->tree);
    return 0;
}

typedef struct top_ctx {
    ctx *c;
    int failed;
} top_ctx;

static enum CXChildVisitResult visit_top(CXCursor cur, CXCursor parent,
                                         CXClientData data)
{
    (void)parent;
    top_ctx *tc = data;
    if (clang_getCursorKind(cur) == CXCursor_FunctionDecl &&
        clang_isCursorDefinition(cur) &&
        clang_Location_isFromMainFile(clang_getCursorLocation(cur)) &&
        dla_is_kernel(tc->c->tu, cur) && analyze_kernel(tc->c, cur)) {
        tc->failed = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

int dla_analyze(CXTranslationUnit tu, dla_program *prog, const dla_options *opt)
{
    ctx c = {0};
    c.tu = tu;
    c.prog = prog;
    c.opt = opt;
    /* The name clang opened: with -p, the input's absolute path. */
    CXString main_name = clang_getTranslationUnitSpelling(tu);
    c.file = clang_getFile(tu, clang_getCString(main_name));
    clang_disposeString(main_name);
    dla_set_main_file(c.file);
    dla_macros_init(tu, c.file);
    top_ctx tc = {&c, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &tc);
    dla_tree_free(&c.tree);
    dla_macros_free();
    return tc.failed ? -1 : 0;
}
