/* main.c - dl-annotate: reading the input, parsing it with libclang
 * (args.c reads the command line), reporting input errors as
 * file:line:col, and writing the output (stdout, -o FILE, or -i in place
 * keeping INPUT.orig). */
#include "dla.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static int read_file(const char *path, dla_source *src)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    for (size_t n; text && (n = fread(text + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) {
            char *t = realloc(text, 2 * cap + 1);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (!text || err) {
        free(text);
        return -1;
    }
    text[len] = 0;
    src->name = path;
    src->text = text;
    src->len = len;
    return 0;
}

static int write_file(const char *path, const char *s, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(s, 1, len, f);
    int bad = fclose(f) != 0 || n != len;
    return bad ? -1 : 0;
}

/* Clang's errors as file:line:col: error: message (fatal ones too), at
 * most 20 of them.  Returns how many there were. */
static int report_clang_errors(CXTranslationUnit tu, const char *input)
{
    int errors = 0;
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu); i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
            ++errors <= 20) {
            CXFile file = NULL;
            unsigned line = 0, col = 0;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file,
                                       &line, &col, NULL);
            CXString name = clang_getFileName(file);
            CXString msg = clang_getDiagnosticSpelling(d);
            const char *fname = clang_getCString(name);
            fprintf(stderr, "%s:%u:%u: error: %s\n",
                    fname && *fname ? fname : input, line ? line : 1,
                    col ? col : 1, clang_getCString(msg));
            clang_disposeString(name);
            clang_disposeString(msg);
        }
        clang_disposeDiagnostic(d);
    }
    if (errors > 20)
        fprintf(stderr, "%s:1:1: error: %d more errors not shown\n", input,
                errors - 20);
    return errors;
}

/* Clang's parser recurses on nesting, so garbage such as a million '{'
 * would exhaust any stack: refuse sources nested deeper than any real
 * program.  Comments, strings and character literals are skipped. */
static int too_deep(const dla_source *src, unsigned *line, unsigned *col)
{
    const char *s = src->text;
    size_t n = src->len;
    long depth = 0;
    unsigned ln = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\n') {
            ln++;
            line_start = i + 1;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i + 1 < n && s[i + 1] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
                if (s[i] == '\n') {
                    ln++;
                    line_start = i + 1;
                }
            i++;
        } else if (c == '"' || c == '\'') {
            while (i + 1 < n && s[i + 1] != c && s[i + 1] != '\n')
                i += s[i + 1] == '\\' ? 2 : 1;
            i++;
        } else if (c == '(' || c == '[' || c == '{') {
            if (++depth > 1000) {
                *line = ln;
                *col = (unsigned)(i - line_start + 1);
                return 1;
            }
        } else if (c == ')' || c == ']' || c == '}') {
            depth -= depth > 0;
        }
    }
    return 0;
}

