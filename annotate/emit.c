/* emit.c - writes the output: the input text with, for every kernel that
 * has transformed arguments, the canonical annotations before it and its
 * body duplicated under `#ifdef DL_ACTIVE_<kernel>` (rewritten indexing)
 * / `#else` (the original code).  Without dlayout the original branch is
 * compiled, so the program runs exactly as written.
 *
 * preamble.c writes what goes before a kernel, rewrite.c its body (emit.h
 * the text buffer they share); this file puts them, the redirected
 * bodies of indirect reads and the annotation lines in their places. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int transformed_args(const dla_kernel *k)
{
    int n = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        n += k->args[i].transformed;
    return n;
}

/* The span of a user annotation comment on `line` ("//" to the end of
 * the line), or 0. */
static int annotation_span(const dla_source *src, unsigned line, dla_range *r)
{
    size_t at = 0;
    for (unsigned l = 1; l < line && at < src->len; at++)
        if (src->text[at] == '\n')
            l++;
    for (size_t p = at; p + 1 < src->len && src->text[p] != '\n'; p++) {
        if (src->text[p] != '/' || src->text[p + 1] != '/')
            continue;
        size_t q = p + 2;
        while (q < src->len && (src->text[q] == ' ' || src->text[q] == '\t'))
            q++;
        if (q + 3 > src->len || memcmp(src->text + q, "DL:", 3) != 0)
            continue;
        size_t end = q;
        while (end < src->len && src->text[end] != '\n')
            end++;
        r->begin = (unsigned)p;
        r->end = (unsigned)end;
        return 1;
    }
    return 0;
}

/* A top-level change of the input: replace `r` by what `kernel` (body)
 * or nothing (a deleted user annotation) says; an empty range at a
 * kernel's line start is where its annotations go. */
typedef struct change {
    dla_range r;
    const dla_kernel *k;
    int what; /* 0 delete, 1 insert before kernel, 2 body, 3 text,
                 4 indirect annotations (after 1 at the same place),
                 5 gather parameters, 6 the redirected body,
                 7 the job map's macro, 8 the job map parameter,
                 9 the job map macro's end, 10 the shared form's
                 parameters */
    const char *text;
} change;

static int cmp_change(const void *x, const void *y)
{
    const change *a = x, *b = y;
    if (a->r.begin != b->r.begin)
        return a->r.begin < b->r.begin ? -1 : 1;
    return (a->what > b->what) - (a->what < b->what);
}

/* Whether the kernel gets the redirected form of its indirect reads. */
static int redirected(const dla_kernel *k)
{
    return k->nredirects && !k->redirect_reason && !transformed_args(k);
}

static int cmp_redirect(const void *x, const void *y)
{
    const dla_redirect *a = x, *b = y;
    return (a->whole.begin > b->whole.begin) -
           (a->whole.begin < b->whole.begin);
}

/* The gather arrays, after the last parameter, under DL_ACTIVE_<k>. */
static char *gather_params(const dla_kernel *k, int *failed)
{
    buf b = {0};
    putf(&b, "\n#ifdef DL_ACTIVE_%s\n", k->name);
    for (unsigned i = 0; i < k->ngathers; i++)
        putf(&b, "%s, %s", i ? "\n" : "", k->gathers[i].decl);
    puts_(&b, "\n#endif\n");
    *failed |= b.failed;
    return b.text;
}

/* The body between its braces with each annotated read A[P[E] + c]
 * reading G[E] (its gather array), or dl_share[P[E]] where `shared`. */
static void body_redirected(buf *b, const dla_source *src, const dla_kernel *k,
                            const dla_redirect *r, int shared)
{
    dla_range inner = {k->body.begin + 1, k->body.end - 1};
    unsigned at = inner.begin;
    for (unsigned i = 0; i < k->nredirects; i++) {
        put(b, src->text + at, r[i].whole.begin - at);
        if (shared)
            putf(b, "dl_share[%s[", k->share_via);
        else
            putf(b, "%s[", k->gathers[r[i].gather].name);
        put(b, src->text + r[i].index.begin, r[i].index.end - r[i].index.begin);
        puts_(b, shared ? "]]" : "]");
        at = r[i].whole.end;
    }
    put(b, src->text + at, inner.end - at);
}

