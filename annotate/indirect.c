/* indirect.c - indirect references A[P[E] + c] of a kernel, where E is
 * affine in the global id (a variable set once from get_global_id(0), or
 * that call) and, inside `for (int j = 0; j < T; j++)` or a row-bounded
 * `for (int k = B[lo]; k < E[hi]; k++)` (CSR), in the loop variable: each
 * gets its annotation (docs/annotations.md, "Indirect
 * references"), checked and printed by the runtime's own parser, or a
 * reason.  Declined: an index that names anything else, an index buffer
 * the kernel writes or lets escape, and (for now) references that write
 * A.  Nothing is rewritten. */
#include "analyze.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one reference's translation found. */
typedef struct ref {
    ctx *c;
    int node; /* the ArraySubscriptExpr A[...]              */
    CXCursor array, via;
    CXCursor loop_var; /* null until the index names one             */
    int rows;          /* the loop is row-bounded (CSR)              */
    char *why;         /* the first reason to decline                */
} ref;

static char *no(ref *r, char *why)
{
    if (!r->why)
        r->why = why;
    else
        free(why);
    return NULL;
}

static const char *node_text(ctx *c, int node, dla_range *rg)
{
    static char buf[128];
    buf[0] = 0;
    if (!dla_cursor_range_loose(c->tree.nodes[node].cur, rg) ||
        rg->end - rg->begin >= sizeof buf)
        return buf;
    memcpy(buf, c->prog->src.text + rg->begin, rg->end - rg->begin);
    buf[rg->end - rg->begin] = 0;
    return buf;
}

/* Whether the source #defines `name` itself (then its value is written:
 * the runtime sees only the build options' macros). */
static int defined_in_source(const dla_source *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = src->text; (at = strstr(at, "define")) != NULL;
         at += 6) {
        const char *s = at + 6;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!strncmp(s, name, n) && !isalnum((unsigned char)s[n]) &&
            s[n] != '_')
            return 1;
    }
    return 0;
}

/* An integer literal, or a macro that expands to one. */
static char *literal(ref *r, int node)
{
    ctx *c = r->c;
    long long v;
    dla_range rg;
    const char *text = node_text(c, node, &rg);
    if (!dla_const_int(c->tree.nodes[node].cur, &v))
        return no(r, dla_strdup("a constant of the index has no integer "
                                "value"));
    if ((isalpha((unsigned char)text[0]) || text[0] == '_') &&
        !defined_in_source(&c->prog->src, text))
        return dla_strdup(text); /* a build option: the runtime's */
    return dla_printf("%lld", v);
}

static int is_integer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 &&
           t.kind != CXType_Char16 && t.kind != CXType_Char32;
}

/* A name: an integer argument, the gid variable, or the loop variable
 * (only one, and only where `loop` allows it). */
static char *name_text(ref *r, int node, int loop)
{
    ctx *c = r->c;
    CXCursor d = clang_getCursorReferenced(c->tree.nodes[node].cur);
    char *name = dla_spelling(d);
    if (!name)
        return NULL;
    enum CXCursorKind kind = clang_getCursorKind(d);
    if (kind == CXCursor_ParmDecl && is_integer_type(clang_getCursorType(d)))
        return name;
    if (kind == CXCursor_VarDecl && loop && gid_var(c, d)) {
        free(name);
        return dla_strdup("gid");
    }
    if (kind == CXCursor_VarDecl && loop &&
        (clang_Cursor_isNull(r->loop_var) ||
         clang_equalCursors(r->loop_var, d))) {
        r->loop_var = d;
        return name;
    }
    char *why = dla_printf("the index names '%s', which is not the global "
                           "id, a loop counter or an integer argument: not "
                           "affine in the global id",
                           name);
    free(name);
    return no(r, why);
}

static char *expr_text(ref *r, int node, int loop);
static int read_only(ctx *c, CXCursor param);
static int subscript_of_param(ctx *c, int node, CXCursor *param);

/* get_global_id(0) is gid; any other call is declined. */
static char *call_text(ref *r, int node)
{
    ctx *c = r->c;
    long long dim;
    int arg = dla_child(&c->tree, node, 1);
    if (is_call_to(c, node, "get_global_id") && arg >= 0 &&
        dla_const_int(c->tree.nodes[arg].cur, &dim) && dim == 0)
        return dla_strdup("gid");
    return no(r, dla_strdup("the index calls a function other than "
                            "get_global_id(0)"));
}