static void explain(const dla_program *p)
{
    for (unsigned i = 0; i < p->nkernels; i++) {
        const dla_kernel *k = &p->kernels[i];
        for (unsigned j = 0; j < k->nargs; j++) {
            const dla_arg *a = &k->args[j];
            if (a->transformed && a->nhelpers) {
                fprintf(stderr,
                        "%s:%u: kernel '%s' argument '%s': "
                        "transformed (%u accesses; helper copies",
                        p->src.name, k->line, k->name, a->name, a->naccesses);
                for (unsigned h = 0; h < a->nhelpers; h++)
                    fprintf(stderr, "%s %s", h ? "," : "", a->helpers[h].copy);
                fprintf(stderr, "): %s\n", a->annotation);
            } else if (a->transformed)
                fprintf(stderr,
                        "%s:%u: kernel '%s' argument '%s': "
                        "transformed (%u accesses): %s\n",
                        p->src.name, k->line, k->name, a->name, a->naccesses,
                        a->annotation);
            else if (a->reason)
                fprintf(stderr,
                        "%s:%u: kernel '%s' argument '%s': not "
                        "transformed: %s\n",
                        p->src.name, k->line, k->name, a->name, a->reason);
        }
        for (unsigned j = 0; j < k->nindirect; j++) {
            const dla_indirect *d = &k->indirect[j];
            if (d->annotation)
                fprintf(stderr,
                        "%s:%u: kernel '%s' argument '%s' via '%s': "
                        "indirect reference%s: %s\n",
                        p->src.name, k->line, k->name, d->array, d->via,
                        d->present ? " (annotated already)" : "",
                        d->annotation);
            else
                fprintf(stderr,
                        "%s:%u: kernel '%s' argument '%s' via '%s': "
                        "indirect reference not annotated: %s\n",
                        p->src.name, k->line, k->name, d->array, d->via,
                        d->reason);
        }
        if (k->nredirects && k->redirect_reason)
            fprintf(stderr, "%s:%u: kernel '%s': no redirected form: %s\n",
                    p->src.name, k->line, k->name, k->redirect_reason);
        else if (k->nredirects) {
            fprintf(stderr,
                    "%s:%u: kernel '%s': redirected form under "
                    "DL_ACTIVE_%s, reading",
                    p->src.name, k->line, k->name, k->name);
            for (unsigned j = 0; j < k->ngathers; j++)
                fprintf(stderr, "%s %s", j ? "," : "", k->gathers[j].name);
            fputc('\n', stderr);
        }
        if (k->nredirects && !k->redirect_reason)
            fprintf(stderr, "%s:%u: kernel '%s': %s%s\n", p->src.name, k->line,
                    k->name,
                    k->chunks ? "may run in chunks (launch: chunks)"
                              : "runs whole, not in chunks: ",
                    k->chunks ? "" : k->chunks_reason);
        if (k->jobswap)
            fprintf(stderr,
                    "%s:%u: kernel '%s': job-swapped form under "
                    "DL_JOBSWAP_%s, reading dl_job\n",
                    p->src.name, k->line, k->name, k->name);
        else if (k->jobswap_reason)
            fprintf(stderr, "%s:%u: kernel '%s': no job-swapped form: %s\n",
                    p->src.name, k->line, k->name, k->jobswap_reason);
        if (k->jobs_key)
            fprintf(stderr,
                    "%s:%u: kernel '%s': jobs sorted by trip count: %s\n",
                    p->src.name, k->line, k->name, k->jobs_key);
        if (k->share)
            fprintf(stderr,
                    "%s:%u: kernel '%s': shared form under DL_SHARE_%s, "
                    "reading dl_share\n",
                    p->src.name, k->line, k->name, k->name);
        else if (k->share_reason)
            fprintf(stderr, "%s:%u: kernel '%s': no shared form: %s\n",
                    p->src.name, k->line, k->name, k->share_reason);
        if (k->tiled)
            fprintf(stderr, "%s:%u: kernel '%s': takes the tiled launch: %s\n",
                    p->src.name, k->line, k->name, k->tiled_annotation);
        else if (k->tiled_reason)
            fprintf(stderr,
                    "%s:%u: kernel '%s': ASTA keeps the flat index "
                    "(no tiled launch): %s\n",
                    p->src.name, k->line, k->name, k->tiled_reason);
    }
}

/* --check: the runtime accepts every annotation, a conversion is asked
 * only of rewritten kernels, and a record(...) matches the struct, or is
 * one field per element of a scalar or vector array to be converted. */
