/* access.c - the uses of a record argument.  Each use must have one of
 * the forms dl-annotate can rewrite (p[E].f, (p + E)->f, p->f,
 * T *q = &p[E] then q->f, whole records, scalar elements g[E]); any
 * other use declines the argument with a reason. */
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `top` is a member expression on a record whose index is known: follows
 * the member chain outwards, fills acc with the part and the leaf. */
static int field_chain(ctx *c, dla_arg *a, int member, dla_access *acc)
{
    dla_tree *t = &c->tree;
    int top = member;
    long long inner = 0;
    int depth = 0;
    CXCursor leaf = clang_getNullCursor();
    for (;;) {
        CXCursor field = clang_getCursorReferenced(t->nodes[top].cur);
        if (clang_getCursorKind(field) != CXCursor_FieldDecl)
            return decline(a, "a member access that is not a plain field");
        char *fname = dla_spelling(field);
        int anon = !fname || !*fname;
        free(fname);
        if (anon || clang_Cursor_isBitField(field))
            return decline(a, "an anonymous member or bit-field is accessed");
        long long bits = clang_Cursor_getOffsetOfField(field);
        if (bits < 0 || bits % 8)
            return decline(a, "a field offset is unknown");
        if (depth == 0) {
            acc->part_off = (unsigned)(bits / 8);
            acc->part_size =
                (unsigned)clang_Type_getSizeOf(clang_getCursorType(field));
        } else {
            inner += bits / 8;
        }
        leaf = field;
        depth++;
        int from;
        int up = dla_up(t, top, &from);
        if (up < 0 || t->nodes[up].kind != CXCursor_MemberRefExpr ||
            dla_child(t, up, 0) != from)
            break;
        /* a dot member of this field (a nested struct) */
        int base = dla_strip(t, dla_child(t, up, 0));
        if (clang_getCursorType(t->nodes[base].cur).kind == CXType_Pointer)
            break;
        top = up;
    }
    acc->inner_off = (unsigned)inner;
    CXType lt = clang_getCursorType(leaf);
    if (lt.kind == CXType_ConstantArray) {
        CXType et = clang_getArrayElementType(lt);
        if (clang_getCanonicalType(et).kind == CXType_ConstantArray)
            return decline(a, "a multi-dimensional array field is accessed");
        acc->kind = DLA_FIELD_ARRAY;
        acc->leaf_type = dla_type_spelling(et);
    } else {
        acc->kind = DLA_FIELD;
        acc->whole_part = depth == 1;
        acc->leaf_type = dla_type_spelling(lt);
    }
    if (!acc->leaf_type || strchr(acc->leaf_type, '('))
        return decline(a, "a field's type has no name that code can use");
    int from;
    int up = dla_up(t, top, &from);
    if (up >= 0 && t->nodes[up].kind == CXCursor_UnaryOperator &&
        strcmp(dla_unop(t, up), "&") == 0) {
        int call = dla_up(t, up, NULL);
        if (is_call_to(c, call, "atom"))
            return decline(a, "an atomic function works on a field");
        return decline(a, "the address of a field is taken");
    }
    if (!node_range(c, top, &acc->whole))
        return decline(a, "an access is inside a macro expansion");
    return 0;
}

/* Index node -> acc->index (a range), checked. */
static int set_index(ctx *c, dla_arg *a, dla_access *acc, int index)
{
    acc->index_node = index;
    /* a whole macro invocation inside another's argument (as_uint(
     * g[IDX(i, 1)])) is text too */
    if (index < 0 ||
        (!dla_cursor_range_loose(c->tree.nodes[index].cur, &acc->index) &&
         !dla_invocation_of(c, index, &acc->index)))
        return decline(a, "an index is not in the source text");
    return check_index(c, a, index, acc->index);
}

