/* helper.c - record pointers passed to functions of the source.
 *
 * A call `f(&p[E])`, `f(p + E)` or `f(p, ...)` does not let the pointer
 * escape when f is defined in this source: f's uses of its parameter q
 * are analysed like a kernel's (access.c), and the transformed branch
 * calls a copy of f made for this kernel and argument,
 *   dla_<kernel>_<arg>_<f>(..., T *q, size_t dla_x_q, size_t dla_M_<arg>, ...)
 * that reads record dla_x_q + E where f read q[E].  The call passes the
 * base pointer p, the record index E (0 for plain p) and the count.  The
 * original f stays as written for the untransformed branch and for other
 * callers.  Declined: f not defined here (or after the kernel), a kernel,
 * recursive, called through a macro, a call with another record pointer,
 * and any use of q that is not a known form, including passing it on
 * (one level of helper only). */
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decline_fn(dla_arg *a, const char *fn, const char *why)
{
    char *s = dla_printf("the pointer is passed to function '%s', %s",
                         fn ? fn : "?", why);
    decline(a, s ? s : why);
    free(s);
    return -1;
}

/* Whether a cursor's text comes from a macro expansion: its start or
 * end is spelled elsewhere than where it is expanded. */
static int from_macro(CXCursor cur)
{
    CXSourceRange ext = clang_getCursorExtent(cur);
    CXSourceLocation ends[2] = {clang_getRangeStart(ext),
                                clang_getRangeEnd(ext)};
    for (int i = 0; i < 2; i++) {
        CXFile ef = NULL, sf = NULL;
        unsigned eo = 0, so = 0;
        clang_getExpansionLocation(ends[i], &ef, NULL, NULL, &eo);
        clang_getSpellingLocation(ends[i], &sf, NULL, NULL, &so);
        if (eo != so || !ef || !sf || !clang_File_isEqual(ef, sf))
            return 1;
    }
    return 0;
}

/* The helper's body calls the helper itself. */
static int recursive(const dla_tree *t, CXCursor def)
{
    for (int i = 0; i < t->n; i++) {
        if (t->nodes[i].kind != CXCursor_CallExpr)
            continue;
        CXCursor d = clang_getCursorDefinition(
            clang_getCursorReferenced(t->nodes[i].cur));
        if (!clang_Cursor_isNull(d) && clang_equalCursors(d, def))
            return 1;
    }
    return 0;
}

/* Whether node (stripped) names a parameter of the helper that its body
 * never changes: its position, else -1. */
static int unchanged_param(ctx *h, int node, CXCursor def)
{
    dla_tree *t = &h->tree;
    node = dla_strip(t, node);
    if (node < 0 || t->nodes[node].kind != CXCursor_DeclRefExpr)
        return -1;
    CXCursor v = clang_getCursorReferenced(t->nodes[node].cur);
    if (clang_getCursorKind(v) != CXCursor_ParmDecl)
        return -1;
    int pos = -1;
    for (int j = 0; j < clang_Cursor_getNumArguments(def); j++)
        if (clang_equalCursors(clang_Cursor_getArgument(def, (unsigned)j), v))
            pos = j;
    if (pos < 0)
        return -1;
    for (int i = 0; i < t->n; i++)
        if (refers_to(h, i, v)) {
            int raw = t->nodes[i].parent;
            if (raw < 0 || t->nodes[raw].kind != CXCursor_UnexposedExpr)
                return -1; /* assigned, incremented or its address taken */
        }
    return pos;
}

/* Which records the helper's accesses read, for count inference: -1 the
 * one passed (q->f only), j >= 0 q[parameter j], -2 others. */
