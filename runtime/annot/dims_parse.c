/* dims_parse.c - the parser of dimension expressions: recursive descent
 * that emits nodes in postfix order (see dims.h). */
#include "dims.h"
#include "dims_internal.h"
#include "error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

dl_status dl_dims_parse_text(const char *text, size_t len, int bitwise,
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
    return dl_dims_parse_text(text, len, 0, out);
}
