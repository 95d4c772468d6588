/* rt_renumber_scan.c - the proof that a kernel may run on a renumbered
 * graph (rt_renumber_form.h), read from its body's tokens (the annotation
 * scanner's lexer, runtime/annot/clsource.h).  Only this shape passes,
 * every other use of the names declines:
 *   T v = get_global_id(0);
 *   if (v >= rows) return;
 *   ... for (T k = rowptr[v]; k < rowptr[v + 1]; k++) ... ;
 * where v appears only as X[v] (X a vertex array) and in rowptr[v],
 * rowptr[v + 1]; k only as col[k] or E[k] (E an entry array); col only
 * as X[col[k]]; a vertex array only as X[v] or X[col[k]]; rowptr, col
 * and the entry arrays are const (never written); no other work-item
 * function is called. */
#include "clsource.h"
#include "rt_renumber_form.h"
#include "rt_source.h"

#include <stdlib.h>
#include <string.h>

/* A parameter's role, found from its uses. */
enum { ROLE_NONE, ROLE_ROWPTR, ROLE_COL, ROLE_EDGE, ROLE_VERTEX, ROLE_SCALAR };

typedef struct body {
    dl_clsrc_token *t;
    size_t n;
    const dl_clsrc_signature *sig;
    int *role;
    dl_clsrc_token v, k; /* the vertex and the entry variables */
    uint32_t rows;
} body;

static int is_punct(const body *b, size_t i, char c)
{
    return i < b->n && dl_clsrc_is_punct(b->t[i], c);
}

static int same(dl_clsrc_token a, dl_clsrc_token b)
{
    return a.kind == DL_CLSRC_IDENT && b.kind == DL_CLSRC_IDENT &&
           a.len == b.len && !memcmp(a.s, b.s, a.len);
}

static int is_tok(const body *b, size_t i, dl_clsrc_token w)
{
    return i < b->n && same(b->t[i], w);
}

static int is_word(const body *b, size_t i, const char *w)
{
    return i < b->n && dl_clsrc_is_ident(b->t[i], w);
}

/* The parameter named by token i, or -1. */
static int param_at(const body *b, size_t i)
{
    if (i >= b->n || b->t[i].kind != DL_CLSRC_IDENT)
        return -1;
    for (uint32_t p = 0; p < b->sig->nparams; p++)
        if (dl_clsrc_is_ident(b->t[i], b->sig->params[p].name))
            return (int)p;
    return -1;
}

/* The body's tokens up to its closing brace; 0 if it has none. */
static int read_body(dl_clsrc_lexer *lx, body *b)
{
    size_t cap = 256;
    b->t = malloc(cap * sizeof *b->t);
    for (int depth = 1; b->t && depth > 0;) {
        dl_clsrc_token t;
        if (dl_clsrc_next(lx, &t) != DL_SUCCESS || t.kind == DL_CLSRC_EOF)
            return 0;
        depth += dl_clsrc_is_punct(t, '{') - dl_clsrc_is_punct(t, '}');
        if (b->n == cap) {
            dl_clsrc_token *more = realloc(b->t, 2 * cap * sizeof *more);
            if (!more)
                return 0;
            b->t = more;
            cap *= 2;
        }
        b->t[b->n++] = t;
    }
    return b->t != NULL;
}

/* "T v = get_global_id(0); if (v >= rows) return;" at the start. */
static const char *head(body *b)
{
    if (b->n < 17 || b->t[0].kind != DL_CLSRC_IDENT ||
        b->t[1].kind != DL_CLSRC_IDENT || !is_punct(b, 2, '=') ||
        !is_word(b, 3, "get_global_id") || !is_punct(b, 4, '(') ||
        b->t[5].kind != DL_CLSRC_NUMBER || b->t[5].len != 1 ||
        b->t[5].s[0] != '0' || !is_punct(b, 6, ')') || !is_punct(b, 7, ';'))
        return "it does not start with `v = get_global_id(0);`";
    b->v = b->t[1];
    int rows = -1;
    if (!is_word(b, 8, "if") || !is_punct(b, 9, '(') || !is_tok(b, 10, b->v) ||
        !is_punct(b, 11, '>') || !is_punct(b, 12, '=') ||
        (rows = param_at(b, 13)) < 0 || !is_punct(b, 14, ')') ||
        !is_word(b, 15, "return") || !is_punct(b, 16, ';'))
        return "its rows are not guarded by `if (v >= rows) return;`";
    const dl_kernel_param *r = &b->sig->params[rows];
    if (r->pointer || r->int_type == DL_INT_NONE)
        return "the rows' bound is not an integer argument";
    b->rows = (uint32_t)rows;
    b->role[rows] = ROLE_SCALAR;
    return NULL;
}