static int count_class(ctx *h, const dla_helper *hp, CXCursor def)
{
    int cls = -3; /* none yet */
    for (unsigned i = 0; i < hp->naccesses; i++) {
        const dla_access *acc = &hp->accesses[i];
        int this;
        if (acc->index_name && strcmp(acc->index_name, "0") != 0)
            continue; /* through an alias: its declaration counts */
        if (acc->index_name)
            this = -1;
        else if ((this = unchanged_param(h, acc->index_node, def)) < 0)
            return -2;
        if (cls != -3 && cls != this)
            return -2;
        cls = this;
    }
    return cls == -3 ? -2 : cls;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent,
                                         CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

/* Analyses helper `def` whose parameter `pos` receives a's records. */
static int analyse_helper(ctx *c, dla_arg *a, CXCursor def, unsigned pos,
                          const char *fn, dla_helper *hp)
{
    CXCursor param = clang_Cursor_getArgument(def, pos);
    CXCursor body = clang_getNullCursor();
    clang_visitChildren(def, find_body, &body);
    CXSourceLocation nameloc = clang_getCursorLocation(def);
    unsigned name_at = 0;
    if (clang_Cursor_isNull(body) || !dla_cursor_range(def, &hp->decl) ||
        !dla_cursor_range(param, &hp->param) ||
        !clang_Location_isFromMainFile(nameloc))
        return decline_fn(a, fn, "whose definition comes from a macro");
    clang_getExpansionLocation(nameloc, NULL, NULL, NULL, &name_at);
    hp->fname = (dla_range){name_at, name_at + (unsigned)strlen(fn)};
    if (hp->fname.end > c->prog->src.len ||
        memcmp(c->prog->src.text + name_at, fn, strlen(fn)) != 0)
        return decline_fn(a, fn, "whose name comes from a macro");
    hp->param_name = dla_spelling(param);
    if (!hp->param_name || !*hp->param_name)
        return decline_fn(a, fn, "whose parameter has no name");
    ctx h = *c;
    h.helper = fn;
    h.gid_checked = clang_getNullCursor();
    if (dla_tree_build(&h.tree, c->tu, body)) {
        dla_tree_free(&h.tree);
        return decline(a, "out of memory");
    }
    int status = 0;
    if (recursive(&h.tree, def))
        status = decline_fn(a, fn, "which is recursive");
    /* q's uses, into a scratch argument with a's record */
    dla_arg scratch = *a;
    scratch.reason = NULL;
    scratch.naccesses = 0;
    scratch.accesses = NULL;
    scratch.nhelpers = 0;
    scratch.helpers = NULL;
    for (int i = 0; i < h.tree.n && !status; i++)
        if (refers_to(&h, i, param) && struct_use(&h, &scratch, i)) {
            char *why = dla_printf(
                "the pointer is passed to function "
                "'%s'; there: %s",
                fn, scratch.reason ? scratch.reason : "an unsupported use");
            status = decline(a, why ? why : "a helper uses it unsupportedly");
            free(why);
        }
    free(scratch.reason);
    hp->naccesses = scratch.naccesses;
    hp->accesses = scratch.accesses;
    if (!status && hp->naccesses == 0)
        status = decline_fn(a, fn, "which does not access the records");
    if (!status)
        hp->count_class = count_class(&h, hp, def);
    dla_tree_free(&h.tree);
    return status;
}

/* The helper of a's copies for def (analysed once per argument). */
static dla_helper *find_helper(ctx *c, dla_arg *a, CXCursor def, unsigned pos,
                               const char *fn)
{
    for (unsigned i = 0; i < a->nhelpers; i++)
        if (strcmp(a->helpers[i].fn, fn) == 0) {
            if (a->helpers[i].param_pos != pos) {
                decline_fn(a, fn, "at different parameters");
                return NULL;
            }
            return &a->helpers[i];
        }
    dla_helper *grown = realloc(a->helpers, (a->nhelpers + 1) * sizeof *grown);
    if (!grown) {
        decline(a, "out of memory");
        return NULL;
    }
    a->helpers = grown;
    dla_helper *hp = &a->helpers[a->nhelpers];
    memset(hp, 0, sizeof *hp);
    hp->fn = dla_strdup(fn);
    hp->copy = dla_printf("dla_%s_%s_%s", c->k->name, a->name, fn);
    hp->param_pos = pos;
    if (!hp->fn || !hp->copy) {
        decline(a, "out of memory");
        return NULL;
    }
    if (analyse_helper(c, a, def, pos, fn, hp))
        return NULL;
    a->nhelpers++;
    return hp;
}

/* Whether a call argument's type is a pointer to a struct. */
static int record_pointer(CXCursor arg)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    if (t.kind != CXType_Pointer)
        return 0;
    return clang_getCanonicalType(clang_getPointeeType(t)).kind ==
           CXType_Record;
}

int helper_in_macro(ctx *c, dla_arg *a, int use)
{
    dla_tree *t = &c->tree;
    if (!from_macro(t->nodes[use].cur))
        return 0;
    for (int p = t->nodes[use].parent; p >= 0; p = t->nodes[p].parent) {
        if (t->nodes[p].kind != CXCursor_CallExpr)
            continue;
        CXCursor def = clang_getCursorDefinition(
            clang_getCursorReferenced(t->nodes[p].cur));
        if (clang_Cursor_isNull(def) ||
            !clang_Location_isFromMainFile(clang_getCursorLocation(def)))
            continue;
        char *fn = dla_spelling(t->nodes[p].cur);
        decline_fn(a, fn, "through a macro");
        free(fn);
        return -1;
    }
    return 0;
}

int from_macro_call(ctx *c, int use)
{
    return from_macro(c->tree.nodes[use].cur);
}

