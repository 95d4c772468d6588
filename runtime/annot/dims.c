/* dims.c - dimension expressions: their integer types, inspection,
 * binding and canonical text (see dims.h).  The parser, the macros and
 * the evaluator are in dims_parse.c, dims_macros.c and dims_eval.c. */
#include "dims.h"
#include "dims_internal.h"
#include "error.h"
#include "textbuf.h"

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

const char *const dl_dims_builtin_names[DL_DIMS_GLOBAL_OFFSET + 1] = {
    [DL_DIMS_GLOBAL_SIZE] = "global_size",
    [DL_DIMS_LOCAL_SIZE] = "local_size",
    [DL_DIMS_NUM_GROUPS] = "num_groups",
    [DL_DIMS_GLOBAL_OFFSET] = "global_offset",
};

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

/* ------------------------------------------------------------- formatting */

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
        dl_textbuf_put(s, "%s(%lld)", dl_dims_builtin_names[n->op],
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
