/* indirect.c - indirect references A[P[index] + offset]: their binding to
 * the kernel's arguments, the check that the index is affine in the
 * global id and the loop variable, their canonical form and their
 * evaluation at a launch (docs/annotations.md, "Indirect references"). */
#define _GNU_SOURCE /* strdup */
#include "indirect.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The integer element type of an index buffer, or DL_INT_NONE. */
static dl_int_type element_int_type(const char *type)
{
    static const struct {
        const char *name;
        dl_int_type t;
    } types[] = {
        {"char", DL_INT_I8},    {"uchar", DL_INT_U8},  {"short", DL_INT_I16},
        {"ushort", DL_INT_U16}, {"int", DL_INT_I32},   {"uint", DL_INT_U32},
        {"long", DL_INT_I64},   {"ulong", DL_INT_U64},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(type, types[i].name) == 0)
            return types[i].t;
    return DL_INT_NONE;
}

static dl_status global_pointer(const dl_annot_kernel *k, const char *name,
                                const char *role, uint32_t *index)
{
    const dl_kernel_param *param = dl_annot_find_param(k, name, index);
    DL_RETURN_ERROR_ON(!param, DL_INVALID_ARGUMENT,
                       "kernel '%s' has no argument '%s'", k->name, name);
    DL_RETURN_ERROR_ON(param->pointer != 1 ||
                           (param->space != DL_SPACE_GLOBAL &&
                            param->space != DL_SPACE_CONSTANT),
                       DL_INVALID_ARGUMENT,
                       "%s '%s' of kernel '%s' is not a __global or "
                       "__constant pointer",
                       role, name, k->name);
    return DL_SUCCESS;
}

/* --------------------------------------------------------------- binding */

typedef struct names {
    const dl_annot_kernel *k;
    const char *loop_var;
    int in_index; /* gid and the loop variable are allowed */
} names;

/* dl_dims_lookup_fn: gid, the loop variable, integer arguments, and any
 * other name is a build-option macro. */
static dl_status lookup(void *user, const char *name, int32_t *index,
                        dl_int_type *type)
{
    const names *n = user;
    uint32_t i, np = n->k->nparams;
    int gid = strcmp(name, "gid") == 0;
    int loop = n->loop_var && strcmp(name, n->loop_var) == 0;
    DL_RETURN_ERROR_ON((gid || loop) && !n->in_index, DL_INVALID_ARGUMENT,
                       "'%s' may only appear in the index", name);
    *type = DL_INT_I64;
    if (gid || loop) {
        *index = (int32_t)(np + (gid ? DL_ANNOT_NAME_GID : DL_ANNOT_NAME_LOOP));
        return DL_SUCCESS;
    }
    const dl_kernel_param *p = dl_annot_find_param(n->k, name, &i);
    if (!p) {
        *index = (int32_t)(np + DL_ANNOT_NAME_MACRO);
        return DL_SUCCESS;
    }
    DL_RETURN_ERROR_ON(p->pointer || p->int_type == DL_INT_NONE,
                       DL_INVALID_ARGUMENT,
                       "'%s' is not an integer argument (it is %s%s)", name,
                       p->type, p->pointer ? " *" : "");
    *index = (int32_t)i;
    *type = p->int_type;
    return DL_SUCCESS;
}

/* A copy of expr, bound to the kernel's names. */
static dl_status bind_copy(const dl_dims_expr *expr, names *n, const char *what,
                           dl_dims_expr **out)
{
    DL_RETURN_IF_FAIL(dl_dims_parse(expr->text, strlen(expr->text), out));
    dl_status status = dl_dims_bind(*out, lookup, n);
    if (status != DL_SUCCESS)
        return dl_fail_wrap(status, "%s '%s'", what, expr->text);
    return DL_SUCCESS;
}

/* Which of gid (bit 0) and the loop variable (bit 1) a node uses. */
static unsigned var_bits(const dl_dims_node *node, uint32_t nparams)
{
    if (node->op != DL_DIMS_ARG || node->arg_index < (int32_t)nparams)
        return 0;
    uint32_t which = (uint32_t)node->arg_index - nparams;
    return which == DL_ANNOT_NAME_GID    ? 1u
           : which == DL_ANNOT_NAME_LOOP ? 2u
                                         : 0u;
}

/* The index must be affine in gid and the loop variable: no product of
 * two terms that use them, no division or remainder of one.  Sets *used
 * to the variables it uses. */