static int check(const dla_program *p)
{
    int errors = 0;
    for (unsigned i = 0; p->annots && i < p->annots->nkernels; i++) {
        const dl_annot_kernel *ak = &p->annots->kernels[i];
        const dla_kernel *k = NULL;
        for (unsigned j = 0; j < p->nkernels; j++)
            if (strcmp(p->kernels[j].name, ak->name) == 0)
                k = &p->kernels[j];
        if (ak->tiled && (!k || !k->already_tiled)) {
            fprintf(stderr,
                    "%s:%u:1: error: the launch flag of kernel '%s' "
                    "needs the tiled variant that dl-annotate writes (the "
                    "runtime would launch the kernel on a 2-D range)\n",
                    p->src.name, ak->tiled_line, ak->name);
            errors++;
        }
        for (uint32_t j = 0; j < ak->nargs; j++) {
            const dl_annot_arg *a = &ak->args[j];
            int converts =
                a->to.kind != a->from.kind || a->to.tile != a->from.tile;
            if (converts && (!k || !k->already)) {
                fprintf(stderr,
                        "%s:%u:1: error: the annotation of '%s' asks "
                        "for a conversion but kernel '%s' does not select "
                        "the transformed indexing (#ifdef DL_ACTIVE_%s)\n",
                        p->src.name, a->line, a->name, ak->name, ak->name);
                errors++;
            }
            uint32_t elem =
                a->index < ak->nparams ? ak->params[a->index].elem_size : 0;
            if (converts && a->explicit_record && elem &&
                !dla_annot_elementwise(a, elem)) {
                fprintf(stderr,
                        "%s:%u:1: error: record(...) of '%s' is not "
                        "one field per %s element (%u bytes each): its "
                        "elements cannot be indexed in the converted "
                        "layout\n",
                        p->src.name, a->line, a->name,
                        ak->params[a->index].type, elem);
                errors++;
            }
            const dla_arg *da =
                k && a->index < k->nargs ? &k->args[a->index] : NULL;
            if (!da || !a->explicit_record || !da->nparts)
                continue;
            int match = a->record_size == da->record_size;
            for (uint32_t f = 0; f < a->nfields && match; f++) {
                int found = 0;
                for (unsigned q = 0; q < da->nparts; q++)
                    found |= !da->parts[q].gap &&
                             da->parts[q].off == a->fields[f].offset &&
                             da->parts[q].size == a->fields[f].size;
                match = found;
            }
            if (!match) {
                fprintf(stderr,
                        "%s:%u:1: error: record(...) of '%s' does not "
                        "match its struct (%u bytes)\n",
                        p->src.name, a->line, a->name, da->record_size);
                errors++;
            }
        }
    }
    return errors;
}

/* The runtime reads the output as dl-annotate meant it: every kernel it
 * rewrote is found, accepted, with each transformed argument.  A source
 * that the runtime's scanner and Clang read differently (a brace only
 * C++ compiles, say) would otherwise lose its annotations silently.
 * Returns the number of errors printed. */
static int verify_output(const dla_program *p, const char *out, size_t len)
{
    dl_annot_program *read = NULL;
    if (dl_annot_parse(out, len, p->src.name, &read) != DL_SUCCESS) {
        fprintf(stderr, "%s:1:1: error: %s\n", p->src.name, dl_last_error());
        return 1;
    }
    int errors = 0;
    for (unsigned i = 0; i < p->nkernels; i++) {
        const dla_kernel *k = &p->kernels[i];
        const dl_annot_kernel *ak = dl_annot_find(read, k->name);
        for (unsigned j = 0; j < k->nargs; j++) {
            if (!k->args[j].transformed ||
                (ak && ak->ok && dl_annot_find_arg(ak, k->args[j].index)))
                continue;
            fprintf(stderr,
                    "%s:%u:1: error: kernel '%s' cannot be rewritten: "
                    "the runtime would not read the annotation of '%s' in "
                    "the output (%s); nothing written\n",
                    p->src.name, k->line, k->name, k->args[j].name,
                    read->ndiags ? read->diags[0].message
                                 : "it does not see the kernel");
            errors++;
        }
    }
    dl_annot_free(read);
    return errors;
}