static char *binary_text(ref *r, int node, int loop)
{
    const char *op = dla_binop(&r->c->tree, node);
    if (!*op || !strchr("+-*/%", op[0]) || op[1])
        return no(r, dla_printf("the index has an operator ('%s') an "
                                "annotation cannot say",
                                op));
    char opc = op[0];
    char *a = expr_text(r, dla_child(&r->c->tree, node, 0), loop);
    char *b = a ? expr_text(r, dla_child(&r->c->tree, node, 1), loop) : NULL;
    char *s = a && b ? dla_printf("(%s %c %s)", a, opc, b) : NULL;
    free(a);
    free(b);
    return s;
}

/* The index (or the offset, or the trip count: loop = 0) as annotation
 * text: literals, macros, names, gid, + - * / % and unary minus. */
static char *expr_text(ref *r, int node, int loop)
{
    dla_tree *t = &r->c->tree;
    node = dla_strip(t, node);
    if (node >= 0 && t->nodes[node].kind == CXCursor_CStyleCastExpr)
        node = dla_strip(t, t->nodes[node].last);
    if (node < 0)
        return no(r, dla_strdup("an index has no expression"));
    switch (t->nodes[node].kind) {
    case CXCursor_IntegerLiteral:
        return literal(r, node);
    case CXCursor_DeclRefExpr:
        return name_text(r, node, loop);
    case CXCursor_CallExpr:
        return loop ? call_text(r, node)
                    : no(r, dla_strdup("a count or offset calls a "
                                       "function"));
    case CXCursor_BinaryOperator:
        return binary_text(r, node, loop);
    case CXCursor_UnaryOperator: {
        const char *op = dla_unop(t, node);
        char *x = strcmp(op, "-") && strcmp(op, "+")
                      ? no(r, dla_printf("the index has an operator ('%s') an "
                                         "annotation cannot say",
                                         op))
                      : expr_text(r, t->nodes[node].first, loop);
        char *s = x && !strcmp(op, "-") ? dla_printf("(-%s)", x) : x;
        if (s != x)
            free(x);
        return s;
    }
    default:
        return no(r, dla_strdup("the index has a form an annotation cannot "
                                "say"));
    }
}

/* ------------------------------------------------------------ the loop */

/* Whether `node` lies in the subtree of `root`. */
static int inside(const dla_tree *t, int node, int root)
{
    for (; node >= 0; node = t->nodes[node].parent)
        if (node == root)
            return 1;
    return 0;
}

/* `j++`, `++j` or `j += 1` on the loop variable. */
static int steps_by_one(ref *r, int inc)
{
    dla_tree *t = &r->c->tree;
    long long one;
    inc = dla_strip(t, inc);
    if (inc < 0)
        return 0;
    int var = dla_strip(t, t->nodes[inc].first);
    if (var < 0 || !refers_to(r->c, var, r->loop_var))
        return 0;
    if (t->nodes[inc].kind == CXCursor_UnaryOperator)
        return !strcmp(dla_unop(t, inc), "++");
    int rhs = dla_child(t, inc, 1);
    return t->nodes[inc].kind == CXCursor_CompoundAssignOperator &&
           !strcmp(dla_binop(t, inc), "+=") && rhs >= 0 &&
           dla_const_int(t->nodes[rhs].cur, &one) && one == 1;
}

/* The variable is only read, except by the loop's own increment `inc`
 * (-1: none). */
static int only_read(ref *r, CXCursor var, int inc)
{
    dla_tree *t = &r->c->tree;
    for (int i = 0; i < t->n; i++) {
        if (!refers_to(r->c, i, var) || inside(t, i, inc))
            continue;
        int raw = t->nodes[i].parent;
        if (raw < 0 || t->nodes[raw].kind != CXCursor_UnexposedExpr)
            return 0;
    }
    return 1;
}

/* The node that declares local variable `var` (with its initialiser
 * last), or -1. */