/* Sets p's role (a buffer's); 0 if it had another or is no buffer. */
static int take(body *b, int p, int role)
{
    if (p < 0 || (b->role[p] != ROLE_NONE && b->role[p] != role) ||
        !b->sig->params[p].pointer ||
        (b->sig->params[p].space != DL_SPACE_GLOBAL &&
         b->sig->params[p].space != DL_SPACE_CONSTANT))
        return 0;
    b->role[p] = role;
    return 1;
}

/* "for (T k = R[v]; k < R[v + 1]; k++)" at i: 1 and the roles if so. */
static int loop_at(body *b, size_t i)
{
    if (!is_word(b, i, "for") || !is_punct(b, i + 1, '(') ||
        b->t[i + 2].kind != DL_CLSRC_IDENT || !is_punct(b, i + 4, '='))
        return 0;
    dl_clsrc_token k = b->t[i + 3];
    int r = param_at(b, i + 5);
    int ok = r >= 0 && is_punct(b, i + 6, '[') && is_tok(b, i + 7, b->v) &&
             is_punct(b, i + 8, ']') && is_punct(b, i + 9, ';') &&
             is_tok(b, i + 10, k) && is_punct(b, i + 11, '<') &&
             param_at(b, i + 12) == r && is_punct(b, i + 13, '[') &&
             is_tok(b, i + 14, b->v) && is_punct(b, i + 15, '+') &&
             i + 16 < b->n && b->t[i + 16].kind == DL_CLSRC_NUMBER &&
             b->t[i + 16].len == 1 && b->t[i + 16].s[0] == '1' &&
             is_punct(b, i + 17, ']') && is_punct(b, i + 18, ';') &&
             is_tok(b, i + 19, k) && is_punct(b, i + 20, '+') &&
             is_punct(b, i + 21, '+') && is_punct(b, i + 22, ')');
    if (!ok || !take(b, r, ROLE_ROWPTR))
        return 0;
    b->k = k;
    return 1;
}

/* Token i is a parameter or v or k outside the head and the loop header:
 * its use is one of the shapes allowed, and its role follows.  Returns
 * why not, or NULL. */
static const char *use_at(body *b, size_t i)
{
    int p = param_at(b, i);
    if (is_tok(b, i, b->v)) /* X[v] */
        return is_punct(b, i - 1, '[') && is_punct(b, i + 1, ']') &&
                       take(b, param_at(b, i - 2), ROLE_VERTEX)
                   ? NULL
                   : "the global id is used otherwise than as a vertex";
    if (b->k.len && is_tok(b, i, b->k)) { /* E[k], or col[k] in X[col[k]] */
        int e = param_at(b, i - 2);
        if (!is_punct(b, i - 1, '[') || !is_punct(b, i + 1, ']') || e < 0)
            return "the row loop's k is used otherwise than as an entry";
        int via = is_punct(b, i - 3, '[') && is_punct(b, i + 2, ']');
        if (via && take(b, e, ROLE_COL) &&
            take(b, param_at(b, i - 4), ROLE_VERTEX))
            return NULL;
        return !via && take(b, e, ROLE_EDGE)
                   ? NULL
                   : "an array is read both at entries and otherwise";
    }
    if (p < 0)
        return NULL;
    if (!b->sig->params[p].pointer)
        return NULL; /* a value: any use */
    /* A buffer: its index is checked where v or k is. */
    if (!is_punct(b, i + 1, '['))
        return "a buffer argument is used otherwise than indexed";
    int vertex = is_tok(b, i + 2, b->v) && is_punct(b, i + 3, ']');
    int entry = b->k.len && is_tok(b, i + 2, b->k) && is_punct(b, i + 3, ']');
    int through = param_at(b, i + 2) >= 0 && is_punct(b, i + 3, '[') &&
                  b->k.len && is_tok(b, i + 4, b->k) &&
                  is_punct(b, i + 5, ']') && is_punct(b, i + 6, ']');
    return vertex || entry || through
               ? NULL
               : "a buffer argument is indexed otherwise than by the vertex "
                 "or the row loop";
}

/* Every token after the head: the loop header found, other work-item
 * functions refused, every use checked. */