static int annotate(const dla_options *optp)
{
    dla_options opt = *optp;
    dl_log_set_level(DL_LOG_LEVEL_ERROR); /* diagnostics are ours to print */
    dla_program prog = {0};
    if (read_file(opt.input, &prog.src)) {
        fprintf(stderr, "%s:1:1: error: cannot read: %s\n", opt.input,
                strerror(errno));
        return 1;
    }
    if (prog.src.len == 0) {
        fprintf(stderr, "%s:1:1: error: empty input\n", opt.input);
        return 1;
    }
    unsigned dline, dcol;
    if (too_deep(&prog.src, &dline, &dcol)) {
        fprintf(stderr,
                "%s:%u:%u: error: brackets nested more than 1000 "
                "levels deep\n",
                opt.input, dline, dcol);
        return 1;
    }
    if (dl_annot_parse(prog.src.text, prog.src.len, opt.input, &prog.annots) !=
        DL_SUCCESS) {
        fprintf(stderr, "%s:1:1: error: %s\n", opt.input, dl_last_error());
        return 1;
    }
    int errors = 0;
    for (uint32_t i = 0; i < prog.annots->ndiags; i++, errors++)
        fprintf(stderr, "%s:%u:1: error: %s\n", opt.input,
                prog.annots->diags[i].line ? prog.annots->diags[i].line : 1,
                prog.annots->diags[i].message);
    const char *base[] = {"-x", "cl", "-cl-std=CL1.2", "-Xclang",
                          "-finclude-default-header"};
    int nargs = 0;
    const char **args = calloc((size_t)opt.nclang + 8, sizeof *args);
    for (size_t i = 0; args && i < sizeof base / sizeof *base; i++)
        args[nargs++] = base[i];
    for (int i = 0; args && i < opt.nclang; i++)
        args[nargs++] = opt.clang_args[i];
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    const char *parse_input = opt.parse_input ? opt.parse_input : opt.input;
    enum CXErrorCode ec =
        args ? clang_parseTranslationUnit2(
                   index, parse_input, args, nargs, NULL, 0,
                   CXTranslationUnit_DetailedPreprocessingRecord, &tu)
             : CXError_Failure;
    if (ec != CXError_Success || !tu) {
        fprintf(stderr,
                "%s:1:1: error: libclang could not parse the input "
                "(code %d)\n",
                opt.input, (int)ec);
        return 1;
    }
    errors += report_clang_errors(tu, opt.input);
    if (errors)
        return 1;
    if (dla_analyze(tu, &prog, &opt)) {
        fprintf(stderr, "%s:1:1: error: out of memory\n", opt.input);
        return 1;
    }
    if (opt.explain)
        explain(&prog);
    for (unsigned i = 0; i < prog.nkernels; i++)
        for (unsigned j = 0; j < prog.kernels[i].nargs; j++) {
            const dla_arg *a = &prog.kernels[i].args[j];
            if (a->count_note)
                fprintf(stderr,
                        "%s:%u:1: warning: argument '%s' of kernel "
                        "'%s': %s\n",
                        opt.input, a->user->line, a->name, prog.kernels[i].name,
                        a->count_note);
            if (a->neutral)
                fprintf(stderr,
                        "%s:%u:1: warning: argument '%s' of "
                        "kernel '%s' cannot be rewritten for the conversion "
                        "its annotation asks for; it becomes: %s\n",
                        opt.input, a->user->line, a->name, prog.kernels[i].name,
                        a->neutral);
        }
    if (opt.check)
        return check(&prog) ? 1 : 0;
    size_t len = 0;
    char *out = dla_emit(&prog, &len);
    if (!out) {
        fprintf(stderr, "%s:1:1: error: out of memory\n", opt.input);
        return 1;
    }
    if (verify_output(&prog, out, len)) {
        free(out);
        return 1;
    }
    if (opt.in_place) {
        char *orig = dla_printf("%s.orig", opt.input);
        if (!orig || write_file(orig, prog.src.text, prog.src.len) ||
            write_file(opt.input, out, len)) {
            fprintf(stderr, "dl-annotate: cannot write %s: %s\n", opt.input,
                    strerror(errno));
            return 1;
        }
        free(orig);
    } else if (opt.output) {
        if (write_file(opt.output, out, len)) {
            fprintf(stderr, "dl-annotate: cannot write %s: %s\n", opt.output,
                    strerror(errno));
            return 1;
        }
    } else if (fwrite(out, 1, len, stdout) != len) {
        return 1;
    }
    free(out);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return 0;
}

typedef struct job {
    const dla_options *opt;
    int rc;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    j->rc = annotate(j->opt);
    return NULL;
}

int main(int argc, char **argv)
{
    dla_options opt = {0};
    int rc = dla_parse_args(argc, argv, &opt);
    if (rc)
        return rc < 0 ? 0 : rc;
    /* Clang's parser recurses on nesting: garbage such as a million '{'
     * needs a deep stack, which a thread of our own can have. */
    job j = {&opt, 1};
    setenv("LIBCLANG_NOTHREADS", "1", 1); /* parse on our deep stack */
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) == 0 &&
        pthread_attr_setstacksize(&attr, (size_t)1 << 30) == 0 &&
        pthread_create(&thread, &attr, run_job, &j) == 0)
        pthread_join(thread, NULL);
    else
        j.rc = annotate(&opt);
    return j.rc;
}