static dl_status check_affine(const dl_dims_expr *e, uint32_t nparams,
                              unsigned *used)
{
    unsigned bits[DL_DIMS_MAX_NODES];
    for (uint32_t i = 0; i < e->nnodes; i++) {
        const dl_dims_node *n = &e->nodes[i];
        unsigned l = n->op >= DL_DIMS_NEG ? bits[n->lhs] : 0;
        unsigned r = n->op > DL_DIMS_NEG ? bits[n->rhs] : 0;
        DL_RETURN_ERROR_ON(n->op == DL_DIMS_MUL && l && r, DL_INVALID_ARGUMENT,
                           "the index '%s' is not affine: it multiplies "
                           "the global id or the loop variable by itself or "
                           "the other",
                           e->text);
        DL_RETURN_ERROR_ON((n->op == DL_DIMS_DIV || n->op == DL_DIMS_MOD) &&
                               (l || r),
                           DL_INVALID_ARGUMENT,
                           "the index '%s' is not affine: it divides the "
                           "global id or the loop variable",
                           e->text);
        bits[i] = var_bits(n, nparams) | l | r;
    }
    *used = bits[e->nnodes - 1];
    return DL_SUCCESS;
}

/* The element size of A and the span of the bytes the reference touches. */
static dl_status element(const dl_annot_pending *p, const dl_kernel_param *a,
                         dl_annot_indirect *out)
{
    DL_RETURN_ERROR_ON(!a->elem_size && !p->has_record, DL_INVALID_ARGUMENT,
                       "the size of an element of '%s' (%s) is unknown: "
                       "give record(size=S; offset:size, ...)",
                       p->name, a->type);
    DL_RETURN_ERROR_ON(a->elem_size && p->has_record &&
                           p->record_size != a->elem_size,
                       DL_INVALID_ARGUMENT,
                       "record size %u is not the %u bytes of an element of "
                       "'%s' (%s)",
                       p->record_size, a->elem_size, p->name, a->type);
    out->elem_size = a->elem_size ? a->elem_size : p->record_size;
    out->field_offset = 0;
    out->field_size = out->elem_size;
    if (!p->has_record)
        return DL_SUCCESS;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < p->nfields; i++) {
        lo = p->fields[i].offset < lo ? p->fields[i].offset : lo;
        uint32_t end = p->fields[i].offset + p->fields[i].size;
        hi = end > hi ? end : hi;
    }
    out->field_offset = lo;
    out->field_size = hi - lo;
    out->fields = malloc(p->nfields * sizeof *out->fields);
    DL_RETURN_ERROR_ON(!out->fields, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(out->fields, p->fields, p->nfields * sizeof *out->fields);
    out->nfields = p->nfields;
    out->explicit_record = 1;
    return DL_SUCCESS;
}

/* A and P: pointers, P to integers, not the same argument. */
static dl_status bind_arrays(const dl_annot_pending *p,
                             const dl_annot_kernel *k, dl_annot_indirect *out)
{
    DL_RETURN_IF_FAIL(global_pointer(k, p->name, "array", &out->array));
    DL_RETURN_IF_FAIL(global_pointer(k, p->via, "index buffer", &out->via));
    const dl_kernel_param *pp = &k->params[out->via];
    out->via_type = element_int_type(pp->type);
    DL_RETURN_ERROR_ON(out->via_type == DL_INT_NONE, DL_INVALID_ARGUMENT,
                       "index buffer '%s' holds %s, not integers", p->via,
                       pp->type);
    DL_RETURN_ERROR_ON(out->array == out->via, DL_INVALID_ARGUMENT,
                       "'%s' is both the array and its index buffer", p->name);
    out->array_name = k->params[out->array].name;
    out->via_name = pp->name;
    return element(p, &k->params[out->array], out);
}

dl_status dl_annot_bind_bound(const dl_annot_kernel *k, const char *array,
                              const dl_dims_expr *index, const char *loop_var,
                              dl_annot_bound *out)
{
    unsigned used;
    names n = {k, loop_var, 1};
    DL_RETURN_IF_FAIL(global_pointer(k, array, "bounds array", &out->array));
    const dl_kernel_param *b = &k->params[out->array];
    out->name = b->name;
    out->type = element_int_type(b->type);
    DL_RETURN_ERROR_ON(out->type == DL_INT_NONE, DL_INVALID_ARGUMENT,
                       "bounds array '%s' holds %s, not integers", b->name,
                       b->type);
    DL_RETURN_IF_FAIL(bind_copy(index, &n, "bound", &out->index));
    DL_RETURN_IF_FAIL(check_affine(out->index, k->nparams, &used));
    DL_RETURN_ERROR_ON(used & 2u, DL_INVALID_ARGUMENT,
                       "the bound '%s[%s]' names the loop variable", b->name,
                       out->index->text);
    return DL_SUCCESS;
}