static const char *uses(body *b)
{
    int loops = 0;
    for (size_t i = 17; i < b->n; i++) {
        if (b->t[i].kind == DL_CLSRC_IDENT &&
            (!strncmp(b->t[i].s, "get_", 4) ||
             !strncmp(b->t[i].s, "sub_group_", 10) ||
             !strncmp(b->t[i].s, "work_group_", 11)))
            return "it calls another work-item function";
        if (is_word(b, i, "for") && loop_at(b, i)) {
            if (loops++)
                return "it has more than one row loop";
            i += 22;
            continue;
        }
        const char *why = use_at(b, i);
        if (why)
            return why;
    }
    return loops ? NULL
                 : "it has no row loop `for (k = rowptr[v]; k < "
                   "rowptr[v + 1]; k++)`";
}

/* The roles into the form: rowptr, col and entries const ints (col and
 * rowptr 4 bytes), vertex arrays of one element size. */
static const char *fill(const body *b, rt_renum_form *f)
{
    *f = (rt_renum_form){.rows = b->rows};
    int rowptrs = 0, cols = 0;
    for (uint32_t p = 0; p < b->sig->nparams; p++) {
        const dl_kernel_param *q = &b->sig->params[p];
        int role = b->role[p];
        if (role == ROLE_ROWPTR || role == ROLE_COL || role == ROLE_EDGE) {
            if (!q->pointee_const || !q->elem_size)
                return "its row pointer, columns or entries are not const";
        }
        if ((role == ROLE_ROWPTR || role == ROLE_COL) &&
            (q->elem_size != 4 ||
             (strcmp(q->type, "int") && strcmp(q->type, "uint"))))
            return "its row pointer or columns are not 32-bit integers";
        if (role == ROLE_ROWPTR)
            f->rowptr = p, rowptrs++;
        else if (role == ROLE_COL)
            f->col = p, cols++;
        else if (role == ROLE_EDGE && f->nedge < RT_RENUM_MAX) {
            f->edge_elem[f->nedge] = q->elem_size;
            f->edge[f->nedge++] = p;
        } else if (role == ROLE_VERTEX && f->nvertex < RT_RENUM_MAX) {
            if (!q->elem_size || (f->nvertex && q->elem_size != f->vertex_elem))
                return "its vertex arrays have elements of different sizes";
            f->vertex_elem = q->elem_size;
            f->vertex[f->nvertex++] = p;
        } else if (role == ROLE_EDGE || role == ROLE_VERTEX)
            return "it has too many arrays";
    }
    if (rowptrs != 1 || cols != 1 || !f->nvertex)
        return "it reads no vertex array through one column array";
    return NULL;
}

/* The kernel's one definition in the filtered source, checked. */
static const char *check(const char *src, size_t len, const char *kernel,
                         rt_renum_form *form)
{
    dl_clsrc_lexer lx;
    dl_clsrc_init(&lx, src, len, NULL, NULL);
    dl_clsrc_token t;
    const char *why = "its definition was not found";
    int bodies = 0;
    while (dl_clsrc_next(&lx, &t) == DL_SUCCESS && t.kind != DL_CLSRC_EOF) {
        if (!dl_clsrc_is_ident(t, "kernel") &&
            !dl_clsrc_is_ident(t, "__kernel"))
            continue;
        dl_clsrc_signature sig;
        int found = 0;
        if (dl_clsrc_read_kernel(&lx, &sig, &found) != DL_SUCCESS)
            return "its source could not be read";
        int mine = found && sig.defined && !strcmp(sig.name, kernel);
        if (mine && bodies++)
            why = "it has two definitions";
        else if (mine && (dl_clsrc_next(&lx, &t) != DL_SUCCESS ||
                          !dl_clsrc_is_punct(t, '{')))
            why = "its body could not be read";
        else if (mine) {
            body b = {.sig = &sig,
                      .role = calloc(sig.nparams + 1, sizeof(int))};
            why = !b.role || !read_body(&lx, &b) ? "its body could not be read"
                                                 : head(&b);
            why = why ? why : uses(&b);
            why = why ? why : fill(&b, form);
            for (uint32_t p = 0; !why && p < sig.nparams; p++)
                if (rt_source_directive_names(src, len, sig.params[p].name))
                    why = "a preprocessor line names one of its arguments";
            free(b.t);
            free(b.role);
        }
        free(sig.name);
        dl_clsrc_free_params(sig.params, sig.nparams);
        if (bodies > 1)
            break;
    }
    return why;
}

const char *rt_renumber_scan(const char *src, size_t len, const char *kernel,
                             rt_renum_form *form)
{
    const char *why = "no source";
    char *plain = src ? rt_source_as_built(src, len, &why) : NULL;
    if (!plain)
        return why;
    why = rt_source_directive_names(plain, len, "get_global_id")
              ? "a preprocessor line names get_global_id"
              : check(plain, len, kernel, form);
    free(plain);
    return why;
}