static int declaration(const dla_tree *t, CXCursor var)
{
    for (int i = 0; i < t->n; i++)
        if (t->nodes[i].kind == CXCursor_VarDecl &&
            clang_equalCursors(t->nodes[i].cur, var))
            return i;
    return -1;
}

/* A bound of a row-bounded loop: B[E] with B an integer array argument
 * the kernel only reads, or a local variable set once from one and only
 * read.  "B[E]"'s annotation text, or NULL. */
static char *bound_text(ref *r, int node)
{
    dla_tree *t = &r->c->tree;
    CXCursor b;
    node = dla_strip(t, node);
    if (node >= 0 && t->nodes[node].kind == CXCursor_DeclRefExpr) {
        CXCursor var = clang_getCursorReferenced(t->nodes[node].cur);
        int d = clang_getCursorKind(var) == CXCursor_VarDecl
                    ? declaration(t, var)
                    : -1;
        if (d < 0 || !only_read(r, var, -1))
            return no(r, dla_strdup("a bound of the loop is a variable set "
                                    "other than once from an array"));
        node = dla_strip(t, t->nodes[d].last);
    }
    if (node < 0 || !subscript_of_param(r->c, node, &b) ||
        !is_integer_type(clang_getPointeeType(clang_getCursorType(b))))
        return no(r, dla_strdup("the loop neither counts from 0 nor runs "
                                "between two elements of an integer array "
                                "argument: not affine in the global id"));
    if (!read_only(r->c, b))
        return no(r, dla_strdup("the loop's bounds array is written, or "
                                "used other than as B[...], in the kernel"));
    char *name = dla_spelling(b);
    char *index = expr_text(r, dla_child(t, node, 1), 1);
    char *text = name && index ? dla_printf("%s[%s]", name, index) : NULL;
    free(name), free(index);
    return text;
}

/* for (T k = B[lo]; k < E[hi]; k++) (CSR; node v declares k, init its
 * initialiser): "in B[lo] .. E[hi]". */
static char *for_rows(ref *r, int f, int v, int init)
{
    dla_tree *t = &r->c->tree;
    int cond = dla_strip(t, dla_child(t, f, 1)), inc = dla_child(t, f, 2);
    if (cond < 0 || t->nodes[cond].kind != CXCursor_BinaryOperator ||
        strcmp(dla_binop(t, cond), "<") ||
        !refers_to(r->c, dla_strip(t, t->nodes[cond].first), r->loop_var))
        return no(r, dla_strdup("the loop's condition is not 'k < end'"));
    if (!steps_by_one(r, inc) || !only_read(r, t->nodes[v].cur, inc))
        return no(r, dla_strdup("the loop variable does not step by one, "
                                "or the body changes it"));
    char *lo = bound_text(r, init);
    char *hi = lo ? bound_text(r, dla_child(t, cond, 1)) : NULL;
    char *text = lo && hi ? dla_printf("in %s .. %s", lo, hi) : NULL;
    free(lo), free(hi);
    r->rows = text != NULL;
    return text;
}

/* j < L[E]: a trip count per job, which no reference annotation can say;
 * the kernel's jobs key where L is an integer array argument read only,
 * E affine in the global id (jobswap.c writes it). */
static char *per_job_bound(ref *r, int bound)
{
    char *key = bound_text(r, bound);
    dla_kernel *k = r->c->k;
    if (!key)
        return NULL;
    if (!k->loop_key)
        k->loop_key = dla_strdup(key);
    no(r, dla_printf("its loop runs to %s, a trip count per job (the "
                     "kernel's jobs key)",
                     key));
    free(key);
    return NULL;
}

/* for (T j = 0; j < N; j++) declaring the loop variable (node v of its
 * init): "< N"; or a row-bounded loop (for_rows). */
