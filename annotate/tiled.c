/* tiled.c - whether a rewritten kernel can also run on the tiled NDRange.
 *
 * ASTA(T)'s flat index ((i/T)*S + s)*T + i%T stays scalar on a CPU device
 * compiler: consecutive work-items cross tile boundaries.  When a kernel
 * uses only dimension 0 of its range, the runtime can launch it on
 * global (T, G/T) instead, and the kernel reads its record as
 * i = get_global_id(1)*T + get_global_id(0): tile get_global_id(1), lane
 * get_global_id(0), so the lanes of a tile are consecutive work-items and
 * consecutive addresses.  This file decides whether that is safe:
 *   - the only work-item functions are get_global_id(0),
 *     get_global_size(0) and get_global_offset(0), outside macros (they
 *     are rewritten for the 2-D range);
 *   - no local ids, groups, local sizes, barriers, get_work_dim, other
 *     dimensions, required work-group sizes, or calls of the source's own
 *     functions (which could use any of those);
 *   - every record count can be read in the 2-D range.
 * It also finds the padding bound: when every work-item past a guard
 * `if (i >= n) return;` or `if (i < n) { ... }` does nothing, the runtime
 * may pad a range that is no multiple of T. */
#define _GNU_SOURCE /* vasprintf */
#include "analyze.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int no_tiled(dla_kernel *k, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int no_tiled(dla_kernel *k, const char *fmt, ...)
{
    if (k->tiled_reason)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&k->tiled_reason, fmt, ap) < 0)
        k->tiled_reason = NULL;
    va_end(ap);
    return k->tiled_reason ? 0 : -1;
}

/* Functions that tie a work-item to its work-group or to the shape of the
 * range: a tiled launch changes what they return. */
static const char *const group_bound[] = {"get_local_id",
                                          "get_group_id",
                                          "get_local_size",
                                          "get_enqueued_local_size",
                                          "get_num_groups",
                                          "get_work_dim",
                                          "get_global_linear_id",
                                          "get_local_linear_id",
                                          "barrier",
                                          "work_group_barrier",
                                          "mem_fence",
                                          "read_mem_fence",
                                          "write_mem_fence",
                                          "async_work_group_copy",
                                          "async_work_group_strided_copy",
                                          "wait_group_events",
                                          NULL};
static const char *const group_prefixes[] = {
    "work_group_",       "sub_group_",         "get_sub_group",
    "get_max_sub_group", "get_num_sub_groups", NULL};

int dla_group_bound(const char *name)
{
    for (int i = 0; group_bound[i]; i++)
        if (strcmp(name, group_bound[i]) == 0)
            return 1;
    for (int i = 0; group_prefixes[i]; i++)
        if (strncmp(name, group_prefixes[i], strlen(group_prefixes[i])) == 0)
            return 1;
    return 0;
}

static int add_call(dla_kernel *k, dla_call_kind kind, dla_range r)
{
    dla_call *grown = realloc(k->calls, (k->ncalls + 1) * sizeof *grown);
    if (!grown)
        return -1;
    k->calls = grown;
    k->calls[k->ncalls++] = (dla_call){kind, r};
    return 0;
}

/* One call: a work-item function of dimension 0 to rewrite, something a
 * tiled launch changes (the kernel stays flat), or anything else. */