/* The bounds of a row-bounded loop, neither of them A or P. */
static dl_status bind_rows(const dl_annot_pending *p, const dl_annot_kernel *k,
                           dl_annot_indirect *out)
{
    for (int i = 0; i < 2; i++) {
        DL_RETURN_IF_FAIL(dl_annot_bind_bound(
            k, p->rows_array[i], p->rows_index[i], p->loop_var, &out->rows[i]));
        DL_RETURN_ERROR_ON(out->rows[i].array == out->array ||
                               out->rows[i].array == out->via,
                           DL_INVALID_ARGUMENT,
                           "bounds array '%s' is also the array or the index "
                           "buffer",
                           out->rows[i].name);
    }
    return DL_SUCCESS;
}

/* The loop variable: a new name, used by the index. */
static dl_status check_loop(const dl_annot_pending *p, const dl_annot_kernel *k,
                            unsigned used)
{
    uint32_t i;
    if (!p->loop_var)
        return DL_SUCCESS;
    DL_RETURN_ERROR_ON(
        strcmp(p->loop_var, "gid") == 0 ||
            dl_annot_find_param(k, p->loop_var, &i),
        DL_INVALID_ARGUMENT, "the loop variable '%s' is %s", p->loop_var,
        strcmp(p->loop_var, "gid") == 0 ? "the global id"
                                        : "an argument of the kernel");
    DL_RETURN_ERROR_ON(!(used & 2u), DL_INVALID_ARGUMENT,
                       "the loop variable '%s' does not appear in the index "
                       "'%s'",
                       p->loop_var, p->index->text);
    return DL_SUCCESS;
}

/* The same reference twice is an error, as an argument annotated twice. */
static dl_status check_twice(const dl_annot_kernel *k,
                             const dl_annot_indirect *ref)
{
    char mine[1024], other[1024];
    dl_annot_format_indirect(ref, mine, sizeof mine);
    for (uint32_t i = 0; i < k->nindirect; i++) {
        dl_annot_format_indirect(&k->indirect[i], other, sizeof other);
        DL_RETURN_ERROR_ON(strcmp(mine, other) == 0, DL_INVALID_ARGUMENT,
                           "the reference to '%s' through '%s' is annotated "
                           "twice (first on line %u)",
                           ref->array_name, ref->via_name, k->indirect[i].line);
    }
    return DL_SUCCESS;
}

dl_status dl_annot_resolve_indirect(const dl_annot_pending *p,
                                    const dl_annot_kernel *k,
                                    dl_annot_indirect *out)
{
    DL_RETURN_ERROR_ON(p->error, DL_INVALID_ARGUMENT, "%s", p->error);
    *out = (dl_annot_indirect){.line = p->line, .write = p->write};
    DL_RETURN_IF_FAIL(bind_arrays(p, k, out));
    names n = {k, p->loop_var, 1};
    unsigned used;
    DL_RETURN_IF_FAIL(bind_copy(p->index, &n, "index", &out->index));
    DL_RETURN_IF_FAIL(check_affine(out->index, k->nparams, &used));
    DL_RETURN_IF_FAIL(check_loop(p, k, used));
    n.in_index = 0;
    if (p->offset)
        DL_RETURN_IF_FAIL(bind_copy(p->offset, &n, "offset", &out->offset));
    if (p->rows_array[0])
        DL_RETURN_IF_FAIL(bind_rows(p, k, out));
    else if (p->loop_var)
        DL_RETURN_IF_FAIL(bind_copy(p->trips, &n, "trip count", &out->trips));
    if (p->loop_var) {
        out->loop_var = strdup(p->loop_var);
        DL_RETURN_ERROR_ON(!out->loop_var, DL_OUT_OF_MEMORY,
                           "out of host memory");
    }
    return check_twice(k, out);
}