static char *for_trips(ref *r, int f, int v)
{
    dla_tree *t = &r->c->tree;
    long long start;
    int cond = dla_strip(t, dla_child(t, f, 1)), inc = dla_child(t, f, 2);
    int init = dla_strip(t, t->nodes[v].last);
    if (dla_child(t, f, 3) < 0 || init < 0)
        return no(r, dla_strdup("the loop around the index does not count "
                                "from 0: not affine in the global id"));
    if (!dla_const_int(t->nodes[init].cur, &start))
        return for_rows(r, f, v, init);
    if (start != 0)
        return no(r, dla_strdup("the loop around the index does not count "
                                "from 0: not affine in the global id"));
    if (cond < 0 || t->nodes[cond].kind != CXCursor_BinaryOperator ||
        strcmp(dla_binop(t, cond), "<") ||
        !refers_to(r->c, dla_strip(t, t->nodes[cond].first), r->loop_var))
        return no(r, dla_strdup("the loop's condition is not 'j < count'"));
    if (!steps_by_one(r, inc) || !only_read(r, r->loop_var, inc))
        return no(r, dla_strdup("the loop variable does not step by one, "
                                "or the body changes it"));
    int bound = dla_strip(t, dla_child(t, cond, 1));
    if (bound >= 0 && t->nodes[bound].kind == CXCursor_ArraySubscriptExpr)
        return per_job_bound(r, bound);
    char *n = expr_text(r, dla_child(t, cond, 1), 0);
    char *text = n ? dla_printf("< %s", n) : NULL;
    free(n);
    return text;
}

/* The enclosing for that declares the loop variable: its trip count. */
static char *loop_trips(ref *r)
{
    dla_tree *t = &r->c->tree;
    for (int f = t->nodes[r->node].parent; f >= 0; f = t->nodes[f].parent) {
        int init = dla_child(t, f, 0);
        if (t->nodes[f].kind != CXCursor_ForStmt || init < 0 ||
            t->nodes[init].kind != CXCursor_DeclStmt)
            continue;
        int v = t->nodes[init].first;
        if (v >= 0 && t->nodes[init].first == t->nodes[init].last &&
            clang_equalCursors(t->nodes[v].cur, r->loop_var))
            return for_trips(r, f, v);
    }
    return no(r, dla_strdup("the index names a variable that is neither "
                            "the global id nor the counter of an enclosing "
                            "for loop: not affine in the global id"));
}

/* ------------------------------------------------------ writes, records */

/* The lvalue at node (A[...], A[...].f, ...) and whether it is written:
 * the left of an assignment, ++ or --, or its address taken. */
static int written(const dla_tree *t, int node)
{
    int from, p = dla_up(t, node, &from);
    while (p >= 0 && t->nodes[p].kind == CXCursor_MemberRefExpr)
        p = dla_up(t, p, &from);
    if (p < 0)
        return 0;
    int first = from == t->nodes[p].first;
    switch (t->nodes[p].kind) {
    case CXCursor_CompoundAssignOperator:
        return first;
    case CXCursor_BinaryOperator:
        return first && !strcmp(dla_binop(t, p), "=");
    case CXCursor_UnaryOperator: {
        const char *op = dla_unop(t, p);
        return !strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&");
    }
    default:
        return 0;
    }
}

/* The argument is only read, as X[...]: not written, not passed on, not
 * stored. */
static int read_only(ctx *c, CXCursor param)
{
    dla_tree *t = &c->tree;
    for (int i = 0; i < t->n; i++) {
        if (!refers_to(c, i, param))
            continue;
        int from, p = dla_up(t, i, &from);
        if (p < 0 || t->nodes[p].kind != CXCursor_ArraySubscriptExpr ||
            from != t->nodes[p].first || written(t, p))
            return 0;
    }
    return 1;
}

/* " record(size=S; o:z)" for a struct A: the field the reference reads
 * (A[...].f), or the whole record; "" for scalars and vectors. */
static char *record_text(ref *r)
{
    dla_tree *t = &r->c->tree;
    CXType pt = clang_getCanonicalType(
        clang_getPointeeType(clang_getCursorType(r->array)));
    if (pt.kind != CXType_Record)
        return dla_strdup("");
    long long size = clang_Type_getSizeOf(pt), off = 0, len = size;
    int p = dla_up(t, r->node, NULL);
    if (p >= 0 && t->nodes[p].kind == CXCursor_MemberRefExpr) {
        char *field = dla_spelling(t->nodes[p].cur);
        CXCursor decl = clang_getCursorReferenced(t->nodes[p].cur);
        off = field ? clang_Type_getOffsetOf(pt, field) / 8 : -1;
        len = clang_Type_getSizeOf(clang_getCursorType(decl));
        free(field);
    }
    if (size <= 0 || off < 0 || len <= 0)
        return no(r, dla_strdup("the record's layout is unknown"));
    return dla_printf(" record(size=%lld; %lld:%lld)", size, off, len);
}