/* The shared form's prologue (share.c): the group's block of A_s (in A's
 * parameter) copied into dl_share by the whole group, coalesced, before
 * any work-item reads it. */
static void share_prologue(buf *b, const dla_kernel *k)
{
    puts_(b, "\n    for (uint dl_i = get_local_id(0);\n"
             "         dl_i < dl_block_size[get_group_id(0)];\n"
             "         dl_i += get_local_size(0))\n");
    putf(b,
         "        dl_share[dl_i] = %s[dl_block_pos[get_group_id(0)] + "
         "dl_i];\n",
         k->share_array);
    puts_(b, "    barrier(CLK_LOCAL_MEM_FENCE);");
}

/* The body with each annotated read A[P[E] + c] reading its gather
 * array G[E] under DL_ACTIVE_<k>, the shared form under DL_SHARE_<k>
 * where written; the #else branch is the original. */
static int redirected_body(buf *b, const dla_source *src, const dla_kernel *k)
{
    dla_redirect *r = malloc(k->nredirects * sizeof *r);
    if (!r)
        return -1;
    memcpy(r, k->redirects, k->nredirects * sizeof *r);
    qsort(r, k->nredirects, sizeof *r, cmp_redirect);
    dla_range inner = {k->body.begin + 1, k->body.end - 1};
    putf(b, "{\n#ifdef DL_ACTIVE_%s\n", k->name);
    body_redirected(b, src, k, r, 0);
    if (k->share) {
        putf(b, "\n#elif defined(DL_SHARE_%s)", k->name);
        share_prologue(b, k);
        body_redirected(b, src, k, r, 1);
    }
    puts_(b, "\n#else\n");
    put(b, src->text + inner.begin, inner.end - inner.begin);
    puts_(b, "\n#endif\n}");
    free(r);
    return 0;
}

/* The job-swapped form (jobswap.c): before the kernel, get_global_id
 * reads the job map under DL_JOBSWAP_<k> (the name is not expanded again
 * inside its own macro, so the inner call is the built-in); after its
 * body the macro goes; dl_job after the parameters. */
static char *jobswap_text(const dla_kernel *k, int what, int *failed)
{
    buf b = {0};
    /* after the gather parameters' block, which ends its line */
    int own_line = what == 7 || (what == 8 && redirected(k));
    putf(&b, "%s#ifdef DL_JOBSWAP_%s\n", own_line ? "" : "\n", k->name);
    if (what == 7)
        puts_(&b, "#define get_global_id(d) \\\n"
                  "    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] "
                  ": get_global_id(d))\n");
    else if (what == 8)
        puts_(&b, ", __global const uint *dl_job\n");
    else
        puts_(&b, "#undef get_global_id\n");
    puts_(&b, what == 9 ? "#endif" : "#endif\n");
    *failed |= b.failed;
    return b.text;
}

/* The shared form's parameters (share.c), after the job map's. */
static char *share_params(const dla_kernel *k, int *failed)
{
    buf b = {0};
    putf(&b,
         "#ifdef DL_SHARE_%s\n"
         ", __global const uint *dl_block_pos"
         ", __global const uint *dl_block_size\n"
         ", __local %s *dl_share\n"
         "#endif\n",
         k->name, k->share_type);
    *failed |= b.failed;
    return b.text;
}

/* The indirect references' annotations the kernel does not have yet
 * (and its chunks flag and jobs key),
 * one a line (written after its layout annotations), or NULL. */
static char *indirect_lines(const dla_kernel *k, int *failed)
{
    buf b = {0};
    for (unsigned i = 0; i < k->nindirect; i++)
        if (k->indirect[i].annotation && !k->indirect[i].present)
            putf(&b, "%s\n", k->indirect[i].annotation);
    if (redirected(k) && k->chunks && !(k->annot && k->annot->chunks))
        puts_(&b, "//DL: v1 launch: chunks\n");
    if (k->jobs_key)
        putf(&b, "%s\n", k->jobs_key);
    *failed |= b.failed;
    return b.text;
}

