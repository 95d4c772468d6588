/* dims.c - dimension expressions: a recursive-descent parser that emits
 * nodes in postfix order, and a checked 64-bit evaluator (see dims.h). */
#include "dims.h"
#include "error.h"
#include "srcmacros.h"
#include "textbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ int types */

static const struct {
    const char *name;
    size_t size;
    int is_signed;
} int_types[] = {
    [DL_INT_NONE] = {"?", 0, 0},     [DL_INT_I8] = {"char", 1, 1},
    [DL_INT_U8] = {"uchar", 1, 0},   [DL_INT_I16] = {"short", 2, 1},
    [DL_INT_U16] = {"ushort", 2, 0}, [DL_INT_I32] = {"int", 4, 1},
    [DL_INT_U32] = {"uint", 4, 0},   [DL_INT_I64] = {"long", 8, 1},
    [DL_INT_U64] = {"ulong", 8, 0},
};

static int int_type_valid(dl_int_type t)
{
    return t > DL_INT_NONE && t <= DL_INT_U64;
}

size_t dl_int_type_size(dl_int_type t)
{
    return int_type_valid(t) ? int_types[t].size : 0;
}

const char *dl_int_type_name(dl_int_type t)
{
    return int_type_valid(t) ? int_types[t].name : "?";
}

dl_status dl_int_decode(const void *bytes, size_t size, dl_int_type type,
                        int64_t *value)
{
    DL_RETURN_ERROR_ON(!bytes || !value, DL_INVALID_ARGUMENT,
                       "integer value is NULL");
    DL_RETURN_ERROR_ON(!int_type_valid(type), DL_INVALID_ARGUMENT,
                       "not an integer type");
    DL_RETURN_ERROR_ON(size != int_types[type].size, DL_INVALID_ARGUMENT,
                       "a %s argument was set with %zu bytes, not %zu",
                       int_types[type].name, size, int_types[type].size);
    /* memcpy: clSetKernelArg's pointer need not be aligned. */
    switch (type) {
    case DL_INT_I8: {
        int8_t v;
        memcpy(&v, bytes, 1);
        *value = v;
        break;
    }
    case DL_INT_U8: {
        uint8_t v;
        memcpy(&v, bytes, 1);
        *value = v;
        break;
    }
    case DL_INT_I16: {
        int16_t v;
        memcpy(&v, bytes, 2);
        *value = v;
        break;
    }
    case DL_INT_U16: {
        uint16_t v;
        memcpy(&v, bytes, 2);
        *value = v;
        break;
    }
    case DL_INT_I32: {
        int32_t v;
        memcpy(&v, bytes, 4);
        *value = v;
        break;
    }
    case DL_INT_U32: {
        uint32_t v;
        memcpy(&v, bytes, 4);
        *value = v;
        break;
    }
    case DL_INT_I64: {
        int64_t v;
        memcpy(&v, bytes, 8);
        *value = v;
        break;
    }
    case DL_INT_U64: {
        uint64_t v;
        memcpy(&v, bytes, 8);
        DL_RETURN_ERROR_ON(v > INT64_MAX, DL_SIZE_OVERFLOW,
                           "ulong value %llu does not fit 64-bit signed "
                           "arithmetic",
                           (unsigned long long)v);
        *value = (int64_t)v;
        break;
    }
    case DL_INT_NONE:
        break;
    }
    return DL_SUCCESS;
}

/* ----------------------------------------------------------------- parser */

typedef struct parser {
    const char *s;
    size_t len, pos;
    unsigned depth;
    dl_dims_node nodes[DL_DIMS_MAX_NODES];
    uint32_t nnodes;
    char *names; /* NUL-separated argument names */
    size_t names_len;
    int bitwise;          /* a macro value: << >> & | ^ ~ allowed */
    int unsigned_literal; /* a literal has a u/U suffix           */
} parser;

static const struct {
    const char *name;
    dl_dims_op op;
} builtins[] = {
    {"global_size", DL_DIMS_GLOBAL_SIZE},
    {"local_size", DL_DIMS_LOCAL_SIZE},
    {"num_groups", DL_DIMS_NUM_GROUPS},
    {"global_offset", DL_DIMS_GLOBAL_OFFSET},
    {"get_global_size", DL_DIMS_GLOBAL_SIZE},
    {"get_local_size", DL_DIMS_LOCAL_SIZE},
    {"get_num_groups", DL_DIMS_NUM_GROUPS},
    {"get_global_offset", DL_DIMS_GLOBAL_OFFSET},
};

static const char *const builtin_names[] = {
    [DL_DIMS_GLOBAL_SIZE] = "global_size",
    [DL_DIMS_LOCAL_SIZE] = "local_size",
    [DL_DIMS_NUM_GROUPS] = "num_groups",
    [DL_DIMS_GLOBAL_OFFSET] = "global_offset",
};