/* Whether node is a statement of its own (its value is not used). */
static int is_statement(const dla_tree *t, int node)
{
    int p = t->nodes[node].parent, nth = t->nodes[node].nth;
    if (p < 0)
        return 0;
    switch (t->nodes[p].kind) {
    case CXCursor_CompoundStmt:
        return 1;
    case CXCursor_IfStmt:
    case CXCursor_WhileStmt:
        return nth >= 1;
    case CXCursor_DoStmt:
        return nth == 0;
    case CXCursor_ForStmt:
        return t->nodes[p].last == node;
    default:
        return 0;
    }
}

/* The lane `.x`, `.y`, `.z`, `.w` or `.sN` of a vector record: its index,
 * or -1 (several lanes, or not a lane name). */
static int lane_index(const char *name, unsigned lanes)
{
    static const char xyzw[] = "xyzw";
    const char *at = name[0] && !name[1] ? strchr(xyzw, name[0]) : NULL;
    if (at && (unsigned)(at - xyzw) < lanes)
        return (int)(at - xyzw);
    if ((name[0] == 's' || name[0] == 'S') && name[1] && !name[2]) {
        char digit =
            (char)(name[1] >= 'A' && name[1] <= 'F' ? name[1] - 'A' + 'a'
                                                    : name[1]);
        const char *hex = strchr("0123456789abcdef", digit);
        if (hex && digit && (unsigned)(hex - "0123456789abcdef") < lanes)
            return (int)(hex - "0123456789abcdef");
    }
    return -1;
}

/* `p[E].y` on a vector record (node lane, which libclang leaves
 * unexposed): the lane as a field. */
static int lane_use(ctx *c, dla_arg *a, int rec, int lane, dla_access *acc)
{
    dla_tree *t = &c->tree;
    dla_range whole, r;
    if (!node_range(c, lane, &whole) || !node_range(c, rec, &r))
        return decline(a, "an access is inside a macro expansion");
    char *text = dla_substr(&c->prog->src, (dla_range){r.end, whole.end});
    const char *name = text ? text : "";
    while (*name == ' ' || *name == '\t' || *name == '.')
        name++;
    int k = lane_index(name, a->nparts);
    free(text);
    if (k < 0)
        return decline(a, "several lanes of a vector record are accessed "
                          "at once (a swizzle)");
    int up = dla_up(t, lane, NULL);
    if (up >= 0 && t->nodes[up].kind == CXCursor_UnaryOperator &&
        strcmp(dla_unop(t, up), "&") == 0)
        return decline(a, "the address of a lane is taken");
    acc->kind = DLA_FIELD;
    acc->whole_part = 1;
    acc->part_off = a->parts[k].off;
    acc->part_size = a->parts[k].size;
    acc->leaf_type = dla_strdup(a->lane_type);
    acc->whole = whole;
    return acc->leaf_type ? 0 : decline(a, "out of memory");
}

/* The vector element access above node rec (`p[E].x`, `p[E].wzyx`: an
 * unexposed node that, unlike an implicit cast, ends after it), or -1. */
static int lane_above(const ctx *c, const dla_arg *a, int rec)
{
    const dla_tree *t = &c->tree;
    int p = t->nodes[rec].parent;
    dla_range pr, rr;
    if (!a->lane_type || p < 0 || t->nodes[p].kind != CXCursor_UnexposedExpr)
        return -1;
    if (!dla_cursor_range_loose(t->nodes[p].cur, &pr) ||
        !dla_cursor_range_loose(t->nodes[rec].cur, &rr))
        return p; /* cannot tell: lane_use declines it */
    return pr.end > rr.end ? p : -1;
}

/* The whole record p[E] (node rec, index node idx) is used: as a field
 * base, as a value, or as the target of an assignment. */