static int check_call(ctx *c, int node)
{
    dla_kernel *k = c->k;
    dla_tree *t = &c->tree;
    char *name = dla_spelling(t->nodes[node].cur);
    if (!name)
        return -1;
    int status = 0;
    dla_call_kind kind = DLA_CALL_ID;
    int workitem = 1;
    if (strcmp(name, "get_global_id") == 0)
        kind = DLA_CALL_ID;
    else if (strcmp(name, "get_global_size") == 0)
        kind = DLA_CALL_SIZE;
    else if (strcmp(name, "get_global_offset") == 0)
        kind = DLA_CALL_OFFSET;
    else
        workitem = 0;
    if (workitem) {
        long long dim = -1;
        int arg = dla_child(t, node, 1);
        dla_range r;
        if (arg < 0 || !dla_const_int(t->nodes[arg].cur, &dim) || dim != 0)
            status =
                no_tiled(k, "it calls %s with a dimension other than 0", name);
        else if (!dla_cursor_range(t->nodes[node].cur, &r))
            status = no_tiled(k, "%s(0) comes from a macro expansion", name);
        else
            status = add_call(k, kind, r);
        free(name);
        return status;
    }
    if (dla_group_bound(name))
        status = no_tiled(k, "it calls %s", name);
    CXCursor fn = clang_getCursorReferenced(t->nodes[node].cur);
    CXCursor def = clang_getCursorDefinition(fn);
    if (!clang_Cursor_isNull(def) &&
        !clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
        status = no_tiled(k,
                          "it calls %s, a function of the source that "
                          "may use the range",
                          name);
    free(name);
    return status;
}

/* A statement before the guard that padded work-items may run: a
 * declaration that reads no memory, calls only get_global_id and assigns
 * nothing but its own variables. */
static int harmless_decl(ctx *c, int s)
{
    dla_tree *t = &c->tree;
    dla_range r;
    if (t->nodes[s].kind != CXCursor_DeclStmt || !node_range(c, s, &r))
        return 0;
    int end = s + 1; /* preorder: the subtree is contiguous */
    while (end < t->n) {
        int p = end;
        while (p >= 0 && p != s)
            p = t->nodes[p].parent;
        if (p != s)
            break;
        end++;
    }
    for (int i = s + 1; i < end; i++) {
        switch (t->nodes[i].kind) {
        case CXCursor_VarDecl:
        case CXCursor_DeclRefExpr:
        case CXCursor_IntegerLiteral:
        case CXCursor_FloatingLiteral:
        case CXCursor_UnexposedExpr:
        case CXCursor_ParenExpr:
        case CXCursor_CStyleCastExpr:
        case CXCursor_TypeRef:
            break;
        case CXCursor_BinaryOperator: {
            const char *op = dla_binop(t, i);
            size_t n = strlen(op);
            if (n == 0 || (op[n - 1] == '=' && strcmp(op, "==") != 0 &&
                           strcmp(op, "!=") != 0 && strcmp(op, "<=") != 0 &&
                           strcmp(op, ">=") != 0))
                return 0; /* an assignment, or unknown */
            break;
        }
        case CXCursor_UnaryOperator:
            if (strcmp(dla_unop(t, i), "-") != 0 &&
                strcmp(dla_unop(t, i), "!") != 0)
                return 0;
            break;
        case CXCursor_CallExpr:
            if (!is_call_to(c, i, "get_global_id"))
                return 0;
            break;
        default:
            return 0;
        }
    }
    return 1;
}

/* The gid variable declared by a top-level declaration, if any. */
static int declared_gid(ctx *c, int s, CXCursor *gid)
{
    dla_tree *t = &c->tree;
    for (int v = t->nodes[s].first; v >= 0; v = t->nodes[v].next)
        if (t->nodes[v].kind == CXCursor_VarDecl &&
            gid_var(c, t->nodes[v].cur)) {
            *gid = t->nodes[v].cur;
            return 1;
        }
    return 0;
}

/* `if (gid >= n) return;` anywhere after harmless declarations, or
 * `if (gid < n) { ... }` as the last statement: work-items from n on do
 * nothing.  Returns n, or NULL. */
static char *padding_bound(ctx *c)
{
    dla_tree *t = &c->tree;
    CXCursor gid = clang_getNullCursor();
    for (int s = t->nodes[0].first; s >= 0; s = t->nodes[s].next) {
        if (t->nodes[s].kind == CXCursor_DeclStmt) {
            if (!harmless_decl(c, s))
                return NULL;
            declared_gid(c, s, &gid);
            continue;
        }
        int then = dla_child(t, s, 1);
        if (t->nodes[s].kind != CXCursor_IfStmt || clang_Cursor_isNull(gid) ||
            then < 0 || dla_child(t, s, 2) >= 0)
            return NULL;
        if (dla_is_return(t, then))
            return guard_compare(c, dla_child(t, s, 0), gid, 1);
        if (t->nodes[s].next >= 0)
            return NULL;
        return guard_compare(c, dla_child(t, s, 0), gid, 0);
    }
    return NULL;
}

int dla_tiled(ctx *c)
{
    dla_kernel *k = c->k;
    dla_tree *t = &c->tree;
    int asta = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        asta |= k->args[i].transformed && k->args[i].target == DLA_TARGET_ASTA;
    if (!asta)
        return 0; /* only ASTA(T) needs the tiled range */
    for (unsigned i = 0; i < k->nargs && !k->tiled_tile; i++)
        if (k->args[i].transformed && k->args[i].target == DLA_TARGET_ASTA)
            k->tiled_tile =
                dla_printf("DL_TILE_%s_%s", k->name, k->args[i].name);
    if (!k->tiled_tile)
        return -1;
    if (k->signature && strstr(k->signature, "work_group_size"))
        return no_tiled(k, "it names a work-group size");
    for (int i = 0; i < t->n; i++)
        if (t->nodes[i].kind == CXCursor_CallExpr && check_call(c, i))
            return -1;
    int uses_size = 0;
    for (unsigned i = 0; i < k->ncalls; i++)
        uses_size |= k->calls[i].kind == DLA_CALL_SIZE;
    for (unsigned i = 0; i < k->nargs; i++) {
        dla_arg *a = &k->args[i];
        if (!a->transformed)
            continue;
        if (!a->m_code_tiled &&
            no_tiled(k,
                     "the record count of '%s' depends on the work-group "
                     "shape or another dimension",
                     a->name))
            return -1;
        uses_size |= a->count_uses_size;
    }
    if (k->tiled_reason) {
        free(k->calls);
        k->calls = NULL;
        k->ncalls = 0;
        return 0;
    }
    for (unsigned i = 0; i < k->nargs; i++) {
        dla_arg *a = &k->args[i];
        for (unsigned j = 0; a->transformed && j < a->naccesses; j++) {
            dla_access *acc = &a->accesses[j];
            acc->own =
                (acc->kind == DLA_FIELD || acc->kind == DLA_FIELD_ARRAY) &&
                !a->bump && index_is_own(c, acc);
        }
    }
    /* Padding adds work-items: safe only when they do nothing and the
     * kernel does not read the (padded) global size. */
    if (!uses_size)
        k->tiled_bound = padding_bound(c);
    k->tiled = 1;
    return dla_annot_launch(k);
}
