/* dims_eval.c - the evaluator of dimension expressions: checked 64-bit
 * arithmetic over the values a launch knows (see dims.h). */
#include "dims.h"
#include "dims_internal.h"
#include "error.h"

static dl_status builtin_value(const dl_dims_expr *e, const dl_dims_node *n,
                               const dl_dims_env *env, int64_t *out)
{
    const char *name = dl_dims_builtin_names[n->op];
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