static int record_use(ctx *c, dla_arg *a, int rec, int idx)
{
    dla_tree *t = &c->tree;
    int from;
    int up = dla_up(t, rec, &from);
    dla_access *acc = new_access(a);
    if (!acc)
        return decline(a, "out of memory");
    if (set_index(c, a, acc, idx))
        return -1;
    int lane = lane_above(c, a, rec);
    if (lane >= 0)
        return lane_use(c, a, rec, lane, acc);
    if (up >= 0 && t->nodes[up].kind == CXCursor_MemberRefExpr &&
        dla_child(t, up, 0) == from)
        return field_chain(c, a, up, acc);
    if (up >= 0 && t->nodes[up].kind == CXCursor_UnaryOperator)
        return decline(a, "the address of a record is taken other than "
                          "as `T *q = &p[E]`");
    if (!a->record_type)
        return decline(a, "a whole record of an unnamed struct type is "
                          "copied");
    if (up >= 0 && t->nodes[up].kind == CXCursor_BinaryOperator &&
        dla_child(t, up, 0) == from && strcmp(dla_binop(t, up), "=") == 0) {
        if (!is_statement(t, up))
            return decline(a, "a record assignment is used as a value");
        acc->kind = DLA_STORE;
        if (!node_range(c, up, &acc->whole) ||
            !node_range(c, dla_child(t, up, 1), &acc->value))
            return decline(a, "an access is inside a macro expansion");
        return 0;
    }
    int raw = t->nodes[rec].parent;
    if (raw >= 0 && (t->nodes[raw].kind == CXCursor_UnexposedExpr ||
                     t->nodes[raw].kind == CXCursor_VarDecl)) {
        acc->kind = DLA_LOAD;
        if (!node_range(c, rec, &acc->whole))
            return decline(a, "an access is inside a macro expansion");
        return 0;
    }
    return decline(a, "a record is used in an unsupported way");
}

/* `T *q = &p[E]` or `T *q = p + E`: q becomes an index variable; all of
 * q's uses must be `q->f`.  Returns 0, or -1 (declined). */
static int alias(ctx *c, dla_arg *a, int var, int idx)
{
    dla_tree *t = &c->tree;
    int stmt = t->nodes[var].parent;
    if (stmt < 0 || t->nodes[stmt].kind != CXCursor_DeclStmt ||
        t->nodes[stmt].first != var || t->nodes[var].next >= 0)
        return decline(a, "a record pointer is declared with others");
    dla_access *acc = new_access(a);
    if (!acc)
        return decline(a, "out of memory");
    acc->kind = DLA_ALIAS_DECL;
    char *qname = dla_spelling(t->nodes[var].cur);
    acc->alias_name = dla_printf("dla_i_%s", qname);
    free(qname);
    if (!node_range(c, var, &acc->whole))
        return decline(a, "an access is inside a macro expansion");
    if (set_index(c, a, acc, idx))
        return -1;
    const char *iname = acc->alias_name;
    CXCursor vdecl = t->nodes[var].cur;
    for (int i = 0; i < t->n; i++) {
        if (!refers_to(c, i, vdecl))
            continue;
        int from;
        int up = dla_up(t, i, &from);
        if (up >= 0 && t->nodes[up].kind == CXCursor_CallExpr &&
            !is_call_to(c, up, "atom") && !from_macro_call(c, i)) {
            if (helper_call(c, a, up, from, -1, iname))
                return -1;
            continue;
        }
        if (up < 0 || t->nodes[up].kind != CXCursor_MemberRefExpr ||
            dla_child(t, up, 0) != from)
            return decline(a, "a pointer into the records is used other "
                              "than as q->f or passed to a helper");
        dla_access *f = new_access(a);
        if (!f)
            return decline(a, "out of memory");
        f->index_name = iname;
        if (field_chain(c, a, up, f))
            return -1;
    }
    return 0;
}