/* ------------------------------------------------------- the annotation */

/* The runtime's canonical form of `text` against the kernel's signature,
 * or NULL with the runtime's reason. */
static char *canonical(ref *r, const char *text)
{
    const dla_kernel *k = r->c->k;
    char *src = dla_printf("%s\n%s{}\n", text, k->signature);
    dl_annot_program *p = NULL;
    if (!src ||
        dl_annot_parse(src, strlen(src), "<annotation>", &p) != DL_SUCCESS) {
        free(src);
        return NULL;
    }
    free(src);
    const dl_annot_kernel *pk = p->nkernels == 1 ? &p->kernels[0] : NULL;
    char buf[4096];
    char *out = NULL;
    if (pk && pk->ok && pk->nindirect == 1 && !p->ndiags &&
        dl_annot_format_indirect(&pk->indirect[0], buf, sizeof buf) <
            (int)sizeof buf)
        out = dla_strdup(buf);
    else if (p->ndiags && strstr(p->diags[0].message, "untransformed: "))
        no(r, dla_strdup(strstr(p->diags[0].message, "untransformed: ") +
                         strlen("untransformed: ")));
    else
        no(r, dla_printf("the runtime rejects the annotation: %s",
                         p->ndiags ? p->diags[0].message : "no kernel"));
    dl_annot_free(p);
    return out;
}

/* The annotation of reference r: P's element at index node `e`, plus
 * the offset node `off` (-1: none; `minus`: subtracted). */
static char *annotation(ref *r, int e, int off, int minus)
{
    char *name = dla_spelling(r->array), *via = dla_spelling(r->via);
    char *index = expr_text(r, e, 1);
    char *offset = off < 0 ? dla_strdup("") : expr_text(r, off, 0);
    char *trips =
        index && !clang_Cursor_isNull(r->loop_var) ? loop_trips(r) : NULL;
    char *loop_name = trips ? dla_spelling(r->loop_var) : NULL;
    char *record = index && offset ? record_text(r) : NULL;
    char *text = NULL, *out = NULL;
    if (name && via && index && offset && record &&
        (trips || clang_Cursor_isNull(r->loop_var)))
        text = dla_printf(
            "//DL: indirect: read %s[%s[%s]%s%s%s]%s%s%s%s", name, via, index,
            off < 0 ? ""
            : minus ? " - ("
                    : " + (",
            offset, off < 0 ? "" : ")", record, trips ? " for(" : "",
            trips ? loop_name : "", trips ? " " : "");
    if (text && trips) {
        char *closed = dla_printf("%s%s)", text, trips);
        free(text);
        text = closed;
    }
    if (text)
        out = canonical(r, text);
    free(name), free(via), free(index), free(offset), free(trips);
    free(loop_name), free(record), free(text);
    return out;
}

/* ------------------------------------------------------------ the kernel */

/* node is P[E] with P a pointer argument: P's declaration. */
static int subscript_of_param(ctx *c, int node, CXCursor *param)
{
    dla_tree *t = &c->tree;
    node = dla_strip(t, node);
    if (node < 0 || t->nodes[node].kind != CXCursor_ArraySubscriptExpr)
        return 0;
    int base = dla_strip(t, t->nodes[node].first);
    if (base < 0 || t->nodes[base].kind != CXCursor_DeclRefExpr)
        return 0;
    *param = clang_getCursorReferenced(t->nodes[base].cur);
    return clang_getCursorKind(*param) == CXCursor_ParmDecl &&
           clang_getCursorType(*param).kind == CXType_Pointer;
}

/* Whether node is A[P[E] + c]: fills r (array, via) and the nodes of
 * P[E], E and c (-1: none; *minus for P[E] - c). */
