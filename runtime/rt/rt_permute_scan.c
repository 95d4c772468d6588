/* rt_permute_scan.c - which kernels may run unchanged on a permuted array:
 * the annotations say where a kernel reads A through P, not that it never
 * names A or P otherwise, so the kernel's body is read too (with the
 * annotation scanner's lexer, runtime/annot/clsource.h).  Conservative:
 * each A of the set may appear only as A[P[...]], P only inside that,
 * and none in a preprocessor line (a macro could hide another use). */
#include "clsource.h"
#include "rt_permute.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether `word` stands as a whole identifier in [s, s + len). */
static int names_word(const char *s, size_t len, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= len; i++) {
        if (memcmp(s + i, word, w) != 0)
            continue;
        int before =
            i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_');
        int after = i + w < len &&
                    (isalnum((unsigned char)s[i + w]) || s[i + w] == '_');
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Whether one of the set's names stands as a whole identifier in
 * [s, s + len). */
static int names_one(const char *s, size_t len, const rt_permute_names *n)
{
    if (names_word(s, len, n->p))
        return 1;
    for (unsigned i = 0; i < n->na; i++)
        if (names_word(s, len, n->a[i]))
            return 1;
    return 0;
}

/* Whether token t is one of the arrays. */
static int is_array(dl_clsrc_token t, const rt_permute_names *n)
{
    for (unsigned i = 0; i < n->na; i++)
        if (dl_clsrc_is_ident(t, n->a[i]))
            return 1;
    return 0;
}

/* Whether a preprocessor line (first non-blank '#', with its splices)
 * names an array or p. */
static int directive_names(const char *src, size_t len,
                           const rt_permute_names *n)
{
    size_t i = 0;
    while (i < len) {
        size_t start = i, end = i;
        while (end < len && src[end] != '\n')
            end++;
        while (end < len && end > start && src[end - 1] == '\\') {
            end++; /* a spliced line goes on */
            while (end < len && src[end] != '\n')
                end++;
        }
        size_t j = start;
        while (j < end && (src[j] == ' ' || src[j] == '\t'))
            j++;
        if (j < end && src[j] == '#' && names_one(src + j, end - j, n))
            return 1;
        i = end + 1;
    }
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

/* A directive line's word after '#' (at most 7 letters), or "". */
static void directive_word(const char *s, size_t n, char word[8])
{
    size_t i = 0, w = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    word[0] = 0;
    if (i >= n || s[i] != '#')
        return;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    while (i < n && w < 7 && isalpha((unsigned char)s[i]))
        word[w++] = s[i++];
    word[w] = 0;
}

/* Blanks, in the copy s, the shared form's branch of `kernel`: from the
 * line "#elif defined(DL_SHARE_<kernel>)" dl-annotate writes to the
 * directive that ends it (#else, #elif or #endif at its level).  That
 * text is dlayout's own: it reads A as the groups' blocks and P inside
 * dl_share[P[...]], exact by construction (docs/annotations.md, "The
 * shared form"); the program's branches are scanned as written. */
static void blank_share(char *s, size_t len, const char *kernel)
{
    char head[300];
    snprintf(head, sizeof head, "#elif defined(DL_SHARE_%s)", kernel);
    size_t hl = strlen(head);
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && s[end] != '\n')
            end++;
        if (end - i < hl || memcmp(s + i, head, hl) != 0 ||
            (end - i > hl && s[i + hl] != ' ' && s[i + hl] != '\r')) {
            i = end + 1;
            continue;
        }
        int depth = 0;
        for (size_t l = end + 1; l < len;) {
            size_t e = l;
            while (e < len && s[e] != '\n')
                e++;
            char word[8];
            directive_word(s + l, e - l, word);
            if (!strncmp(word, "if", 2))
                depth++;
            else if (depth == 0 &&
                     (!strcmp(word, "else") || !strcmp(word, "elif") ||
                      !strcmp(word, "endif")))
                break;
            else if (!strcmp(word, "endif"))
                depth--;
            memset(s + l, ' ', e - l);
            l = e + 1;
        }
        i = end + 1;
    }
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
    if (!src || directive_names(src, len, n))
        return 0;
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    memcpy(copy, src, len);
    blank_share(copy, len, kernel);
    int ok = scan(copy, len, kernel, n);
    free(copy);
    return ok;
}
