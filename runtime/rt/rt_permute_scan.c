/* rt_permute_scan.c - which kernels may run unchanged on a permuted array:
 * the annotations say where a kernel reads A through P, not that it never
 * names A or P otherwise, so the kernel's body is read too (with the
 * annotation scanner's lexer, runtime/annot/clsource.h).  Conservative:
 * each A of the set may appear only as A[P[...]], P only inside that,
 * and none in a preprocessor line (a macro could hide another use).  The
 * source is read as the program's own build sees it (rt_source.h):
 * dl-annotate's branches for dlayout's variants are left out. */
#include "clsource.h"
#include "rt_permute.h"
#include "rt_source.h"

#include <stdlib.h>
#include <string.h>

/* Whether token t is one of the arrays. */
static int is_array(dl_clsrc_token t, const rt_permute_names *n)
{
    for (unsigned i = 0; i < n->na; i++)
        if (dl_clsrc_is_ident(t, n->a[i]))
            return 1;
    return 0;
}

/* Whether a preprocessor line the build keeps names an array or p. */
static int directive_names(const char *src, size_t len,
                           const rt_permute_names *n)
{
    if (rt_source_directive_names(src, len, n->p))
        return 1;
    for (unsigned i = 0; i < n->na; i++)
        if (rt_source_directive_names(src, len, n->a[i]))
            return 1;
    return 0;
}

static int next(dl_clsrc_lexer *lx, dl_clsrc_token *t)
{
    return dl_clsrc_next(lx, t) == DL_SUCCESS && t->kind != DL_CLSRC_EOF;
}

/* After an array: "[" p "[" ... "]" "]", with none of the names inside. */
static int through_p(dl_clsrc_lexer *lx, const rt_permute_names *n)
{
    dl_clsrc_token t;
    if (!next(lx, &t) || !dl_clsrc_is_punct(t, '[') || !next(lx, &t) ||
        !dl_clsrc_is_ident(t, n->p) || !next(lx, &t) ||
        !dl_clsrc_is_punct(t, '['))
        return 0;
    for (int depth = 1; depth > 0;) {
        if (!next(lx, &t) || is_array(t, n) || dl_clsrc_is_ident(t, n->p))
            return 0;
        depth += dl_clsrc_is_punct(t, '[') - dl_clsrc_is_punct(t, ']');
    }
    return next(lx, &t) && dl_clsrc_is_punct(t, ']');
}

/* The body after its "{": 1 if every use is A[P[...]]. */
static int body_ok(dl_clsrc_lexer *lx, const rt_permute_names *n)
{
    dl_clsrc_token t;
    for (int depth = 1; depth > 0;) {
        if (!next(lx, &t))
            return 0;
        if (dl_clsrc_is_ident(t, n->p))
            return 0;
        if (is_array(t, n) && !through_p(lx, n))
            return 0;
        depth += dl_clsrc_is_punct(t, '{') - dl_clsrc_is_punct(t, '}');
    }
    return 1;
}

/* The kernel's one body in src: 1 if every use is A[P[...]]. */
static int scan(const char *src, size_t len, const char *kernel,
                const rt_permute_names *n)
{
    dl_clsrc_lexer lx;
    dl_clsrc_init(&lx, src, len, NULL, NULL);
    dl_clsrc_token t;
    int found_ok = 0, bodies = 0;
    while (next(&lx, &t)) {
        if (!dl_clsrc_is_ident(t, "kernel") &&
            !dl_clsrc_is_ident(t, "__kernel"))
            continue;
        dl_clsrc_signature sig;
        int found = 0;
        if (dl_clsrc_read_kernel(&lx, &sig, &found) != DL_SUCCESS)
            return 0;
        int mine = found && sig.defined && strcmp(sig.name, kernel) == 0;
        free(sig.name);
        dl_clsrc_free_params(sig.params, sig.nparams);
        if (!mine)
            continue;
        if (!next(&lx, &t) || !dl_clsrc_is_punct(t, '{'))
            return 0;
        bodies++;
        found_ok = body_ok(&lx, n);
        if (!found_ok)
            return 0;
    }
    return bodies == 1 && found_ok; /* two bodies (#if branches): unsure */
}

int rt_permute_scan(const char *src, size_t len, const char *kernel,
                    const char *a, const char *p)
{
    rt_permute_names n = {{a}, 1, p};
    return rt_permute_scan_set(src, len, kernel, &n);
}

int rt_permute_scan_set(const char *src, size_t len, const char *kernel,
                        const rt_permute_names *n)
{
    const char *why = NULL;
    char *built = src ? rt_source_as_built(src, len, &why) : NULL;
    int ok =
        built && !directive_names(built, len, n) && scan(built, len, kernel, n);
    free(built);
    return ok;
}
