/* annot.c - annotations through the runtime's own parser
 * (runtime/annot/annotations.c), so that dl-annotate never writes an
 * annotation the runtime reads differently: the short form is parsed
 * against the kernel's signature and printed back in the canonical form
 * by dl_annot_format. */
#define _GNU_SOURCE /* vasprintf */
#include "dla.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

char *dla_strdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

int dla_annot_elementwise(const dl_annot_arg *user, uint32_t elem_size)
{
    if (!elem_size || (uint64_t)user->nfields * elem_size != user->record_size)
        return 0;
    for (uint32_t f = 0; f < user->nfields; f++)
        if (user->fields[f].offset != f * elem_size ||
            user->fields[f].size != elem_size)
            return 0;
    return 1;
}

/* A new string, or NULL when out of memory. */
char *dla_vprintf(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    return s;
}

char *dla_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = dla_vprintf(fmt, ap);
    va_end(ap);
    return s;
}

char *dla_substr(const dla_source *src, dla_range r)
{
    if (r.end > src->len || r.begin > r.end)
        return NULL;
    return strndup(src->text + r.begin, r.end - r.begin);
}

static const char *target_text(const dla_arg *a, char *buf, size_t size)
{
    if (a->target == DLA_TARGET_DA)
        return "da";
    if (a->tile == 0)
        return "asta(auto)";
    snprintf(buf, size, "asta(%zu)", a->tile);
    return buf;
}

int dla_annot_canonical(const dla_kernel *k, dla_arg *a)
{
    char tbuf[32];
    char *record = NULL;
    if (!a->scalar) {
        size_t cap = 32 + 24 * (size_t)a->nparts, at = 0;
        record = malloc(cap);
        if (!record)
            return -1;
        at += (size_t)snprintf(record, cap, " record(size=%u;", a->record_size);
        const char *sep = " ";
        for (unsigned i = 0; i < a->nparts; i++)
            if (!a->parts[i].gap) {
                at += (size_t)snprintf(record + at, cap - at, "%s%u:%u", sep,
                                       a->parts[i].off, a->parts[i].size);
                sep = ", ";
            }
        snprintf(record + at, cap - at, ")");
    }
    char *src = dla_printf("//DL: aos: %s%s%s -> %s\n%s{}\n", a->name, a->count,
                           record ? record : "",
                           target_text(a, tbuf, sizeof tbuf), k->signature);
    free(record);
    if (!src)
        return -1;
    dl_annot_program *p = NULL;
    dl_status st = dl_annot_parse(src, strlen(src), "<annotation>", &p);
    free(src);
    if (st != DL_SUCCESS) {
        a->reason = dla_printf("the runtime cannot read the annotation: %s",
                               dl_last_error());
        return -1;
    }
    const dl_annot_kernel *pk = p->nkernels == 1 ? &p->kernels[0] : NULL;
    if (!pk || !pk->ok || pk->nargs != 1 || p->ndiags) {
        a->reason =
            dla_printf("the runtime rejects the annotation: %s",
                       p->ndiags ? p->diags[0].message : "kernel not found");
        dl_annot_free(p);
        return -1;
    }
    char buf[4096];
    int n = dl_annot_format(&pk->args[0], buf, sizeof buf);
    if (n < 0 || (size_t)n >= sizeof buf) {
        dl_annot_free(p);
        a->reason = dla_strdup("the annotation is too long");
        return -1;
    }
    a->annotation = dla_strdup(buf);
    const dl_dims_expr *count = pk->args[0].count;
    a->m_code = dla_count_code(count, NULL);
    /* in the tiled range T is get_global_size(0), for a DA argument too */
    a->m_code_tiled = dla_count_code(count, "get_global_size(0)");
    for (uint32_t i = 0; i < count->nnodes; i++)
        a->count_uses_size |= count->nodes[i].op == DL_DIMS_GLOBAL_SIZE;
    dl_annot_free(p);
    if (!a->m_code)
        a->reason = dla_strdup("the record count cannot be written as code");
    return a->annotation && a->m_code ? 0 : -1;
}

