/* annotations.c - finds `// DL:` annotations in an OpenCL C source and
 * binds them to the parameters of the kernel that follows: the driver of
 * the scan, the checks of an annotation against its kernel, and the
 * program's kernel table.
 *
 * The source is read once, by the lexer of clsource.c; the text of each
 * annotation is read by annotation_grammar.c (grammar:
 * docs/annotations.md).  Neither keeps anything per token, so a 10 MB
 * source or binary garbage costs time linear in its size and no more
 * memory than its annotations. */
#define _GNU_SOURCE /* vasprintf, strndup */
#include "annotations.h"
#include "annotation_grammar.h"
#include "clsource.h"
#include "error.h"
#include "indirect.h"
#include "jobs.h"
#include "log.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* State of one dl_annot_parse. */
typedef struct scan {
    dl_annot_program *prog;
    dl_annot_pending *pending;
    uint32_t npending;
    int dropped;    /* pending annotations were dropped: next kernel not ok */
    unsigned depth; /* braces */
    uint32_t kernels_cap;
    /* Kernel names -> index + 1 (0: free), open addressing, so that a
     * source with thousands of kernels stays linear. */
    uint32_t *slots;
    uint32_t nslots; /* a power of two, at least twice nkernels */
} scan;

/* ------------------------------------------------------------ diagnostics */

/* Records and logs one problem.  A diagnostic that cannot be stored for
 * lack of memory is still logged. */
