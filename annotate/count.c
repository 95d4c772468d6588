/* count.c - the record count of an argument without annotation.  Every
 * index must be one variable set once from get_global_id(0); a guard
 * `if (i < n)` around each access, or an earlier top-level
 * `if (i >= n) return;`, with an integer argument n gives n, otherwise
 * the NDRange does (global_offset(0) + global_size(0)). */
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A variable set once from get_global_id(0) and never changed. */
int gid_var(ctx *c, CXCursor var)
{
    dla_tree *t = &c->tree;
    int vnode = -1;
    for (int i = 0; i < t->n && vnode < 0; i++)
        if (t->nodes[i].kind == CXCursor_VarDecl &&
            clang_equalCursors(t->nodes[i].cur, var))
            vnode = i;
    if (vnode < 0 || clang_Type_getSizeOf(clang_getCursorType(var)) < 4)
        return 0;
    int init = dla_strip(t, t->nodes[vnode].last);
    if (init >= 0 && t->nodes[init].kind == CXCursor_CStyleCastExpr)
        init = dla_strip(t, dla_child(t, init, 0));
    long long dim;
    if (!is_call_to(c, init, "get_global_id") ||
        !dla_const_int(t->nodes[dla_child(t, init, 1)].cur, &dim) || dim != 0)
        return 0;
    char *name = dla_spelling(t->nodes[init].cur);
    int exact = name && strcmp(name, "get_global_id") == 0;
    free(name);
    if (!exact)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (refers_to(c, i, var)) {
            int raw = t->nodes[i].parent;
            while (raw >= 0 && t->nodes[raw].kind == CXCursor_ParenExpr)
                raw = t->nodes[raw].parent; /* `(i)`, as macros write it */
            if (raw < 0 || t->nodes[raw].kind != CXCursor_UnexposedExpr)
                return 0; /* assigned, incremented or its address taken */
        }
    return 1;
}

/* Whether the index of an access is the gid variable (returned). */
static int index_is_gid(ctx *c, const dla_access *acc, CXCursor *var)
{
    dla_tree *t = &c->tree;
    if (acc->index_name)
        return 0;
    int i = dla_strip(t, acc->index_node);
    if (i < 0 || t->nodes[i].kind != CXCursor_DeclRefExpr)
        return 0;
    CXCursor v = clang_getCursorReferenced(t->nodes[i].cur);
    if (clang_getCursorKind(v) != CXCursor_VarDecl)
        return 0;
    /* one variable is asked about again and again: remember it */
    if (!clang_Cursor_isNull(c->gid_checked) &&
        clang_equalCursors(v, c->gid_checked)) {
        *var = v;
        return c->gid_ok;
    }
    c->gid_checked = v;
    c->gid_ok = gid_var(c, v);
    *var = v;
    return c->gid_ok;
}

/* `gid < n` (or, with `negate`, `gid >= n`) where n is an integer
 * argument: returns n's name. */
char *guard_compare(ctx *c, int cond, CXCursor gid, int negate)
{
    dla_tree *t = &c->tree;
    cond = dla_strip(t, cond);
    if (cond < 0 || t->nodes[cond].kind != CXCursor_BinaryOperator)
        return NULL;
    const char *op = dla_binop(t, cond);
    const char *join = negate ? "||" : "&&";
    if (strcmp(op, join) == 0) {
        char *n = guard_compare(c, dla_child(t, cond, 0), gid, negate);
        return n ? n : guard_compare(c, dla_child(t, cond, 1), gid, negate);
    }
    if (strcmp(op, negate ? ">=" : "<") != 0)
        return NULL;
    int l = dla_strip(t, dla_child(t, cond, 0));
    int r = dla_strip(t, dla_child(t, cond, 1));
    if (!refers_to(c, l, gid) || t->nodes[r].kind != CXCursor_DeclRefExpr)
        return NULL;
    CXCursor n = clang_getCursorReferenced(t->nodes[r].cur);
    if (clang_getCursorKind(n) != CXCursor_ParmDecl)
        return NULL;
    enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(n)).kind;
    if (tk < CXType_Char_U || tk > CXType_LongLong)
        return NULL;
    return dla_spelling(n);
}