static int match(ctx *c, int node, ref *r, int *e, int *off, int *minus)
{
    dla_tree *t = &c->tree;
    int idx = dla_strip(t, dla_child(t, node, 1)), inner = idx;
    if (!subscript_of_param(c, node, &r->array) || idx < 0)
        return 0;
    *off = -1;
    *minus = 0;
    if (t->nodes[idx].kind == CXCursor_BinaryOperator) {
        const char *op = dla_binop(t, idx);
        int lhs = dla_child(t, idx, 0), rhs = dla_child(t, idx, 1);
        *minus = !strcmp(op, "-");
        if (!*minus && strcmp(op, "+"))
            return 0;
        inner = subscript_of_param(c, lhs, &r->via)              ? lhs
                : !*minus && subscript_of_param(c, rhs, &r->via) ? rhs
                                                                 : -1;
        if (inner < 0)
            return 0;
        *off = inner == lhs ? rhs : lhs;
    } else if (!subscript_of_param(c, idx, &r->via)) {
        return 0;
    }
    *e = dla_child(t, dla_strip(t, inner), 1);
    return 1;
}

/* Adds the reference unless the kernel has it already (same annotation,
 * or same arrays declined for the same reason). */
static int add(dla_kernel *k, ref *r, char *annot)
{
    char *array = dla_spelling(r->array), *via = dla_spelling(r->via);
    for (unsigned i = 0; i < k->nindirect; i++) {
        dla_indirect *d = &k->indirect[i];
        int same = annot ? d->annotation && !strcmp(d->annotation, annot)
                         : d->reason && r->why && !strcmp(d->reason, r->why) &&
                               !strcmp(d->array, array) && !strcmp(d->via, via);
        if (same) {
            free(array), free(via), free(annot), free(r->why);
            return 0;
        }
    }
    dla_indirect *grown =
        realloc(k->indirect, (k->nindirect + 1) * sizeof *grown);
    if (!grown || !array || !via) {
        free(grown ? NULL : annot);
        free(array), free(via), free(r->why);
        if (grown)
            k->indirect = grown;
        return -1;
    }
    k->indirect = grown;
    k->indirect[k->nindirect++] = (dla_indirect){array, via, annot, r->why, 0};
    return 0;
}

/* Whether the kernel's annotations (the user's) already say `annot`. */
static int present(const dla_kernel *k, const char *annot)
{
    char buf[4096];
    for (uint32_t i = 0; k->annot && i < k->annot->nindirect; i++) {
        dl_annot_format_indirect(&k->annot->indirect[i], buf, sizeof buf);
        if (!strcmp(buf, annot))
            return 1;
    }
    return 0;
}

/* ------------------------------------------------- the redirected form */

/* The element type of A without address space and qualifiers. */
static char *element_type(CXCursor array)
{
    static const char *const drop[] = {"const",      "volatile", "__global",
                                       "global",     "restrict", "__restrict",
                                       "__constant", "constant"};
    char *t =
        dla_type_spelling(clang_getPointeeType(clang_getCursorType(array)));
    char *out = t ? calloc(strlen(t) + 1, 1) : NULL;
    for (char *w = t ? strtok(t, " ") : NULL; w && out; w = strtok(NULL, " ")) {
        int keep = 1;
        for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
            keep &= strcmp(w, drop[i]) != 0;
        if (keep)
            strcat(strcat(out, *out ? " " : ""), w);
    }
    free(t);
    return out;
}

/* The gather parameter of (A, P, offset): found, or added; -1 when out
 * of memory. */
static int gather_of(dla_kernel *k, ref *r, const char *key)
{
    unsigned same = 0;
    for (unsigned i = 0; i < k->ngathers; i++) {
        if (!strcmp(k->gathers[i].key, key))
            return (int)i;
        same += !strncmp(k->gathers[i].key, key, strcspn(key, "+-"));
    }
    dla_gather *grown = realloc(k->gathers, (k->ngathers + 1) * sizeof *grown);
    if (!grown)
        return -1;
    k->gathers = grown;
    char *a = dla_spelling(r->array), *p = dla_spelling(r->via);
    char *type = element_type(r->array);
    dla_gather g = {dla_strdup(key), NULL, NULL};
    if (a && p)
        g.name = same ? dla_printf("dl_gather_%s_%s_%u", a, p, same + 1)
                      : dla_printf("dl_gather_%s_%s", a, p);
    if (g.name && type)
        g.decl = dla_printf("__global const %s *%s", type, g.name);
    free(a), free(p), free(type);
    if (!g.key || !g.decl) {
        free(g.key), free(g.name), free(g.decl);
        return -1;
    }
    k->gathers[k->ngathers] = g;
    return (int)k->ngathers++;
}