void dl_annot_indirect_free(dl_annot_indirect *ref)
{
    free(ref->fields);
    dl_dims_free(ref->index);
    dl_dims_free(ref->offset);
    dl_dims_free(ref->trips);
    dl_dims_free(ref->rows[0].index);
    dl_dims_free(ref->rows[1].index);
    free(ref->loop_var);
    memset(ref, 0, sizeof *ref);
}

/* ------------------------------------------------------------ formatting */

int dl_annot_format_indirect(const dl_annot_indirect *ref, char *buf,
                             size_t size)
{
    char index[1024], offset[1024] = "", loop[1200] = "", record[1024] = "";
    if (buf && size)
        buf[0] = '\0';
    if (!ref || !ref->index)
        return 0;
    dl_dims_format(ref->index, index, sizeof index);
    if (ref->offset) {
        char text[1020];
        dl_dims_format(ref->offset, text, sizeof text);
        snprintf(offset, sizeof offset, " %s %s", text[0] == '-' ? "-" : "+",
                 text + (text[0] == '-'));
    }
    if (ref->explicit_record) {
        size_t n = (size_t)snprintf(record, sizeof record, " record(size=%u;",
                                    ref->elem_size);
        for (uint32_t i = 0; i < ref->nfields && n < sizeof record; i++)
            n += (size_t)snprintf(record + n, sizeof record - n, "%s %u:%u",
                                  i ? "," : "", ref->fields[i].offset,
                                  ref->fields[i].size);
        if (n < sizeof record)
            snprintf(record + n, sizeof record - n, ")");
    }
    if (ref->trips) {
        char text[1000];
        dl_dims_format(ref->trips, text, sizeof text);
        snprintf(loop, sizeof loop, " for(%s < %s)", ref->loop_var, text);
    } else if (ref->rows[0].index) {
        char lo[500], hi[500];
        dl_dims_format(ref->rows[0].index, lo, sizeof lo);
        dl_dims_format(ref->rows[1].index, hi, sizeof hi);
        snprintf(loop, sizeof loop, " for(%s in %s[%s] .. %s[%s])",
                 ref->loop_var, ref->rows[0].name, lo, ref->rows[1].name, hi);
    }
    return snprintf(buf, size, "//DL: v1 indirect: %s %s[%s[%s]%s]%s%s",
                    ref->write ? "write" : "read", ref->array_name,
                    ref->via_name, index, offset, record, loop);
}

/* ------------------------------------------------------------ evaluation */

typedef struct eval_ctx {
    const dl_dims_env *launch;
    uint32_t nparams;
    int64_t gid, j;
    dl_annot_macro_fn macro;
    void *user;
} eval_ctx;

/* A kernel argument's value, as the launch's own environment reads it. */
static dl_status launch_arg(const dl_dims_env *env, const dl_dims_node *n,
                            int64_t *value)
{
    if (env->arg_value)
        return env->arg_value(env->user, n, value);
    DL_RETURN_ERROR_ON(
        (cl_uint)n->arg_index >= env->nargs || !env->args[n->arg_index].value,
        DL_INVALID_ARGUMENT, "argument '%s' is not set", n->name);
    const dl_dims_raw_arg *raw = &env->args[n->arg_index];
    return dl_int_decode(raw->value, raw->size, n->arg_type, value);
}

/* dl_dims_env's arg_value: gid, the loop variable, macros, arguments. */
static dl_status name_value(void *user, const dl_dims_node *n, int64_t *value)
{
    const eval_ctx *c = user;
    DL_RETURN_ERROR_ON(n->arg_index < 0, DL_INVALID_ARGUMENT,
                       "'%s' is not bound", n->name);
    if ((uint32_t)n->arg_index < c->nparams)
        return launch_arg(c->launch, n, value);
    switch ((uint32_t)n->arg_index - c->nparams) {
    case DL_ANNOT_NAME_GID:
        *value = c->gid;
        return DL_SUCCESS;
    case DL_ANNOT_NAME_LOOP:
        *value = c->j;
        return DL_SUCCESS;
    default:
        break;
    }
    DL_RETURN_ERROR_ON(!c->macro, DL_INVALID_ARGUMENT,
                       "'%s' is neither an argument nor a known macro",
                       n->name);
    return c->macro(c->user, n->name, value);
}

static dl_status eval_at(const dl_dims_expr *e, eval_ctx *c, int64_t gid,
                         int64_t j, int64_t *value)
{
    dl_dims_env env = *c->launch;
    env.arg_value = name_value;
    env.user = c;
    c->gid = gid;
    c->j = j;
    return dl_dims_eval(e, &env, value);
}