int index_is_own(ctx *c, const dla_access *acc)
{
    dla_tree *t = &c->tree;
    CXCursor v;
    if (index_is_gid(c, acc, &v))
        return 1;
    if (acc->index_name)
        return 0;
    int i = dla_strip(t, acc->index_node);
    if (i >= 0 && t->nodes[i].kind == CXCursor_CStyleCastExpr)
        i = dla_strip(t, dla_child(t, i, 0));
    long long dim;
    if (!is_call_to(c, i, "get_global_id") ||
        !dla_const_int(t->nodes[dla_child(t, i, 1)].cur, &dim) || dim != 0)
        return 0;
    char *name = dla_spelling(t->nodes[i].cur);
    int exact = name && strcmp(name, "get_global_id") == 0;
    free(name);
    return exact;
}

/* The guard bounding `gid` at the access whose node contains offset
 * `at`: an enclosing `if (gid < n)` or an earlier top-level
 * `if (gid >= n) return;`. */
static char *guard(ctx *c, unsigned at, CXCursor gid)
{
    dla_tree *t = &c->tree;
    int body = 0; /* the root is the body */
    for (int s = t->nodes[body].first; s >= 0; s = t->nodes[s].next) {
        dla_range r;
        if (!node_range(c, s, &r) || r.begin > at)
            break;
        if (t->nodes[s].kind != CXCursor_IfStmt)
            continue;
        int then = dla_child(t, s, 1);
        if (dla_child(t, s, 2) >= 0 || then < 0)
            continue;
        if (r.end <= at) { /* before the access: early return? */
            if (dla_is_return(t, then))
                return guard_compare(c, dla_child(t, s, 0), gid, 1);
            continue;
        }
        dla_range tr;
        if (node_range(c, then, &tr) && tr.begin <= at && at < tr.end)
            return guard_compare(c, dla_child(t, s, 0), gid, 0);
    }
    return NULL;
}

/* Count dims for an argument without annotation, or NULL (declined). */
char *infer_count(ctx *c, dla_arg *a)
{
    char *bound = NULL;
    int all_guarded = 1;
    CXCursor gid = clang_getNullCursor();
    for (unsigned i = 0; i < a->naccesses; i++) {
        const dla_access *acc = &a->accesses[i];
        if (acc->kind == DLA_CALL_NAME)
            continue;
        int via_alias = acc->index_name && strcmp(acc->index_name, "0") != 0;
        if (via_alias && acc->kind == DLA_CALL_ARG && acc->count_node < 0) {
            /* a helper given an alias reads other records than its own */
            free(bound);
            decline(a, "the record count cannot be inferred from the "
                       "indices (annotate the argument: //DL: AoS: "
                       "p[count])");
            return NULL;
        }
        if (via_alias)
            continue; /* through an alias: its declaration is checked */
        /* a helper call: the index its records are read at, if known */
        dla_access probe = {0};
        probe.index_node = acc->count_node;
        if (acc->kind == DLA_CALL_ARG)
            acc = &probe;
        CXCursor v;
        if (acc->index_node < 0 || !index_is_gid(c, acc, &v) ||
            (!clang_Cursor_isNull(gid) && !clang_equalCursors(v, gid))) {
            free(bound);
            decline(a, "the record count cannot be inferred from the "
                       "indices (annotate the argument: //DL: AoS: "
                       "p[count])");
            return NULL;
        }
        gid = v;
        char *n = guard(c, a->accesses[i].whole.begin, gid);
        if (!n || (bound && strcmp(bound, n) != 0)) {
            all_guarded = 0;
            free(n);
        } else if (!bound) {
            bound = n;
        } else {
            free(n);
        }
    }
    if (all_guarded && bound)
        return dla_printf("[%s]", bound);
    free(bound);
    return dla_strdup("[global_offset(0) + global_size(0)]");
}
