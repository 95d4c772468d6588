/* dims_macros.c - the values of the macros a dimension expression names,
 * from the build options and the program's source (see dims.h,
 * dl_dims_define_src). */
#include "dims.h"
#include "dims_internal.h"
#include "buildopts.h"
#include "error.h"
#include "srcmacros.h"

#include <ctype.h>
#include <string.h>

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
                       "program's source (%s:%u includes %.*s, which dlayout "
                       "does not read: it is neither in the current "
                       "directory nor in a -I directory of the build "
                       "options, or differs between them)",
                       name, arg,
                       src->include_file ? src->include_file : src->label,
                       src->include_line, QUOTE, src->include);
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
        dl_options_define(options ? options : "", name, &t->text, &t->len);
    DL_RETURN_ERROR_ON(in_options && def && !def->guarded, DL_INVALID_ARGUMENT,
                       "'%s' is defined both by the build options and at "
                       "%s:%u, whose value the compiler takes",
                       name, def->file ? def->file : src->label, def->line);
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
    dl_status status = dl_dims_parse_text(t->text, t->len, 1, &v);
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
                            t->text, t->def->file ? t->def->file : src->label,
                            t->def->line,
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