char *dla_emit(const dla_program *prog, size_t *len)
{
    size_t cap = 1, n = 0;
    int failed = 0;
    for (unsigned i = 0; i < prog->nkernels; i++)
        cap += 11 + 2 * prog->kernels[i].nargs;
    change *ch = calloc(cap, sizeof *ch);
    char **lines = calloc(6 * prog->nkernels + 1, sizeof *lines);
    if (!ch || !lines) {
        free(ch);
        free(lines);
        return NULL;
    }
    for (unsigned i = 0; i < prog->nkernels; i++) {
        const dla_kernel *k = &prog->kernels[i];
        lines[i] = indirect_lines(k, &failed);
        if (lines[i])
            ch[n++] = (change){{k->line_start, k->line_start}, k, 4, lines[i]};
        if (redirected(k)) {
            char *params = gather_params(k, &failed);
            lines[prog->nkernels + i] = params;
            ch[n++] = (change){{k->params_end, k->params_end}, k, 5, params};
            ch[n++] = (change){k->body, k, 6, NULL};
        }
        for (int w = 7; k->jobswap && w <= 9; w++) {
            char *text = jobswap_text(k, w, &failed);
            unsigned at = w == 7   ? k->line_start
                          : w == 8 ? k->params_end
                                   : k->body.end;
            lines[(w - 5) * prog->nkernels + i] = text;
            ch[n++] = (change){{at, at}, k, w, text};
        }
        if (k->share && redirected(k)) {
            char *text = share_params(k, &failed);
            lines[5 * prog->nkernels + i] = text;
            ch[n++] = (change){{k->params_end, k->params_end}, k, 10, text};
        }
        for (unsigned j = 0; j < k->nargs; j++) {
            dla_range r;
            if (k->args[j].neutral && k->args[j].user &&
                annotation_span(&prog->src, k->args[j].user->line, &r))
                ch[n++] = (change){r, k, 3, k->args[j].neutral};
        }
        /* the chunks flag too: one the analysis does not prove goes (a
         * rewritten kernel keeps the one written with its form) */
        dla_range cr;
        if (!k->already && k->annot && k->annot->chunks &&
            !(redirected(k) && k->chunks) &&
            annotation_span(&prog->src, k->annot->chunks_line, &cr))
            ch[n++] = (change){cr, k, 0, NULL};
        if (!transformed_args(k))
            continue;
        ch[n++] = (change){{k->line_start, k->line_start}, k, 1, NULL};
        ch[n++] = (change){k->body, k, 2, NULL};
        for (unsigned j = 0; j < k->nargs; j++) {
            dla_range r;
            if (k->args[j].transformed && k->args[j].user &&
                annotation_span(&prog->src, k->args[j].user->line, &r))
                ch[n++] = (change){r, k, 0, NULL};
        }
        /* the launch flag is dl-annotate's to write: a user's goes */
        dla_range r;
        if (k->annot && k->annot->tiled &&
            annotation_span(&prog->src, k->annot->tiled_line, &r))
            ch[n++] = (change){r, k, 0, NULL};
    }
    qsort(ch, n, sizeof *ch, cmp_change);
    buf b = {0};
    unsigned at = 0;
    for (size_t i = 0; i < n; i++) {
        if (ch[i].r.begin < at)
            continue; /* cannot happen for well-formed input */
        put(&b, prog->src.text + at, ch[i].r.begin - at);
        if (ch[i].what == 1)
            dla_emit_preamble(&b, &prog->src, ch[i].k);
        else if (ch[i].what == 2 && dla_emit_body(&b, &prog->src, ch[i].k))
            b.failed = 1;
        else if (ch[i].what == 3 || ch[i].what == 4 || ch[i].what == 5 ||
                 ch[i].what >= 7)
            puts_(&b, ch[i].text ? ch[i].text : "");
        else if (ch[i].what == 6 && redirected_body(&b, &prog->src, ch[i].k))
            b.failed = 1;
        at = ch[i].r.end;
    }
    put(&b, prog->src.text + at, prog->src.len - at);
    free(ch);
    for (unsigned i = 0; i < 6 * prog->nkernels; i++)
        free(lines[i]);
    free(lines);
    b.failed |= failed;
    if (b.failed || !b.text) {
        free(b.text);
        if (!b.failed && prog->src.len == 0) {
            *len = 0;
            return calloc(1, 1);
        }
        return NULL;
    }
    *len = b.len;
    return b.text;
}