static dl_status difference(int64_t a, int64_t b, int64_t *out)
{
    DL_RETURN_ERROR_ON(__builtin_sub_overflow(a, b, out), DL_SIZE_OVERFLOW,
                       "an index stride overflows");
    return DL_SUCCESS;
}

dl_status dl_annot_indirect_eval(const dl_annot_indirect *ref, uint32_t nparams,
                                 const dl_dims_env *env,
                                 dl_annot_macro_fn macro, void *user,
                                 dl_annot_indirect_range *out)
{
    DL_RETURN_ERROR_ON(!ref || !env || !out, DL_INVALID_ARGUMENT,
                       "nothing to evaluate");
    DL_RETURN_ERROR_ON(ref->rows[0].index, DL_INVALID_ARGUMENT,
                       "the entries of '%s' it reads depend on the contents "
                       "of '%s' (a row-bounded loop)",
                       ref->via_name, ref->rows[0].name);
    eval_ctx c = {env, nparams, 0, 0, macro, user};
    int64_t g0 = env->global_offset ? (int64_t)env->global_offset[0] : 0;
    int64_t at_t, at_j, steps = 1;
    *out = (dl_annot_indirect_range){0};
    DL_RETURN_IF_FAIL(eval_at(ref->index, &c, g0, 0, &out->base));
    DL_RETURN_IF_FAIL(eval_at(ref->index, &c, g0 + 1, 0, &at_t));
    DL_RETURN_IF_FAIL(eval_at(ref->index, &c, g0, 1, &at_j));
    DL_RETURN_IF_FAIL(difference(at_t, out->base, &out->t_stride));
    DL_RETURN_IF_FAIL(difference(at_j, out->base, &out->j_stride));
    if (ref->offset)
        DL_RETURN_IF_FAIL(eval_at(ref->offset, &c, 0, 0, &out->offset));
    if (ref->trips)
        DL_RETURN_IF_FAIL(eval_at(ref->trips, &c, 0, 0, &steps));
    DL_RETURN_ERROR_ON(steps < 0, DL_INVALID_ARGUMENT,
                       "the trip count '%s' is negative (%lld)",
                       ref->trips->text, (long long)steps);
    out->steps = (uint64_t)steps;
    return DL_SUCCESS;
}

dl_status dl_annot_indirect_offset(const dl_annot_indirect *ref,
                                   uint32_t nparams, const dl_dims_env *env,
                                   dl_annot_macro_fn macro, void *user,
                                   int64_t *offset)
{
    DL_RETURN_ERROR_ON(!ref || !env || !offset, DL_INVALID_ARGUMENT,
                       "nothing to evaluate");
    eval_ctx c = {env, nparams, 0, 0, macro, user};
    *offset = 0;
    return ref->offset ? eval_at(ref->offset, &c, 0, 0, offset) : DL_SUCCESS;
}

dl_status dl_annot_bound_eval(const dl_annot_bound *b, uint32_t nparams,
                              const dl_dims_env *env, dl_annot_macro_fn macro,
                              void *user, int64_t *base, int64_t *stride)
{
    eval_ctx c = {env, nparams, 0, 0, macro, user};
    int64_t g0 = env->global_offset ? (int64_t)env->global_offset[0] : 0, next;
    DL_RETURN_IF_FAIL(eval_at(b->index, &c, g0, 0, base));
    DL_RETURN_IF_FAIL(eval_at(b->index, &c, g0 + 1, 0, &next));
    return difference(next, *base, stride);
}

dl_status dl_annot_indirect_rows_eval(const dl_annot_indirect *ref,
                                      uint32_t nparams, const dl_dims_env *env,
                                      dl_annot_macro_fn macro, void *user,
                                      dl_annot_rows_range *out)
{
    DL_RETURN_ERROR_ON(!ref || !ref->rows[0].index || !env || !out,
                       DL_INVALID_ARGUMENT, "no row-bounded loop to evaluate");
    *out = (dl_annot_rows_range){{0, 0}, {0, 0}, 0};
    for (int i = 0; i < 2; i++)
        DL_RETURN_IF_FAIL(dl_annot_bound_eval(&ref->rows[i], nparams, env,
                                              macro, user, &out->base[i],
                                              &out->stride[i]));
    return dl_annot_indirect_offset(ref, nparams, env, macro, user,
                                    &out->offset);
}