int helper_call(ctx *c, dla_arg *a, int call, int arg, int idx,
                const char *alias_index)
{
    dla_tree *t = &c->tree;
    CXCursor fncur = clang_getCursorReferenced(t->nodes[call].cur);
    char *fn = dla_spelling(fncur);
    int status = -1;
    if (!fn) {
        decline(a, "out of memory");
        goto out;
    }
    if (c->helper) {
        char *why = dla_printf("it is passed on to '%s' (one level of "
                               "helper functions only)",
                               fn);
        decline(a, why ? why : "passes it on");
        free(why);
        goto out;
    }
    int callee = dla_child(t, call, 0);
    if (callee < 0 || from_macro(t->nodes[call].cur) ||
        from_macro(t->nodes[callee].cur)) {
        decline_fn(a, fn, "through a macro");
        goto out;
    }
    CXCursor def = clang_getCursorDefinition(fncur);
    if (clang_Cursor_isNull(def) ||
        clang_getCursorKind(def) != CXCursor_FunctionDecl ||
        !clang_Location_isFromMainFile(clang_getCursorLocation(def))) {
        decline_fn(a, fn,
                   "which is not defined in this source (the pointer "
                   "escapes)");
        goto out;
    }
    if (dla_is_kernel(c->tu, def)) {
        decline_fn(a, fn, "a kernel");
        goto out;
    }
    dla_range call_r, callee_r, arg_r, def_r;
    callee = dla_strip(t, callee);
    if (!node_range(c, call, &call_r) || callee < 0 ||
        t->nodes[callee].kind != CXCursor_DeclRefExpr ||
        !node_range(c, callee, &callee_r) ||
        callee_r.end - callee_r.begin != strlen(fn) ||
        memcmp(c->prog->src.text + callee_r.begin, fn, strlen(fn)) != 0 ||
        !node_range(c, arg, &arg_r)) {
        decline_fn(a, fn, "through a macro");
        goto out;
    }
    if (!dla_cursor_range(def, &def_r) || def_r.begin > c->k->decl.begin) {
        decline_fn(a, fn, "which is defined after the kernel");
        goto out;
    }
    /* the argument's position; no other record pointer in the call */
    int nargs = clang_Cursor_getNumArguments(t->nodes[call].cur);
    int pos = -1;
    for (int j = 0; j < nargs; j++) {
        int node = dla_child(t, call, j + 1);
        if (node == arg)
            pos = j;
        else if (record_pointer(clang_Cursor_getArgument(t->nodes[call].cur,
                                                         (unsigned)j))) {
            decline_fn(a, fn,
                       "with another record pointer in the same "
                       "call");
            goto out;
        }
    }
    if (pos < 0 || pos >= clang_Cursor_getNumArguments(def)) {
        decline_fn(a, fn, "in an unsupported way");
        goto out;
    }
    CXType want = clang_getCanonicalType(
        clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)pos)));
    CXType have = clang_getCanonicalType(
        clang_getCursorType(t->nodes[dla_strip(t, arg)].cur));
    if (want.kind != CXType_Pointer || have.kind != CXType_Pointer ||
        !clang_equalCursors(
            clang_getTypeDeclaration(clang_getPointeeType(want)),
            clang_getTypeDeclaration(clang_getPointeeType(have)))) {
        decline_fn(a, fn, "as another type");
        goto out;
    }
    dla_helper *hp = find_helper(c, a, def, (unsigned)pos, fn);
    if (!hp)
        goto out;
    dla_access *name = new_access(a);
    if (!name) {
        decline(a, "out of memory");
        goto out;
    }
    name->kind = DLA_CALL_NAME;
    name->whole = callee_r;
    name->callee = hp->copy;
    int cls = hp->count_class;
    dla_access *acc = new_access(a);
    if (!acc) {
        decline(a, "out of memory");
        goto out;
    }
    acc->kind = DLA_CALL_ARG;
    acc->whole = arg_r;
    if (idx >= 0) {
        if (dla_range_has_side_effects(c->tu, c->file, arg_r)) {
            decline(a, "an index has side effects (assignment or "
                       "increment)");
            goto out;
        }
        acc->index_node = idx;
        if (!dla_cursor_range_loose(t->nodes[idx].cur, &acc->index)) {
            decline(a, "an index is not in the source text");
            goto out;
        }
        if (check_index(c, a, idx, acc->index))
            goto out;
        acc->count_node = cls == -1 ? idx : -1;
    } else if (alias_index) {
        /* the alias's declaration gives the count; the helper must read
         * only the record it points at (count_node 0: yes) */
        acc->index_name = alias_index;
        acc->count_node = cls == -1 ? 0 : -1;
    } else {
        acc->index_name = "0";
        acc->count_node = cls >= 0 ? dla_child(t, call, cls + 1) : -1;
    }
    status = 0;
out:
    free(fn);
    return status;
}