static void diag(scan *sc, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void diag(scan *sc, unsigned line, const char *fmt, ...)
{
    dl_annot_program *prog = sc->prog;
    if (prog->ndiags >= DL_ANNOT_MAX_DIAGS) {
        if (prog->suppressed++ == 0)
            DL_LOG_WARN("%s: further annotation problems are not shown",
                        prog->source_name);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    va_end(ap);
    if (!msg)
        return;
    if (line)
        DL_LOG_WARN_AT(prog->source_name, line, "%s", msg);
    else
        DL_LOG_WARN("%s: %s", prog->source_name, msg);
    if (!prog->diags)
        prog->diags = calloc(DL_ANNOT_MAX_DIAGS, sizeof *prog->diags);
    if (!prog->diags) {
        free(msg);
        return;
    }
    prog->diags[prog->ndiags++] = (dl_annot_diag){line, msg};
}

/* -------------------------------------------------- pending annotations */

/* Reads an annotation comment into a new pending entry.  Only a lack of
 * memory is an error; a syntax error is kept in the entry, to be reported
 * with the name of the kernel it costs. */
static dl_status add_pending(scan *sc, const char *body, size_t len,
                             unsigned line, unsigned col)
{
    if (sc->npending == DL_ANNOT_MAX_PENDING) {
        if (!sc->dropped)
            diag(sc, line,
                 "more than %d annotations before one kernel; "
                 "the rest are ignored and that kernel runs "
                 "untransformed",
                 DL_ANNOT_MAX_PENDING);
        sc->dropped = 1;
        return DL_SUCCESS;
    }
    if (!sc->pending) {
        sc->pending = calloc(DL_ANNOT_MAX_PENDING, sizeof *sc->pending);
        DL_RETURN_ERROR_ON(!sc->pending, DL_OUT_OF_MEMORY,
                           "out of host memory");
    }
    dl_annot_pending *p = &sc->pending[sc->npending++];
    p->line = line;
    dl_status status = dl_annot_read_comment(body, len, col, p);
    if (status == DL_OUT_OF_MEMORY)
        return status;
    if (status != DL_SUCCESS) {
        p->error = strdup(dl_last_error());
        DL_RETURN_ERROR_ON(!p->error, DL_OUT_OF_MEMORY, "out of host memory");
    }
    return DL_SUCCESS;
}

/* dl_clsrc_annot_fn: an annotation waits for the next kernel; inside
 * braces it cannot describe one. */
static dl_status on_annotation(void *user, const dl_clsrc_token *t)
{
    scan *sc = user;
    if (sc->depth > 0) {
        diag(sc, t->line,
             "annotation inside braces (a function or struct "
             "body) is ignored: put it before the kernel it "
             "describes");
        return DL_SUCCESS;
    }
    return add_pending(sc, t->s, t->len, t->line, t->col);
}

/* --------------------------------------------------- binding to a kernel */

/* dl_dims_lookup_fn: names in dimensions are integer arguments, or
 * else build-option macros (index -1). */
static dl_status lookup_scalar(void *user, const char *name, int32_t *index,
                               dl_int_type *type)
{
    const dl_annot_kernel *k = user;
    uint32_t i;
    const dl_kernel_param *p = dl_annot_find_param(k, name, &i);
    if (!p) {
        *index = -1;
        *type = DL_INT_NONE;
        return DL_SUCCESS;
    }
    DL_RETURN_ERROR_ON(p->pointer || p->int_type == DL_INT_NONE,
                       DL_INVALID_ARGUMENT,
                       "'%s' in a dimension is not an integer argument (it "
                       "is %s%s)",
                       name, p->type, p->pointer ? " *" : "");
    *index = (int32_t)i;
    *type = p->int_type;
    return DL_SUCCESS;
}

/* Parses `text` and binds it to the kernel's arguments. */
static dl_status parse_bound(const char *text, const dl_annot_kernel *k,
                             dl_dims_expr **out)
{
    DL_RETURN_IF_FAIL(dl_dims_parse(text, strlen(text), out));
    dl_status status = dl_dims_bind(*out, lookup_scalar, (void *)k);
    if (status != DL_SUCCESS) {
        dl_dims_free(*out);
        *out = NULL;
    }
    return status;
}

/* The record count: the product of the counting dimensions. */
static dl_status build_count(const dl_annot_pending *p, uint32_t ncount,
                             const dl_annot_kernel *k, dl_dims_expr **out)
{
    if (ncount == 1)
        return parse_bound(p->dims[0]->text, k, out);
    size_t len = 1;
    for (uint32_t i = 0; i < ncount; i++)
        len += strlen(p->dims[i]->text) + 5;
    char *text = malloc(len);
    DL_RETURN_ERROR_ON(!text, DL_OUT_OF_MEMORY, "out of host memory");
    size_t used = 0;
    for (uint32_t i = 0; i < ncount; i++)
        used += (size_t)snprintf(text + used, len - used, "%s(%s)",
                                 i ? " * " : "", p->dims[i]->text);
    dl_status status = parse_bound(text, k, out);
    free(text);
    return status;
}

/* Scalar arrays: the last of two or more dimensions is the number of
 * elements of a record; it must be a constant. */
static dl_status scalar_record(const dl_annot_pending *p,
                               const dl_kernel_param *param, dl_annot_arg *arg)
{
    uint32_t e = param->elem_size;
    int64_t k = 1;
    if (p->ndims > 1) {
        const dl_dims_expr *last = p->dims[p->ndims - 1];
        DL_RETURN_ERROR_ON(!dl_dims_is_const(last), DL_INVALID_ARGUMENT,
                           "the last dimension [%s] of the %s array '%s' is "
                           "the number of elements of a record and must be "
                           "a constant",
                           last->text, param->type, p->name);
        DL_RETURN_IF_FAIL(dl_dims_eval(last, NULL, &k));
        DL_RETURN_ERROR_ON(k < 1 || k > DL_MAX_FIELDS, DL_INVALID_ARGUMENT,
                           "a record of '%s' must have 1 to %u elements, "
                           "not %lld",
                           p->name, DL_MAX_FIELDS, (long long)k);
    }
    uint64_t stride = (uint64_t)k * e;
    if (p->has_record) {
        DL_RETURN_ERROR_ON(p->record_size != stride, DL_INVALID_ARGUMENT,
                           "record size %u does not match the %llu bytes of "
                           "%lld %s element(s) of '%s'%s",
                           p->record_size, (unsigned long long)stride,
                           (long long)k, param->type, p->name,
                           p->ndims == 1 ? ": give the elements per record "
                                           "as a last dimension"
                                         : "");
        return DL_SUCCESS;
    }
    DL_RETURN_ERROR_ON(e > DL_MAX_FIELD_SIZE, DL_INVALID_ARGUMENT,
                       "elements of '%s' are too large", p->name);
    arg->fields = malloc((size_t)k * sizeof *arg->fields);
    DL_RETURN_ERROR_ON(!arg->fields, DL_OUT_OF_MEMORY, "out of host memory");
    for (int64_t i = 0; i < k; i++)
        arg->fields[i] = (dl_field){(uint32_t)i * e, e};
    arg->nfields = (uint32_t)k;
    arg->record_size = (uint32_t)stride;
    return DL_SUCCESS;
}

static void arg_free(dl_annot_arg *a)
{
    for (uint32_t i = 0; i < a->ndims; i++)
        dl_dims_free(a->dims[i]);
    free(a->dims);
    dl_dims_free(a->count);
    free(a->fields);
    dl_record_release(a->record);
    memset(a, 0, sizeof *a);
}

/* Checks a pending annotation against kernel k and fills *arg.  The
 * pending entry keeps what it owned; arg gets copies. */
static dl_status resolve(const dl_annot_pending *p, const dl_annot_kernel *k,
                         dl_annot_arg *arg)
{
    DL_RETURN_ERROR_ON(p->error, DL_INVALID_ARGUMENT, "%s", p->error);
    uint32_t index;
    const dl_kernel_param *param = dl_annot_find_param(k, p->name, &index);
    DL_RETURN_ERROR_ON(!param, DL_INVALID_ARGUMENT,
                       "kernel '%s' has no argument '%s'", k->name, p->name);
    DL_RETURN_ERROR_ON(param->pointer != 1 ||
                           (param->space != DL_SPACE_GLOBAL &&
                            param->space != DL_SPACE_CONSTANT),
                       DL_INVALID_ARGUMENT,
                       "argument '%s' of kernel '%s' is not a __global or "
                       "__constant pointer",
                       p->name, k->name);
    const dl_annot_arg *twice = dl_annot_find_arg(k, index);
    DL_RETURN_ERROR_ON(twice, DL_INVALID_ARGUMENT,
                       "argument '%s' of kernel '%s' is annotated twice "
                       "(first on line %u)",
                       p->name, k->name, twice ? twice->line : 0);

    *arg = (dl_annot_arg){.line = p->line,
                          .index = index,
                          .name = param->name,
                          .from = p->from,
                          .to = p->to,
                          .explicit_record = p->has_record};
    arg->dims = calloc(p->ndims, sizeof *arg->dims);
    DL_RETURN_ERROR_ON(!arg->dims, DL_OUT_OF_MEMORY, "out of host memory");
    for (; arg->ndims < p->ndims; arg->ndims++)
        DL_RETURN_IF_FAIL(
            parse_bound(p->dims[arg->ndims]->text, k, &arg->dims[arg->ndims]));

    int scalar = param->elem_size > 0;
    uint32_t ncount = scalar && p->ndims > 1 ? p->ndims - 1 : p->ndims;
    if (scalar)
        DL_RETURN_IF_FAIL(scalar_record(p, param, arg));
    if (p->has_record) {
        arg->fields = malloc(p->nfields * sizeof *arg->fields);
        DL_RETURN_ERROR_ON(!arg->fields, DL_OUT_OF_MEMORY,
                           "out of host memory");
        memcpy(arg->fields, p->fields, p->nfields * sizeof *arg->fields);
        arg->nfields = p->nfields;
        arg->record_size = p->record_size;
    }
    DL_RETURN_ERROR_ON(!arg->nfields && !dl_annot_same_layout(p->from, p->to),
                       DL_INVALID_ARGUMENT,
                       "'%s' points to %s, whose layout the runtime does not "
                       "know: a conversion needs record(...)",
                       p->name, param->type);
    DL_RETURN_IF_FAIL(build_count(p, ncount, k, &arg->count));
    if (arg->nfields) {
        dl_status status = dl_record_create(arg->fields, arg->nfields,
                                            arg->record_size, &arg->record);
        if (status != DL_SUCCESS)
            return dl_fail_wrap(status, "record of '%s'", p->name);
    }
    return DL_SUCCESS;
}

/* A "launch: tiled" flag: once per kernel; its bound, if any, is bound to
 * the kernel's integer arguments like a dimension. */
static dl_status resolve_launch(const dl_annot_pending *p, dl_annot_kernel *k)
{
    DL_RETURN_ERROR_ON(p->error, DL_INVALID_ARGUMENT, "%s", p->error);
    DL_RETURN_ERROR_ON(k->tiled, DL_INVALID_ARGUMENT,
                       "kernel '%s' has a second launch flag (first on line "
                       "%u)",
                       k->name, k->tiled_line);
    if (p->ndims)
        DL_RETURN_IF_FAIL(parse_bound(p->dims[0]->text, k, &k->tiled_bound));
    k->tiled = 1;
    k->tiled_line = p->line;
    return DL_SUCCESS;
}

/* A "launch: chunks" flag: once per kernel, beside a tiled flag or not. */
static dl_status resolve_chunks(const dl_annot_pending *p, dl_annot_kernel *k)
{
    DL_RETURN_ERROR_ON(p->error, DL_INVALID_ARGUMENT, "%s", p->error);
    DL_RETURN_ERROR_ON(k->chunks, DL_INVALID_ARGUMENT,
                       "kernel '%s' has a second chunks flag (first on line "
                       "%u)",
                       k->name, k->chunks_line);
    k->chunks = 1;
    k->chunks_line = p->line;
    return DL_SUCCESS;
}

static void kernel_free(dl_annot_kernel *k)
{
    dl_dims_free(k->tiled_bound);
    dl_annot_jobs_free(k);
    for (uint32_t i = 0; i < k->nindirect; i++)
        dl_annot_indirect_free(&k->indirect[i]);
    free(k->indirect);
    for (uint32_t i = 0; i < k->nargs; i++)
        arg_free(&k->args[i]);
    free(k->args);
    dl_clsrc_free_params(k->params, k->nparams);
    free(k->name);
    memset(k, 0, sizeof *k);
}

/* An indirect reference goes to k's list. */
static dl_status bind_indirect(const dl_annot_pending *p, dl_annot_kernel *k)
{
    dl_annot_indirect *ref = &k->indirect[k->nindirect];
    dl_status status = dl_annot_resolve_indirect(p, k, ref);
    if (status == DL_SUCCESS)
        k->nindirect++;
    else
        dl_annot_indirect_free(ref);
    return status;
}

/* One pending annotation bound to k: an argument's layout, the launch
 * flag or an indirect reference. */
static dl_status bind_one(const dl_annot_pending *p, dl_annot_kernel *k)
{
    if (p->tiled_launch)
        return resolve_launch(p, k);
    if (p->chunks_launch)
        return resolve_chunks(p, k);
    if (p->indirect)
        return bind_indirect(p, k);
    if (p->jobs)
        return dl_annot_resolve_jobs(p, k);
    dl_annot_arg *arg = &k->args[k->nargs];
    dl_status status = resolve(p, k, arg);
    if (status == DL_SUCCESS)
        k->nargs++;
    else
        arg_free(arg);
    return status;
}

/* Binds every pending annotation to k; a rejected one marks k. */
static dl_status bind_pending(scan *sc, dl_annot_kernel *k)
{
    k->ok = !sc->dropped;
    k->args = calloc(sc->npending, sizeof *k->args);
    k->indirect = calloc(sc->npending, sizeof *k->indirect);
    DL_RETURN_ERROR_ON(!k->args || !k->indirect, DL_OUT_OF_MEMORY,
                       "out of host memory");
    for (uint32_t i = 0; i < sc->npending; i++) {
        dl_status status = bind_one(&sc->pending[i], k);
        if (status == DL_OUT_OF_MEMORY)
            return status;
        if (status == DL_SUCCESS)
            continue;
        diag(sc, sc->pending[i].line,
             "annotation rejected, kernel '%s' "
             "will run untransformed: %s",
             k->name, dl_last_error());
        k->ok = 0;
    }
    return DL_SUCCESS;
}

static void clear_pending(scan *sc)
{
    for (uint32_t i = 0; i < sc->npending; i++)
        dl_annot_pending_free(&sc->pending[i]);
    sc->npending = 0;
    sc->dropped = 0;
}

/* ----------------------------------------------------------- kernel table */

static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

static dl_annot_kernel *find_kernel(const scan *sc, const char *name)
{
    if (!sc->nslots)
        return NULL;
    for (uint32_t i = name_hash(name);; i++) {
        uint32_t slot = sc->slots[i & (sc->nslots - 1)];
        if (!slot)
            return NULL;
        if (strcmp(sc->prog->kernels[slot - 1].name, name) == 0)
            return &sc->prog->kernels[slot - 1];
    }
}

/* Makes room for one more kernel in the program and in the name table. */
static dl_status reserve_kernel(scan *sc)
{
    dl_annot_program *prog = sc->prog;
    if (prog->nkernels == sc->kernels_cap) {
        uint32_t cap = sc->kernels_cap ? 2 * sc->kernels_cap : 8;
        dl_annot_kernel *grown = realloc(prog->kernels, cap * sizeof *grown);
        DL_RETURN_ERROR_ON(!grown, DL_OUT_OF_MEMORY, "out of host memory");
        prog->kernels = grown;
        sc->kernels_cap = cap;
    }
    if (2 * (prog->nkernels + 1) <= sc->nslots)
        return DL_SUCCESS;
    uint32_t nslots = sc->nslots ? 2 * sc->nslots : 16;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    DL_RETURN_ERROR_ON(!slots, DL_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t k = 0; k < prog->nkernels; k++) {
        uint32_t i = name_hash(prog->kernels[k].name);
        while (slots[i & (nslots - 1)])
            i++;
        slots[i & (nslots - 1)] = k + 1;
    }
    free(sc->slots);
    sc->slots = slots;
    sc->nslots = nslots;
    return DL_SUCCESS;
}

/* Appends k (reserve_kernel made room) and indexes its name. */
static void push_kernel(scan *sc, const dl_annot_kernel *k)
{
    dl_annot_program *prog = sc->prog;
    uint32_t i = name_hash(k->name);
    while (sc->slots[i & (sc->nslots - 1)])
        i++;
    prog->kernels[prog->nkernels++] = *k;
    sc->slots[i & (sc->nslots - 1)] = prog->nkernels;
}

/* A kernel signature was read: attach what waits for it.  A kernel
 * defined twice (under #if branches, say) cannot be trusted: the runtime
 * does not know which definition was compiled. */
static dl_status add_kernel(scan *sc, dl_annot_kernel *k, int defined)
{
    dl_annot_kernel *old = find_kernel(sc, k->name);
    int annotated = sc->npending > 0 || sc->dropped;
    if (old && (annotated || (defined && old->defined))) {
        diag(sc, k->line,
             "kernel '%s' is %s again (first on line %u); "
             "it will run untransformed",
             k->name, annotated ? "annotated" : "defined", old->line);
        old->ok = 0;
        old->defined |= defined;
        kernel_free(k);
        clear_pending(sc);
        return DL_SUCCESS;
    }
    if (old || !annotated) {
        if (old)
            old->defined |= defined;
        kernel_free(k);
        return DL_SUCCESS;
    }
    k->defined = defined;
    dl_status status = reserve_kernel(sc);
    if (status == DL_SUCCESS)
        status = bind_pending(sc, k);
    clear_pending(sc);
    if (status != DL_SUCCESS) {
        kernel_free(k);
        return status;
    }
    push_kernel(sc, k);
    dl_annot_program *prog = sc->prog;
    DL_LOG_DEBUG("%s:%u: kernel '%s': %u annotated argument(s)%s",
                 prog->source_name, k->line, k->name, k->nargs,
                 k->ok ? "" : ", untransformed");
    return DL_SUCCESS;
}

/* After `kernel`: reads the signature, then attaches what waits for it. */
static dl_status parse_kernel(scan *sc, dl_clsrc_lexer *lx)
{
    dl_clsrc_signature sig;
    int found;
    DL_RETURN_IF_FAIL(dl_clsrc_read_kernel(lx, &sig, &found));
    if (!found)
        return DL_SUCCESS;
    dl_annot_kernel k = {.name = sig.name,
                         .line = sig.line,
                         .nparams = sig.nparams,
                         .params = sig.params};
    return add_kernel(sc, &k, sig.defined);
}

/* -------------------------------------------------------------- the driver */

/* `extern "C" {` at the top level: a C++ linkage block (lavaMD wraps its
 * kernels in one under #ifdef __cplusplus), which holds top-level code. */
static int opens_linkage(dl_clsrc_token before2, dl_clsrc_token before,
                         dl_clsrc_token t)
{
    return dl_clsrc_is_punct(t, '{') && before.kind == DL_CLSRC_STRING &&
           before.len == 3 && memcmp(before.s, "\"C\"", 3) == 0 &&
           dl_clsrc_is_ident(before2, "extern");
}

static dl_status scan_source(scan *sc, const char *src, size_t len)
{
    dl_clsrc_lexer lx;
    dl_clsrc_init(&lx, src, len, on_annotation, sc);
    dl_clsrc_token before2 = {0}, before = {0};
    unsigned linkage = 0; /* open linkage blocks, not counted in depth */
    for (;;) {
        dl_clsrc_token t;
        DL_RETURN_IF_FAIL(dl_clsrc_next(&lx, &t));
        if (t.kind == DL_CLSRC_EOF)
            break;
        if (sc->depth == 0 && opens_linkage(before2, before, t))
            linkage++;
        else if (dl_clsrc_is_punct(t, '{'))
            sc->depth++;
        else if (dl_clsrc_is_punct(t, '}') && sc->depth > 0)
            sc->depth--;
        else if (dl_clsrc_is_punct(t, '}') && linkage > 0)
            linkage--;
        else if (sc->depth == 0 && (dl_clsrc_is_ident(t, "__kernel") ||
                                    dl_clsrc_is_ident(t, "kernel")))
            DL_RETURN_IF_FAIL(parse_kernel(sc, &lx));
        before2 = before;
        before = t;
    }
    for (uint32_t i = 0; i < sc->npending; i++) {
        dl_annot_pending *p = &sc->pending[i];
        if (p->error)
            diag(sc, p->line,
                 "annotation rejected: %s (and no kernel "
                 "function follows it)",
                 p->error);
        else
            diag(sc, p->line,
                 "annotation of '%s' is not followed by a "
                 "kernel function; ignored",
                 p->tiled_launch || p->chunks_launch ? "launch"
                 : p->jobs                           ? "jobs"
                 : p->name                           ? p->name
                                                     : "?");
    }
    return DL_SUCCESS;
}

/* Whether source[0..len) names `macro` as a whole identifier. */
static int names_identifier(const char *source, size_t len, const char *macro)
{
    size_t n = strlen(macro);
    const char *end = source + len;
    for (const char *at = source;
         (at = memmem(at, (size_t)(end - at), macro, n)) != NULL; at++) {
        int joined_before =
            at > source && (at[-1] == '_' || isalnum((unsigned char)at[-1]));
        int joined_after =
            at + n < end && (at[n] == '_' || isalnum((unsigned char)at[n]));
        if (!joined_before && !joined_after)
            return 1;
    }
    return 0;
}

/* The first annotation of k that asks for a conversion, or NULL. */
static const dl_annot_arg *first_conversion(const dl_annot_kernel *k)
{
    for (uint32_t a = 0; a < k->nargs; a++)
        if (!dl_annot_same_layout(k->args[a].from, k->args[a].to))
            return &k->args[a];
    return NULL;
}

dl_status dl_annot_refuse_unselected(dl_annot_program *prog, const char *source,
                                     size_t len)
{
    DL_RETURN_ERROR_ON(!prog || (!source && len), DL_INVALID_ARGUMENT,
                       "program or source is NULL");
    scan sc = {.prog = prog};
    for (uint32_t i = 0; i < prog->nkernels; i++) {
        dl_annot_kernel *k = &prog->kernels[i];
        const dl_annot_arg *arg = first_conversion(k);
        if (!k->ok || !arg)
            continue;
        char *macro = NULL;
        DL_RETURN_ERROR_ON(asprintf(&macro, "DL_ACTIVE_%s", k->name) < 0,
                           DL_OUT_OF_MEMORY, "out of host memory");
        if (!names_identifier(source ? source : "", len, macro)) {
            diag(&sc, arg->line,
                 "annotation refused, kernel '%s' will run "
                 "untransformed: it asks for a conversion of '%s', but the "
                 "source has no transformed indexing under #ifdef %s "
                 "(dl-annotate writes it)",
                 k->name, arg->name, macro);
            k->ok = 0;
        }
        free(macro);
    }
    return DL_SUCCESS;
}

void dl_annot_free(dl_annot_program *prog)
{
    if (!prog)
        return;
    for (uint32_t i = 0; i < prog->nkernels; i++)
        kernel_free(&prog->kernels[i]);
    free(prog->kernels);
    for (uint32_t i = 0; i < prog->ndiags; i++)
        free(prog->diags[i].message);
    free(prog->diags);
    free(prog->source_name);
    free(prog);
}

dl_status dl_annot_parse(const char *source, size_t len,
                         const char *source_name, dl_annot_program **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "program output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!source && len, DL_INVALID_ARGUMENT, "source is NULL");
    dl_annot_program *prog = calloc(1, sizeof *prog);
    DL_RETURN_ERROR_ON(!prog, DL_OUT_OF_MEMORY, "out of host memory");
    prog->source_name = strdup(source_name ? source_name : "<source>");
    scan sc = {.prog = prog};
    dl_status status = prog->source_name
                           ? scan_source(&sc, source ? source : "", len)
                           : dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    clear_pending(&sc);
    free(sc.pending);
    free(sc.slots);
    if (status != DL_SUCCESS) {
        dl_annot_free(prog);
        return status;
    }
    *out = prog;
    return DL_SUCCESS;
}

dl_status dl_annot_parse_strings(cl_uint count, const char **strings,
                                 const size_t *lengths, const char *source_name,
                                 dl_annot_program **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "program output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(count && !strings, DL_INVALID_ARGUMENT,
                       "source strings are NULL");
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        DL_RETURN_ERROR_ON(!strings[i], DL_INVALID_ARGUMENT,
                           "source string %u is NULL", i);
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        DL_RETURN_ERROR_ON(total + n < total, DL_SIZE_OVERFLOW,
                           "source too large");
        total += n;
    }
    char *joined = malloc(total + 1);
    DL_RETURN_ERROR_ON(!joined, DL_OUT_OF_MEMORY, "out of host memory");
    size_t used = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(joined + used, strings[i], n);
        used += n;
    }
    dl_status status = dl_annot_parse(joined, total, source_name, out);
    free(joined);
    return status;
}

const dl_annot_kernel *dl_annot_find(const dl_annot_program *prog,
                                     const char *kernel)
{
    for (uint32_t i = 0; prog && kernel && i < prog->nkernels; i++)
        if (strcmp(prog->kernels[i].name, kernel) == 0)
            return &prog->kernels[i];
    return NULL;
}

const dl_kernel_param *dl_annot_find_param(const dl_annot_kernel *k,
                                           const char *name, uint32_t *index)
{
    for (uint32_t i = 0; i < k->nparams; i++)
        if (*k->params[i].name && strcmp(k->params[i].name, name) == 0) {
            *index = i;
            return &k->params[i];
        }
    return NULL;
}

const dl_annot_arg *dl_annot_find_arg(const dl_annot_kernel *k, uint32_t index)
{
    for (uint32_t i = 0; k && i < k->nargs; i++)
        if (k->args[i].index == index)
            return &k->args[i];
    return NULL;
}