static void skip_blanks(parser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

/* The next non-blank character, or 0 at the end. */
static char peek(parser *p)
{
    skip_blanks(p);
    return p->pos < p->len ? p->s[p->pos] : '\0';
}

static int is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Messages quote at most this much of the expression. */
#define QUOTE 60

static dl_status syntax_error(const parser *p, const char *what)
{
    char got[16];
    if (p->pos >= p->len)
        snprintf(got, sizeof got, "the end");
    else if (isprint((unsigned char)p->s[p->pos]))
        snprintf(got, sizeof got, "'%c'", p->s[p->pos]);
    else
        snprintf(got, sizeof got, "byte 0x%02x", (unsigned char)p->s[p->pos]);
    return dl_fail(DL_INVALID_ARGUMENT, "column %zu: %s, found %s in '%.*s%s'",
                   p->pos + 1, what, got,
                   (int)(p->len < QUOTE ? p->len : QUOTE), p->s,
                   p->len > QUOTE ? "..." : "");
}

static dl_status emit(parser *p, dl_dims_node node, uint32_t *index)
{
    DL_RETURN_ERROR_ON(p->nnodes >= DL_DIMS_MAX_NODES, DL_INVALID_ARGUMENT,
                       "dimension expression is too long (more than %d "
                       "terms and operators)",
                       DL_DIMS_MAX_NODES);
    node.arg_index = -1;
    p->nodes[p->nnodes] = node;
    *index = p->nnodes++;
    return DL_SUCCESS;
}

static dl_status parse_expr(parser *p, uint32_t *root);

/* Decimal or 0x-hex, with optional C suffixes (u, l, ul, ...) ignored. */
static dl_status parse_number(parser *p, uint32_t *root)
{
    size_t start = p->pos;
    int base = 10;
    if (p->s[p->pos] == '0' && p->pos + 1 < p->len &&
        (p->s[p->pos + 1] == 'x' || p->s[p->pos + 1] == 'X')) {
        base = 16;
        p->pos += 2;
    }
    uint64_t v = 0;
    size_t digits = 0;
    for (; p->pos < p->len; p->pos++, digits++) {
        int c = (unsigned char)p->s[p->pos], d;
        if (isdigit(c))
            d = c - '0';
        else if (base == 16 && isxdigit(c))
            d = tolower(c) - 'a' + 10;
        else
            break;
        DL_RETURN_ERROR_ON(
            v > ((uint64_t)INT64_MAX - (uint64_t)d) / base, DL_SIZE_OVERFLOW,
            "column %zu: the number '%.*s...' does not fit "
            "64-bit signed arithmetic",
            start + 1, (int)(p->len - start < 60 ? p->len - start : 60),
            p->s + start);
        v = v * base + (uint64_t)d;
    }
    if (digits == 0)
        return syntax_error(p, "expected hexadecimal digits");
    if (base == 10 && digits > 1 && p->s[start] == '0') {
        p->pos = start;
        return syntax_error(p, "octal numbers are not supported (leading 0)");
    }
    while (p->pos < p->len && p->s[p->pos] && strchr("uUlL", p->s[p->pos]))
        p->unsigned_literal |= toupper((unsigned char)p->s[p->pos++]) == 'U' &&
                               p->bitwise; /* a count's code is long */
    if (p->pos < p->len && is_ident_char(p->s[p->pos]))
        return syntax_error(p, "expected an operator after the number");
    return emit(p, (dl_dims_node){.op = DL_DIMS_CONST, .value = (int64_t)v},
                root);
}

/* name "(" d ")" where name is a builtin. */
static dl_status parse_builtin(parser *p, dl_dims_op op, uint32_t *root)
{
    p->pos++; /* '(' */
    skip_blanks(p);
    char c = p->pos < p->len ? p->s[p->pos] : '\0';
    if (!isdigit((unsigned char)c))
        return syntax_error(p, "expected a dimension index 0, 1 or 2");
    size_t at = p->pos;
    p->pos++;
    if (c > '2' || (p->pos < p->len && isdigit((unsigned char)p->s[p->pos]))) {
        p->pos = at;
        return syntax_error(p, "the dimension index must be 0, 1 or 2");
    }
    if (peek(p) != ')')
        return syntax_error(p, "expected ')' after the dimension index");
    p->pos++;
    return emit(p, (dl_dims_node){.op = op, .value = c - '0'}, root);
}

static dl_status parse_name(parser *p, uint32_t *root)
{
    size_t start = p->pos;
    while (p->pos < p->len && is_ident_char(p->s[p->pos]))
        p->pos++;
    size_t n = p->pos - start;
    if (peek(p) == '(') {
        for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
            if (strlen(builtins[i].name) == n &&
                memcmp(builtins[i].name, p->s + start, n) == 0)
                return parse_builtin(p, builtins[i].op, root);
        p->pos = start;
        return syntax_error(p, "unknown function (global_size, local_size, "
                               "num_groups and global_offset are allowed)");
    }
    char *grown = realloc(p->names, p->names_len + n + 1);
    DL_RETURN_ERROR_ON(!grown, DL_OUT_OF_MEMORY, "out of host memory");
    p->names = grown;
    memcpy(p->names + p->names_len, p->s + start, n);
    p->names[p->names_len + n] = '\0';
    /* The offset waits in .value until the names stop moving. */
    dl_dims_node node = {.op = DL_DIMS_ARG, .value = (int64_t)p->names_len};
    p->names_len += n + 1;
    return emit(p, node, root);
}

static dl_status enter(parser *p)
{
    DL_RETURN_ERROR_ON(++p->depth > DL_DIMS_MAX_DEPTH, DL_INVALID_ARGUMENT,
                       "column %zu: dimension expression nested more than "
                       "%d deep",
                       p->pos + 1, DL_DIMS_MAX_DEPTH);
    return DL_SUCCESS;
}

static dl_status parse_unary(parser *p, uint32_t *root)
{
    char c = peek(p);
    if (c == '-' || (c == '~' && p->bitwise)) {
        p->pos++;
        DL_RETURN_IF_FAIL(enter(p));
        uint32_t operand;
        DL_RETURN_IF_FAIL(parse_unary(p, &operand));
        p->depth--;
        return emit(p,
                    (dl_dims_node){.op = c == '-' ? DL_DIMS_NEG : DL_DIMS_NOT,
                                   .lhs = operand},
                    root);
    }
    if (c == '(') {
        p->pos++;
        DL_RETURN_IF_FAIL(enter(p));
        DL_RETURN_IF_FAIL(parse_expr(p, root));
        p->depth--;
        if (peek(p) != ')')
            return syntax_error(p, "expected ')'");
        p->pos++;
        return DL_SUCCESS;
    }
    if (isdigit((unsigned char)c))
        return parse_number(p, root);
    if (is_ident_start(c))
        return parse_name(p, root);
    return syntax_error(p, "expected a number, a name or '('");
}

/* One precedence level: operand { op operand }, left-associative. */
static dl_status parse_level(parser *p, const char *ops, const dl_dims_op *map,
                             dl_status (*operand)(parser *, uint32_t *),
                             uint32_t *root)
{
    uint32_t lhs, rhs;
    DL_RETURN_IF_FAIL(operand(p, &lhs));
    for (;;) {
        char c = peek(p);
        const char *op = c ? strchr(ops, c) : NULL;
        if (!op)
            break;
        p->pos++;
        DL_RETURN_IF_FAIL(operand(p, &rhs));
        DL_RETURN_IF_FAIL(
            emit(p, (dl_dims_node){.op = map[op - ops], .lhs = lhs, .rhs = rhs},
                 &lhs));
    }
    *root = lhs;
    return DL_SUCCESS;
}

static dl_status parse_term(parser *p, uint32_t *root)
{
    static const dl_dims_op map[] = {DL_DIMS_MUL, DL_DIMS_DIV, DL_DIMS_MOD};
    return parse_level(p, "*/%", map, parse_unary, root);
}

static dl_status parse_additive(parser *p, uint32_t *root)
{
    static const dl_dims_op map[] = {DL_DIMS_ADD, DL_DIMS_SUB};
    return parse_level(p, "+-", map, parse_term, root);
}

/* additive { ("<<" | ">>") additive } */
static dl_status parse_shift(parser *p, uint32_t *root)
{
    uint32_t lhs, rhs;
    DL_RETURN_IF_FAIL(parse_additive(p, &lhs));
    for (;;) {
        char c = peek(p);
        if ((c != '<' && c != '>') || p->pos + 1 >= p->len ||
            p->s[p->pos + 1] != c)
            break;
        p->pos += 2;
        DL_RETURN_IF_FAIL(parse_additive(p, &rhs));
        DL_RETURN_IF_FAIL(
            emit(p,
                 (dl_dims_node){.op = c == '<' ? DL_DIMS_SHL : DL_DIMS_SHR,
                                .lhs = lhs,
                                .rhs = rhs},
                 &lhs));
    }
    *root = lhs;
    return DL_SUCCESS;
}

static dl_status parse_and(parser *p, uint32_t *root)
{
    static const dl_dims_op map[] = {DL_DIMS_AND};
    return parse_level(p, "&", map, parse_shift, root);
}

static dl_status parse_xor(parser *p, uint32_t *root)
{
    static const dl_dims_op map[] = {DL_DIMS_XOR};
    return parse_level(p, "^", map, parse_and, root);
}

static dl_status parse_or(parser *p, uint32_t *root)
{
    static const dl_dims_op map[] = {DL_DIMS_OR};
    return parse_level(p, "|", map, parse_xor, root);
}

/* C's precedence: | below ^ below & below shifts below + and -. */
static dl_status parse_expr(parser *p, uint32_t *root)
{
    return p->bitwise ? parse_or(p, root) : parse_additive(p, root);
}

void dl_dims_free(dl_dims_expr *e)
{
    if (!e)
        return;
    free(e->text);
    free(e->nodes);
    free(e->names);
    free(e);
}

/* Moves the parser's result into a new expression. */
static dl_status finish(parser *p, dl_dims_expr **out)
{
    dl_dims_expr *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of host memory");
    e->text = strndup(p->s, p->len);
    e->nodes = malloc(p->nnodes * sizeof *e->nodes);
    e->names = p->names;
    p->names = NULL;
    e->nnodes = p->nnodes;
    e->unsigned_literal = p->unsigned_literal;
    if (!e->text || !e->nodes) {
        dl_dims_free(e);
        return dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    }
    memcpy(e->nodes, p->nodes, p->nnodes * sizeof *e->nodes);
    for (uint32_t i = 0; i < e->nnodes; i++)
        if (e->nodes[i].op == DL_DIMS_ARG) {
            e->nodes[i].name = e->names + e->nodes[i].value;
            e->nodes[i].value = 0;
        }
    *out = e;
    return DL_SUCCESS;
}

static dl_status parse_text(const char *text, size_t len, int bitwise,
                            dl_dims_expr **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "expression output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!text, DL_INVALID_ARGUMENT, "expression is NULL");
    /* The parser holds DL_DIMS_MAX_NODES nodes: too big for some stacks. */
    parser *p = calloc(1, sizeof *p);
    DL_RETURN_ERROR_ON(!p, DL_OUT_OF_MEMORY, "out of host memory");
    p->s = text;
    p->len = len;
    p->bitwise = bitwise;
    uint32_t root;
    dl_status status;
    if (peek(p) == '\0' && p->pos >= p->len)
        status = dl_fail(DL_INVALID_ARGUMENT, "empty dimension expression");
    else
        status = parse_expr(p, &root);
    if (status == DL_SUCCESS && peek(p) != '\0')
        status = syntax_error(p, "expected an operator or the end");
    if (status == DL_SUCCESS && p->pos < p->len) /* a NUL byte */
        status = syntax_error(p, "expected an operator or the end");
    if (status == DL_SUCCESS)
        status = finish(p, out);
    free(p->names);
    free(p);
    return status;
}

dl_status dl_dims_parse(const char *text, size_t len, dl_dims_expr **out)
{
    return parse_text(text, len, 0, out);
}

/* ------------------------------------------------------------- inspection */

int dl_dims_is_const(const dl_dims_expr *e)
{
    for (uint32_t i = 0; e && i < e->nnodes; i++)
        if (e->nodes[i].op >= DL_DIMS_GLOBAL_SIZE &&
            e->nodes[i].op <= DL_DIMS_MACRO)
            return 0;
    return e != NULL;
}

dl_status dl_dims_bind(dl_dims_expr *e, dl_dims_lookup_fn lookup, void *user)
{
    DL_RETURN_ERROR_ON(!e || !lookup, DL_INVALID_ARGUMENT, "nothing to bind");
    for (uint32_t i = 0; i < e->nnodes; i++) {
        dl_dims_node *n = &e->nodes[i];
        if (n->op != DL_DIMS_ARG)
            continue;
        int32_t index = -1;
        dl_int_type type = DL_INT_NONE;
        DL_RETURN_IF_FAIL(lookup(user, n->name, &index, &type));
        if (index < 0 && type == DL_INT_NONE) { /* a build-option macro */
            n->op = DL_DIMS_MACRO;
            n->defined = 0;
            continue;
        }
        DL_RETURN_ERROR_ON(index < 0 || !int_type_valid(type),
                           DL_INVALID_ARGUMENT,
                           "'%s' is not an integer kernel argument", n->name);
        n->arg_index = index;
        n->arg_type = type;
    }
    return DL_SUCCESS;
}

/* ------------------------------------- macros of the options and source */

/* The next blank-separated word of the options at *at: its start and
 * length, or 0 at the end. */
static size_t next_word(const char **at, const char **word)
{
    const char *p = *at;
    while (*p && isspace((unsigned char)*p))
        p++;
    *word = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    *at = p;
    return (size_t)(p - *word);
}

/* The last definition of `name` in the options: 1 with its value text
 * (`-DNAME` is "1"), 0 when undefined (or undefined again by -U). */
static int find_define(const char *options, const char *name,
                       const char **value, size_t *len)
{
    size_t n = strlen(name);
    int found = 0;
    const char *at = options, *w;
    size_t wl;
    while ((wl = next_word(&at, &w)) > 0) {
        if (wl < 2 || w[0] != '-' || (w[1] != 'D' && w[1] != 'U'))
            continue;
        int define = w[1] == 'D';
        const char *d = w + 2;
        size_t dl = wl - 2;
        if (dl == 0 && (dl = next_word(&at, &d)) == 0)
            break; /* "-D" at the end */
        if (dl < n || memcmp(d, name, n) != 0 ||
            (dl > n && (!define || d[n] != '=')))
            continue;
        found = define;
        *value = dl > n ? d + n + 1 : "1";
        *len = dl > n ? dl - n - 1 : 1;
    }
    return found;
}

/* Where the value of a macro comes from. */
typedef struct macro_text {
    const char *text;
    size_t len;
    const dl_srcmacro *def; /* the source's definition, NULL: the options' */
} macro_text;

/* A macro neither the options nor the source define.  `top`: a name of
 * the annotation, which could also have been a kernel argument. */
static dl_status not_defined(const char *name, const dl_srcmacros *src, int top)
{
    const char *arg = top ? "a kernel argument nor " : "";
    if (!src)
        return dl_fail(DL_INVALID_ARGUMENT,
                       "'%s' is neither %sdefined by "
                       "the build options",
                       name, arg);
    if (src->include_line)
        return dl_fail(DL_INVALID_ARGUMENT,
                       "'%s' is neither %sdefined by "
                       "the build options nor by a #define of the "
                       "program's source (%s:%u includes %.*s, whose "
                       "macros dlayout does not read: it sees only the "
                       "source string)",
                       name, arg, src->label, src->include_line, QUOTE,
                       src->include);
    return dl_fail(DL_INVALID_ARGUMENT,
                   "'%s' is neither %sdefined by the "
                   "build options nor by a #define of the program's source",
                   name, arg);
}

/* Which definition of `name` counts: the options', else the source's. */
static dl_status find_macro(const char *name, const char *options,
                            const dl_srcmacros *src, int top, macro_text *t)
{
    const dl_srcmacro *def;
    DL_RETURN_IF_FAIL(dl_srcmacros_find(src, name, &def));
    int in_options =
        find_define(options ? options : "", name, &t->text, &t->len);
    DL_RETURN_ERROR_ON(in_options && def && !def->guarded, DL_INVALID_ARGUMENT,
                       "'%s' is defined both by the build options and at "
                       "%s:%u, whose value the compiler takes",
                       name, src->label, def->line);
    t->def = in_options ? NULL : def;
    if (t->def) {
        t->text = def->value;
        t->len = strlen(def->value);
    }
    return in_options || def ? DL_SUCCESS : not_defined(name, src, top);
}

static int has_builtin(const dl_dims_expr *e)
{
    for (uint32_t i = 0; i < e->nnodes; i++)
        if (e->nodes[i].op >= DL_DIMS_GLOBAL_SIZE &&
            e->nodes[i].op <= DL_DIMS_GLOBAL_OFFSET)
            return 1;
    return 0;
}

static dl_status resolve(const char *name, const char *options,
                         const dl_srcmacros *src, unsigned depth,
                         int64_t *value, int *is_unsigned);

/* The names of a macro's value are macros too: resolved one level
 * deeper.  *is_unsigned collects unsigned literals at any level. */
static dl_status resolve_names(dl_dims_expr *v, const char *options,
                               const dl_srcmacros *src, unsigned depth,
                               int *is_unsigned)
{
    for (uint32_t i = 0; i < v->nnodes; i++) {
        dl_dims_node *n = &v->nodes[i];
        if (n->op != DL_DIMS_ARG)
            continue;
        int u = 0;
        DL_RETURN_IF_FAIL(
            resolve(n->name, options, src, depth + 1, &n->value, &u));
        n->op = DL_DIMS_MACRO;
        n->defined = 1;
        n->unsigned_value = u;
        *is_unsigned |= u;
    }
    return DL_SUCCESS;
}

/* The value of one macro: an integer constant expression, whose names
 * are other macros. */
static dl_status macro_value(const char *name, const macro_text *t,
                             const char *options, const dl_srcmacros *src,
                             unsigned depth, int64_t *value, int *is_unsigned)
{
    dl_dims_expr *v = NULL;
    dl_status status = parse_text(t->text, t->len, 1, &v);
    int named = 0; /* the failure is one of a name in the value */
    if (status == DL_SUCCESS) {
        *is_unsigned = v->unsigned_literal;
        status = resolve_names(v, options, src, depth, is_unsigned);
        named = status != DL_SUCCESS;
    }
    if (status == DL_SUCCESS && has_builtin(v))
        status = dl_fail(DL_INVALID_ARGUMENT, "a work-item function");
    if (status == DL_SUCCESS)
        status = dl_dims_eval(v, NULL, value);
    dl_dims_free(v);
    /* a name's failure says where it is; only the annotation's own
     * macro adds its value, so that the cause stays short */
    if (status == DL_SUCCESS || (named && depth > 0))
        return status;
    int len = (int)(t->len < QUOTE ? t->len : QUOTE);
    if (t->def)
        return dl_fail_wrap(status, "'%s' is '%.*s' at %s:%u%s", name, len,
                            t->text, src->label, t->def->line,
                            named ? "" : ", not an integer constant");
    return dl_fail_wrap(status, "the build options define '%s' as '%.*s'%s",
                        name, len, t->text,
                        named ? "" : ", not an integer constant");
}

static dl_status resolve(const char *name, const char *options,
                         const dl_srcmacros *src, unsigned depth,
                         int64_t *value, int *is_unsigned)
{
    DL_RETURN_ERROR_ON(depth > DL_DIMS_MACRO_DEPTH, DL_INVALID_ARGUMENT,
                       "'%s': macros nested more than %d deep (does one "
                       "name itself?)",
                       name, DL_DIMS_MACRO_DEPTH);
    macro_text t;
    DL_RETURN_IF_FAIL(find_macro(name, options, src, depth == 0, &t));
    return macro_value(name, &t, options, src, depth, value, is_unsigned);
}

/* One macro node from the options or the source: defined or not, with a
 * message. */
static dl_status define_one(const dl_dims_expr *e, dl_dims_node *n,
                            const char *options, const dl_srcmacros *src)
{
    n->defined = 0;
    int u = 0;
    dl_status status = resolve(n->name, options, src, 0, &n->value, &u);
    if (status != DL_SUCCESS)
        return dl_fail_wrap(status, "'%.*s'", QUOTE, e->text);
    n->defined = 1;
    n->unsigned_value = u;
    return DL_SUCCESS;
}

dl_status dl_dims_define_src(dl_dims_expr *e, const char *options,
                             const dl_srcmacros *src)
{
    DL_RETURN_ERROR_ON(!e, DL_INVALID_ARGUMENT, "no expression");
    int64_t first = -1;
    for (uint32_t i = 0; i < e->nnodes; i++)
        if (e->nodes[i].op == DL_DIMS_MACRO &&
            define_one(e, &e->nodes[i], options, src) != DL_SUCCESS &&
            first < 0)
            first = i;
    /* the message names the first macro that is not defined */
    return first < 0 ? DL_SUCCESS
                     : define_one(e, &e->nodes[first], options, src);
}

dl_status dl_dims_define(dl_dims_expr *e, const char *options)
{
    return dl_dims_define_src(e, options, NULL);
}

/* Binding strength of an operator, for dl_dims_format. */
static int precedence(dl_dims_op op)
{
    switch (op) {
    case DL_DIMS_ADD:
    case DL_DIMS_SUB:
        return 1;
    case DL_DIMS_MUL:
    case DL_DIMS_DIV:
    case DL_DIMS_MOD:
        return 2;
    case DL_DIMS_NEG:
        return 3;
    default:
        return 4;
    }
}

/* Recursion depth is bounded by DL_DIMS_MAX_NODES. */
static void format_node(const dl_dims_expr *e, uint32_t i, int min_prec,
                        dl_textbuf *s)
{
    static const char ops[] = {[DL_DIMS_ADD] = '+',
                               [DL_DIMS_SUB] = '-',
                               [DL_DIMS_MUL] = '*',
                               [DL_DIMS_DIV] = '/',
                               [DL_DIMS_MOD] = '%'};
    const dl_dims_node *n = &e->nodes[i];
    int prec = precedence(n->op);
    int paren = prec < min_prec;
    if (paren)
        dl_textbuf_put(s, "(");
    switch (n->op) {
    case DL_DIMS_CONST:
        dl_textbuf_put(s, "%lld", (long long)n->value);
        break;
    case DL_DIMS_ARG:
    case DL_DIMS_MACRO:
        dl_textbuf_put(s, "%s", n->name);
        break;
    case DL_DIMS_NEG:
        dl_textbuf_put(s, "-");
        format_node(e, n->lhs, prec, s);
        break;
    case DL_DIMS_GLOBAL_SIZE:
    case DL_DIMS_LOCAL_SIZE:
    case DL_DIMS_NUM_GROUPS:
    case DL_DIMS_GLOBAL_OFFSET:
        dl_textbuf_put(s, "%s(%lld)", builtin_names[n->op],
                       (long long)n->value);
        break;
    default:
        /* Left-associative: an equal-precedence right operand needs
         * parentheses, a left one does not. */
        format_node(e, n->lhs, prec, s);
        dl_textbuf_put(s, " %c ", ops[n->op]);
        format_node(e, n->rhs, prec + 1, s);
        break;
    }
    if (paren)
        dl_textbuf_put(s, ")");
}

int dl_dims_format(const dl_dims_expr *e, char *buf, size_t size)
{
    dl_textbuf s = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    if (e && e->nnodes)
        format_node(e, e->nnodes - 1, 0, &s);
    return (int)s.n;
}

/* -------------------------------------------------------------- evaluator */

static dl_status builtin_value(const dl_dims_expr *e, const dl_dims_node *n,
                               const dl_dims_env *env, int64_t *out)
{
    const char *name = builtin_names[n->op];
    unsigned d = (unsigned)n->value;
    int beyond = d >= env->work_dim;
    size_t v;
    switch (n->op) {
    case DL_DIMS_GLOBAL_OFFSET:
        v = beyond || !env->global_offset ? 0 : env->global_offset[d];
        break;
    case DL_DIMS_GLOBAL_SIZE:
        DL_RETURN_ERROR_ON(!env->global_size, DL_INVALID_ARGUMENT,
                           "'%.*s': global_size is not known here", QUOTE,
                           e->text);
        v = beyond ? 1 : env->global_size[d];
        break;
    default: /* local_size, num_groups */
        DL_RETURN_ERROR_ON(!beyond && (!env->local_size || !env->global_size),
                           DL_INVALID_ARGUMENT,
                           "'%.*s': %s(%u) is unknown because the launch "
                           "lets OpenCL choose the work-group size",
                           QUOTE, e->text, name, d);
        v = beyond ? 1 : env->local_size[d];
        DL_RETURN_ERROR_ON(v == 0, DL_INVALID_ARGUMENT,
                           "'%.*s': local_size(%u) is 0", QUOTE, e->text, d);
        if (n->op == DL_DIMS_NUM_GROUPS && !beyond)
            v = env->global_size[d] / v + (env->global_size[d] % v != 0);
        break;
    }
    DL_RETURN_ERROR_ON(v > INT64_MAX, DL_SIZE_OVERFLOW,
                       "'%.*s': %s(%u) is too large", QUOTE, e->text, name, d);
    *out = (int64_t)v;
    return DL_SUCCESS;
}

static dl_status arg_value(const dl_dims_expr *e, const dl_dims_node *n,
                           const dl_dims_env *env, int64_t *out)
{
    if (env->arg_value)
        return env->arg_value(env->user, n, out);
    DL_RETURN_ERROR_ON(n->arg_index < 0, DL_INVALID_ARGUMENT,
                       "'%.*s': '%s' is not bound to a kernel argument", QUOTE,
                       e->text, n->name);
    DL_RETURN_ERROR_ON((cl_uint)n->arg_index >= env->nargs ||
                           !env->args[n->arg_index].value,
                       DL_INVALID_ARGUMENT,
                       "'%.*s': kernel argument %d ('%s') has not been set",
                       QUOTE, e->text, n->arg_index, n->name);
    const dl_dims_raw_arg *raw = &env->args[n->arg_index];
    dl_status status = dl_int_decode(raw->value, raw->size, n->arg_type, out);
    if (status != DL_SUCCESS)
        return dl_fail_wrap(status, "'%.*s': argument '%s'", QUOTE, e->text,
                            n->name);
    return DL_SUCCESS;
}

static dl_status apply(const dl_dims_expr *e, dl_dims_op op, int64_t a,
                       int64_t b, int64_t *out)
{
    int overflow = 0;
    switch (op) {
    case DL_DIMS_NEG:
        overflow = __builtin_sub_overflow(0, a, out);
        break;
    case DL_DIMS_ADD:
        overflow = __builtin_add_overflow(a, b, out);
        break;
    case DL_DIMS_SUB:
        overflow = __builtin_sub_overflow(a, b, out);
        break;
    case DL_DIMS_MUL:
        overflow = __builtin_mul_overflow(a, b, out);
        break;
    case DL_DIMS_NOT:
        *out = ~a;
        break;
    case DL_DIMS_AND:
        *out = a & b;
        break;
    case DL_DIMS_XOR:
        *out = a ^ b;
        break;
    case DL_DIMS_OR:
        *out = a | b;
        break;
    case DL_DIMS_SHL:
    case DL_DIMS_SHR:
        DL_RETURN_ERROR_ON(b < 0 || b > 62 || (op == DL_DIMS_SHL && a < 0),
                           DL_INVALID_ARGUMENT,
                           "'%.*s': a shift of %lld "
                           "by %lld",
                           QUOTE, e->text, (long long)a, (long long)b);
        overflow = op == DL_DIMS_SHL && a > (INT64_MAX >> b);
        if (!overflow)
            *out = op == DL_DIMS_SHL ? a << b : a >> b;
        break;
    case DL_DIMS_DIV:
    case DL_DIMS_MOD:
        DL_RETURN_ERROR_ON(b == 0, DL_INVALID_ARGUMENT,
                           "'%.*s': division by zero", QUOTE, e->text);
        /* INT64_MIN / -1 is the one quotient that does not fit. */
        overflow = op == DL_DIMS_DIV && a == INT64_MIN && b == -1;
        if (!overflow)
            *out = b == -1 ? (op == DL_DIMS_DIV ? -a : 0)
                           : (op == DL_DIMS_DIV ? a / b : a % b);
        break;
    default:
        break;
    }
    DL_RETURN_ERROR_ON(overflow, DL_SIZE_OVERFLOW,
                       "'%.*s': the value overflows 64-bit signed "
                       "arithmetic",
                       QUOTE, e->text);
    return DL_SUCCESS;
}

dl_status dl_dims_eval(const dl_dims_expr *e, const dl_dims_env *env,
                       int64_t *value)
{
    DL_RETURN_ERROR_ON(!e || !e->nnodes || !value, DL_INVALID_ARGUMENT,
                       "no expression to evaluate");
    static const dl_dims_env empty;
    if (!env)
        env = &empty;
    int64_t v[DL_DIMS_MAX_NODES];
    int is_unsigned = e->unsigned_literal;
    for (uint32_t i = 0; i < e->nnodes; i++)
        is_unsigned |=
            e->nodes[i].op == DL_DIMS_MACRO && e->nodes[i].unsigned_value;
    for (uint32_t i = 0; i < e->nnodes; i++) {
        const dl_dims_node *n = &e->nodes[i];
        switch (n->op) {
        case DL_DIMS_CONST:
            v[i] = n->value;
            break;
        case DL_DIMS_ARG:
            DL_RETURN_IF_FAIL(arg_value(e, n, env, &v[i]));
            break;
        case DL_DIMS_MACRO:
            DL_RETURN_ERROR_ON(!n->defined, DL_INVALID_ARGUMENT,
                               "'%.*s': '%s' is neither a kernel argument "
                               "nor defined by the build options",
                               QUOTE, e->text, n->name);
            v[i] = n->value;
            break;
        case DL_DIMS_GLOBAL_SIZE:
        case DL_DIMS_LOCAL_SIZE:
        case DL_DIMS_NUM_GROUPS:
        case DL_DIMS_GLOBAL_OFFSET:
            DL_RETURN_IF_FAIL(builtin_value(e, n, env, &v[i]));
            break;
        case DL_DIMS_NEG:
        case DL_DIMS_NOT:
            DL_RETURN_IF_FAIL(apply(e, n->op, v[n->lhs], 0, &v[i]));
            break;
        default:
            DL_RETURN_IF_FAIL(apply(e, n->op, v[n->lhs], v[n->rhs], &v[i]));
            break;
        }
        /* C would compute in an unsigned type and wrap around */
        DL_RETURN_ERROR_ON(is_unsigned && v[i] < 0, DL_INVALID_ARGUMENT,
                           "'%.*s': a negative value with an unsigned "
                           "(u) literal, which C would wrap around",
                           QUOTE, e->text);
    }
    *value = v[e->nnodes - 1];
    return DL_SUCCESS;
}

dl_status dl_dims_eval_count(const dl_dims_expr *e, const dl_dims_env *env,
                             size_t *count)
{
    DL_RETURN_ERROR_ON(!count, DL_INVALID_ARGUMENT, "count output is NULL");
    int64_t v;
    DL_RETURN_IF_FAIL(dl_dims_eval(e, env, &v));
    DL_RETURN_ERROR_ON(v < 0, DL_INVALID_ARGUMENT,
                       "record count '%.*s' is negative (%lld)", QUOTE, e->text,
                       (long long)v);
    DL_RETURN_ERROR_ON((uint64_t)v > SIZE_MAX, DL_SIZE_OVERFLOW,
                       "record count '%.*s' does not fit a size_t", QUOTE,
                       e->text);
    *count = (size_t)v;
    return DL_SUCCESS;
}