int dla_annot_launch(dla_kernel *k)
{
    char *src = dla_printf("//DL: launch: tiled%s%s%s\n%s{}\n",
                           k->tiled_bound ? "(" : "",
                           k->tiled_bound ? k->tiled_bound : "",
                           k->tiled_bound ? ")" : "", k->signature);
    if (!src)
        return -1;
    dl_annot_program *p = NULL;
    dl_status st = dl_annot_parse(src, strlen(src), "<annotation>", &p);
    free(src);
    const dl_annot_kernel *pk =
        st == DL_SUCCESS && p->nkernels == 1 ? &p->kernels[0] : NULL;
    char buf[1024];
    int n = pk && pk->ok && !p->ndiags
                ? dl_annot_format_launch(pk, buf, sizeof buf)
                : -1;
    dl_annot_free(p);
    if (n <= 0 || (size_t)n >= sizeof buf)
        return -1;
    k->tiled_annotation = dla_strdup(buf);
    return k->tiled_annotation ? 0 : -1;
}

/* The count expression as OpenCL C, in `long` arithmetic like the
 * runtime's evaluator (64-bit signed, truncating division).  In the tiled
 * range (global (T, G/T), offset (0, O/T)), G is global_size(0) *
 * global_size(1) and O is global_offset(1) * T. */
char *dla_count_code(const dl_dims_expr *e, const char *tile)
{
    char **stack = calloc(e->nnodes + 1, sizeof *stack);
    if (!stack)
        return NULL;
    uint32_t sp = 0;
    static const char *ops[] = {[DL_DIMS_ADD] = "+",
                                [DL_DIMS_SUB] = "-",
                                [DL_DIMS_MUL] = "*",
                                [DL_DIMS_DIV] = "/",
                                [DL_DIMS_MOD] = "%"};
    for (uint32_t i = 0; i < e->nnodes; i++) {
        const dl_dims_node *n = &e->nodes[i];
        char *s = NULL;
        switch (n->op) {
        case DL_DIMS_CONST:
            s = dla_printf("%lldL", (long long)n->value);
            break;
        case DL_DIMS_GLOBAL_SIZE:
            if (!tile)
                s = dla_printf("(long)get_global_size(%d)", (int)n->value);
            else if (n->value == 0)
                s = dla_printf("((long)get_global_size(0) * "
                               "(long)get_global_size(1))");
            break;
        case DL_DIMS_LOCAL_SIZE:
            if (!tile)
                s = dla_printf("(long)get_local_size(%d)", (int)n->value);
            break;
        case DL_DIMS_NUM_GROUPS:
            if (!tile)
                s = dla_printf("(long)get_num_groups(%d)", (int)n->value);
            break;
        case DL_DIMS_GLOBAL_OFFSET:
            if (!tile)
                s = dla_printf("(long)get_global_offset(%d)", (int)n->value);
            else if (n->value == 0)
                s = dla_printf("((long)get_global_offset(1) * (long)(%s))",
                               tile);
            break;
        case DL_DIMS_ARG:
        case DL_DIMS_MACRO: /* the build defines it in the kernel too */
            s = dla_printf("(long)(%s)", n->name);
            break;
        case DL_DIMS_NEG:
            s = sp >= 1 ? dla_printf("(-%s)", stack[sp - 1]) : NULL;
            if (sp >= 1)
                free(stack[--sp]);
            break;
        default:
            if (sp < 2)
                break;
            s = dla_printf("(%s %s %s)", stack[sp - 2], ops[n->op],
                           stack[sp - 1]);
            free(stack[--sp]);
            free(stack[--sp]);
            break;
        }
        if (!s)
            break;
        stack[sp++] = s;
    }
    char *r = sp == 1 ? stack[0] : NULL;
    if (sp != 1)
        for (uint32_t i = 0; i < sp; i++)
            free(stack[i]);
    free(stack);
    return r;
}