/* One use of a struct pointer argument (DeclRefExpr node d). */
int struct_use(ctx *c, dla_arg *a, int d)
{
    dla_tree *t = &c->tree;
    int from;
    int up = dla_up(t, d, &from);
    if (up < 0)
        return decline(a, "unsupported use");
    if (helper_in_macro(c, a, d))
        return -1;
    enum CXCursorKind k = t->nodes[up].kind;
    if (k == CXCursor_ArraySubscriptExpr && dla_child(t, up, 0) == from) {
        int idx = dla_child(t, up, 1);
        int from2;
        int up2 = dla_up(t, up, &from2);
        if (up2 >= 0 && t->nodes[up2].kind == CXCursor_UnaryOperator &&
            strcmp(dla_unop(t, up2), "&") == 0) {
            int from3;
            int var = dla_up(t, up2, &from3);
            if (var >= 0 && t->nodes[var].kind == CXCursor_VarDecl)
                return alias(c, a, var, idx);
            if (is_call_to(c, var, "atom"))
                return decline(a, "an atomic function works on a record");
            if (var >= 0 && t->nodes[var].kind == CXCursor_CallExpr)
                return helper_call(c, a, var, from3, idx, NULL);
            return decline(a, "the address of a record escapes");
        }
        return record_use(c, a, up, idx);
    }
    if (k == CXCursor_BinaryOperator && dla_child(t, up, 0) == from &&
        strcmp(dla_binop(t, up), "+") == 0) {
        int idx = dla_child(t, up, 1);
        int from2;
        int up2 = dla_up(t, up, &from2);
        if (up2 >= 0 && t->nodes[up2].kind == CXCursor_VarDecl)
            return alias(c, a, up2, idx);
        if (up2 >= 0 && t->nodes[up2].kind == CXCursor_CallExpr &&
            !is_call_to(c, up2, "atom"))
            return helper_call(c, a, up2, from2, idx, NULL);
        if (up2 >= 0 && t->nodes[up2].kind == CXCursor_MemberRefExpr &&
            dla_child(t, up2, 0) == from2) {
            dla_access *acc = new_access(a);
            if (!acc)
                return decline(a, "out of memory");
            if (set_index(c, a, acc, idx))
                return -1;
            return field_chain(c, a, up2, acc);
        }
        return decline(a, "pointer arithmetic other than (p + E)->f");
    }
    if (k == CXCursor_MemberRefExpr && dla_child(t, up, 0) == from) {
        dla_access *acc = new_access(a);
        if (!acc)
            return decline(a, "out of memory");
        acc->index_name = "0";
        return field_chain(c, a, up, acc);
    }
    if (k == CXCursor_CallExpr) {
        if (is_call_to(c, up, "atom"))
            return decline(a, "an atomic function works on a record");
        return helper_call(c, a, up, from, -1, NULL);
    }
    if (k == CXCursor_CStyleCastExpr)
        return decline(a, "the pointer is cast to another type (accessed "
                          "as raw words)");
    if (k == CXCursor_VarDecl || k == CXCursor_BinaryOperator ||
        k == CXCursor_CompoundAssignOperator)
        return decline(a, "the pointer escapes: stored or modified");
    if (k == CXCursor_UnaryOperator)
        return decline(a, "the pointer is dereferenced or modified directly");
    return decline(a, "the pointer is used in an unsupported way");
}

/* node names the variable of `for (int k = C0; k < C; k++)` with
 * 0 <= C0 and C <= limit, which nothing else changes: 0 <= k < limit
 * wherever it is in scope. */