/* The occurrence at node of an annotated read, in the redirected form:
 * 0, or -1 when out of memory. */
static int redirect(ctx *c, ref *r, int e, int off, int minus)
{
    dla_kernel *k = c->k;
    dla_range whole, index, offr = {0, 0};
    if (!read_only(c, r->array)) {
        char *a = dla_spelling(r->array);
        if (!k->redirect_reason)
            k->redirect_reason = dla_printf("'%s' is written in the kernel, "
                                            "which a gathered copy would "
                                            "not see",
                                            a ? a : "?");
        free(a);
        return k->redirect_reason ? 0 : -1;
    }
    if (!node_range(c, r->node, &whole) || !node_range(c, e, &index) ||
        (off >= 0 && !node_range(c, off, &offr))) {
        if (!k->redirect_reason)
            k->redirect_reason = dla_strdup("a reference is spelled by a "
                                            "macro");
        return k->redirect_reason ? 0 : -1;
    }
    char *a = dla_spelling(r->array), *p = dla_spelling(r->via);
    char *o = off >= 0 ? dla_substr(&c->prog->src, offr) : dla_strdup("");
    char *key = a && p && o
                    ? dla_printf("%s %s %c%s", a, p, minus ? '-' : '+', o)
                    : NULL;
    int g = key ? gather_of(k, r, key) : -1;
    free(a), free(p), free(o), free(key);
    dla_redirect *grown =
        g >= 0 ? realloc(k->redirects, (k->nredirects + 1) * sizeof *grown)
               : NULL;
    if (!grown)
        return -1;
    k->redirects = grown;
    k->redirects[k->nredirects++] =
        (dla_redirect){whole, index, (unsigned)g, r->rows};
    return 0;
}

/* One reference at node: checked, annotated or declined, added. */
static int one_reference(ctx *c, int node)
{
    ref r = {.c = c,
             .node = node,
             .array = clang_getNullCursor(),
             .via = clang_getNullCursor(),
             .loop_var = clang_getNullCursor()};
    int e, off, minus;
    if (!match(c, node, &r, &e, &off, &minus))
        return 0;
    char *annot = NULL;
    if (written(&c->tree, node))
        no(&r, dla_strdup("the reference writes the array: written "
                          "references are declined for now"));
    else if (!read_only(c, r.via))
        no(&r, dla_strdup("the index buffer is written, or used other than "
                          "as P[...], in the kernel"));
    else
        annot = annotation(&r, e, off, minus);
    if (!annot && !r.why)
        return -1;        /* out of memory */
    if (annot && r.why) { /* a reason found on a path not taken */
        free(r.why);
        r.why = NULL;
    }
    int k = c->k->nindirect;
    if (annot && redirect(c, &r, e, off, minus))
        return -1;
    if (add(c->k, &r, annot))
        return -1;
    if ((int)c->k->nindirect > k && annot)
        c->k->indirect[k].present = present(c->k, annot);
    return 0;
}

/* Whether the redirected form can be written: the kernel is not
 * rewritten for its records, nor already, and its parameters end in the
 * file.  Else the reason. */
static const char *no_redirect(ctx *c, CXCursor fn)
{
    dla_kernel *k = c->k;
    dla_range last;
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            return "the kernel's records are rewritten: not both yet";
    if (k->already)
        return "the kernel is already rewritten";
    if (!k->nargs ||
        !dla_cursor_range(clang_Cursor_getArgument(fn, k->nargs - 1), &last))
        return "its parameters are spelled by a macro";
    k->params_end = last.end;
    return NULL;
}

int dla_find_indirect(ctx *c, CXCursor fn)
{
    for (int i = 0; i < c->tree.n; i++)
        if (c->tree.nodes[i].kind == CXCursor_ArraySubscriptExpr &&
            one_reference(c, i))
            return -1;
    const char *why = c->k->nredirects ? no_redirect(c, fn) : NULL;
    if (why && !c->k->redirect_reason)
        c->k->redirect_reason = dla_strdup(why);
    return why && !c->k->redirect_reason ? -1 : 0;
}