static int loop_bounded(ctx *c, int node, unsigned limit)
{
    dla_tree *t = &c->tree;
    node = dla_strip(t, node);
    if (node < 0 || t->nodes[node].kind != CXCursor_DeclRefExpr)
        return 0;
    CXCursor var = clang_getCursorReferenced(t->nodes[node].cur);
    int vnode = -1;
    for (int i = 0; i < t->n && vnode < 0; i++)
        if (t->nodes[i].kind == CXCursor_VarDecl &&
            clang_equalCursors(t->nodes[i].cur, var))
            vnode = i;
    if (vnode < 0)
        return 0;
    int decl = t->nodes[vnode].parent;
    int loop = decl >= 0 ? t->nodes[decl].parent : -1;
    if (loop < 0 || t->nodes[decl].kind != CXCursor_DeclStmt ||
        t->nodes[decl].first != vnode || t->nodes[vnode].next >= 0 ||
        t->nodes[loop].kind != CXCursor_ForStmt ||
        t->nodes[loop].first != decl || dla_child(t, loop, 3) < 0 ||
        dla_child(t, loop, 4) >= 0)
        return 0;
    long long from, to;
    int cond = dla_child(t, loop, 1), inc = dla_child(t, loop, 2);
    if (!dla_const_int(t->nodes[t->nodes[vnode].last].cur, &from) || from < 0 ||
        t->nodes[cond].kind != CXCursor_BinaryOperator ||
        strcmp(dla_binop(t, cond), "<") != 0 ||
        !refers_to(c, dla_strip(t, dla_child(t, cond, 0)), var) ||
        !dla_const_int(t->nodes[dla_child(t, cond, 1)].cur, &to) ||
        to > (long long)limit || t->nodes[inc].kind != CXCursor_UnaryOperator ||
        strcmp(dla_unop(t, inc), "++") != 0)
        return 0;
    for (int i = 0; i < t->n; i++)
        if (refers_to(c, i, var)) {
            int raw = t->nodes[i].parent;
            if (raw != inc && t->nodes[raw].kind != CXCursor_UnexposedExpr)
                return 0; /* assigned or its address taken */
        }
    return 1;
}

/* Skips parentheses, implicit casts and explicit casts to an integer
 * type at least as wide as their operand's, which change no value the
 * index can have. */
static int strip_casts(const dla_tree *t, int node)
{
    for (;;) {
        node = dla_strip(t, node);
        if (node < 0 || t->nodes[node].kind != CXCursor_CStyleCastExpr)
            return node;
        int operand = t->nodes[node].last;
        CXType to =
            clang_getCanonicalType(clang_getCursorType(t->nodes[node].cur));
        CXType from = operand >= 0 ? clang_getCanonicalType(clang_getCursorType(
                                         t->nodes[operand].cur))
                                   : to;
        if (to.kind < CXType_Bool || to.kind > CXType_LongLong ||
            from.kind < CXType_Bool || from.kind > CXType_LongLong ||
            clang_Type_getSizeOf(to) < clang_Type_getSizeOf(from))
            return node;
        node = operand;
    }
}

/* The operands of a binary operator node `op` (after strip_casts), or 0. */
static int operands(const dla_tree *t, int node, const char *op, int *lhs,
                    int *rhs)
{
    if (node < 0 || t->nodes[node].kind != CXCursor_BinaryOperator ||
        strcmp(dla_binop(t, node), op) != 0)
        return 0;
    *lhs = dla_child(t, node, 0);
    *rhs = dla_child(t, node, 1);
    return *lhs >= 0 && *rhs >= 0;
}

/* `A*S` or `S*A` (parentheses and widening casts around) with S the
 * record's elements: the record node A, or -1. */
static int times_stride(ctx *c, dla_arg *a, int node)
{
    dla_tree *t = &c->tree;
    int x, y;
    if (!operands(t, strip_casts(t, node), "*", &x, &y))
        return -1;
    for (int side = 0; side < 2; side++) {
        long long stride;
        if (dla_const_int(t->nodes[side ? x : y].cur, &stride) &&
            stride == (long long)a->per_record)
            return side ? y : x;
    }
    return -1;
}

/* The index of a scalar element access is `A*S + k`, `S*A + k`,
 * `k + A*S`, `k + S*(A)` or `A*S` (k = 0: *elem is -1), in any nesting
 * of parentheses and widening casts, with S the record's elements: the
 * record node A and the element node k, or 0. */
static int record_times_stride(ctx *c, dla_arg *a, int idx, int *rec, int *elem)
{
    dla_tree *t = &c->tree;
    int l, r;
    *elem = -1;
    if ((*rec = times_stride(c, a, idx)) >= 0)
        return 1;
    if (!operands(t, strip_casts(t, idx), "+", &l, &r))
        return 0;
    for (int order = 0; order < 2; order++) {
        if ((*rec = times_stride(c, a, order ? r : l)) >= 0) {
            *elem = order ? l : r;
            return 1;
        }
    }
    return 0;
}

/* Splits a scalar access's index into record*K + k when k is in [0, K):
 * a constant or a loop variable; otherwise the index is divided by K. */
static void split_element(ctx *c, dla_arg *a, dla_access *acc, int idx)
{
    dla_tree *t = &c->tree;
    int recn, kon;
    long long kval = -1;
    dla_range rec, el;
    /* parentheses a macro body put around the record have no text: the
     * record inside them does */
    if (!record_times_stride(c, a, idx, &recn, &kon) ||
        (!node_range(c, recn, &rec) &&
         !node_range(c, dla_strip(t, recn), &rec)) ||
        rec.begin < acc->index.begin || rec.end > acc->index.end)
        return;
    if (kon < 0 || dla_const_int(t->nodes[kon].cur, &kval)) {
        kval = kon < 0 ? 0 : kval;
        if (kval < 0 || kval >= (long long)a->per_record)
            return;
        acc->element_const = (long)kval;
    } else if (loop_bounded(c, kon, a->per_record) && node_range(c, kon, &el) &&
               el.begin >= acc->index.begin && el.end <= acc->index.end &&
               (el.begin >= rec.end || el.end <= rec.begin)) {
        acc->element = el;
        acc->element_var = 1;
    } else {
        return;
    }
    acc->record = rec;
}

/* `SRC_N(g)`, a macro invocation whose expansion is the access g[E]
 * (node sub), E written in the body: the rewrite replaces the
 * invocation's text and reads E as `&(SRC_N(g)) - g`.  E is split when
 * it is record*K + k with k a constant in [0, K). */
static int macro_element(ctx *c, dla_arg *a, dla_access *acc, int sub, int idx)
{
    dla_tree *t = &c->tree;
    if (!dla_invocation_of(c, sub, &acc->whole))
        return decline(a, "an access is inside a macro expansion that holds "
                          "more than the access");
    acc->in_macro = 1;
    acc->index_node = idx;
    if (check_index(c, a, idx, acc->whole))
        return -1;
    int recn, kon;
    long long kval;
    if (record_times_stride(c, a, idx, &recn, &kon) &&
        (kon < 0 || dla_const_int(t->nodes[kon].cur, &kval)) &&
        (kon < 0 || (kval >= 0 && kval < (long long)a->per_record)))
        acc->element_const = kon < 0 ? 0 : (long)kval;
    return 0;
}

/* One use of an annotated scalar array (DeclRefExpr node d). */
int scalar_use(ctx *c, dla_arg *a, int d)
{
    dla_tree *t = &c->tree;
    int from;
    int up = dla_up(t, d, &from);
    if (up < 0 || t->nodes[up].kind != CXCursor_ArraySubscriptExpr ||
        dla_child(t, up, 0) != from) {
        if (up >= 0 && t->nodes[up].kind == CXCursor_CallExpr)
            return decline(a, "the pointer escapes: passed to a function");
        if (up >= 0 && t->nodes[up].kind == CXCursor_CStyleCastExpr)
            return decline(a, "the pointer is cast to another type (accessed "
                              "as raw words)");
        return decline(a, "the array is used other than as a[E]");
    }
    int up2 = dla_up(t, up, NULL);
    if (up2 >= 0 && t->nodes[up2].kind == CXCursor_UnaryOperator &&
        strcmp(dla_unop(t, up2), "&") == 0)
        return decline(a, "the address of an element is taken");
    dla_access *acc = new_access(a);
    if (!acc)
        return decline(a, "out of memory");
    acc->kind = DLA_ELEMENT;
    int idx = dla_child(t, up, 1);
    if (!node_range(c, up, &acc->whole))
        return macro_element(c, a, acc, up, idx);
    if (set_index(c, a, acc, idx))
        return -1;
    split_element(c, a, acc, idx);
    return 0;
}
