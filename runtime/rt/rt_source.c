/* rt_source.c - the kernel source as the program's own build sees it
 * (rt_source.h): dl-annotate's `#ifdef DL_ACTIVE_<k>`,
 * `#elif defined(DL_SHARE_<k>)` and `#ifdef DL_JOBSWAP_<k>` branches are
 * for dlayout's variants, never
 * defined there, so their lines are blanked before the kernel is read;
 * every other conditional keeps both branches (all their uses are then
 * checked, which is conservative). */
#define _GNU_SOURCE /* memmem */
#include "rt_source.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

/* One open conditional: whether it tests a DL_ macro (1 #ifdef, 2
 * #ifndef, 0 another) and whether its #else was seen. */
typedef struct cond {
    int dl, in_else;
} cond;

static size_t skip_blanks(const char *s, size_t i, size_t end)
{
    while (i < end && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

static int ident_char(char c)
{
    return c == '_' || isalnum((unsigned char)c);
}

static int word_is(const char *s, size_t i, size_t end, const char *w)
{
    size_t n = strlen(w);
    return i + n <= end && !memcmp(s + i, w, n) &&
           (i + n == end || !ident_char(s[i + n]));
}

/* The end of the line at i, spliced lines included. */
static size_t line_end(const char *s, size_t len, size_t i)
{
    size_t end = i;
    while (end < len && s[end] != '\n')
        end++;
    while (end < len && end > i && s[end - 1] == '\\') {
        end++;
        while (end < len && s[end] != '\n')
            end++;
    }
    return end;
}

static int left_out(const cond *stack, int depth)
{
    for (int i = 0; i < depth; i++)
        if ((stack[i].dl == 1 && !stack[i].in_else) ||
            (stack[i].dl == 2 && stack[i].in_else))
            return 1;
    return 0;
}

/* Whether s[i..end) is `defined(DL_...)` or `defined DL_...`, alone. */
static int elif_defined_dl(const char *s, size_t i, size_t end)
{
    i = skip_blanks(s, i, end);
    if (!word_is(s, i, end, "defined"))
        return 0;
    i = skip_blanks(s, i + 7, end);
    int paren = i < end && s[i] == '(';
    i = skip_blanks(s, i + paren, end);
    if (i + 3 > end || memcmp(s + i, "DL_", 3))
        return 0;
    while (i < end && ident_char(s[i]))
        i++;
    i = skip_blanks(s, i, end);
    if (paren && (i >= end || s[i++] != ')'))
        return 0;
    return skip_blanks(s, i, end) == end;
}

/* A directive at s[i..end) (after its '#'): the stack follows it; 0 for a
 * conditional on a DL_ macro that is not understood. */
static int follow(const char *s, size_t i, size_t end, cond *stack, int *depth)
{
    i = skip_blanks(s, i, end);
    if (word_is(s, i, end, "ifdef") || word_is(s, i, end, "ifndef") ||
        word_is(s, i, end, "if")) {
        int neg = word_is(s, i, end, "ifndef"),
            plain = word_is(s, i, end, "if");
        size_t a = skip_blanks(s, i + (plain ? 2 : neg ? 6 : 5), end);
        int dl = a + 3 <= end && !memcmp(s + a, "DL_", 3);
        if (*depth == MAX_DEPTH || (plain && memmem(s + i, end - i, "DL_", 3)))
            return 0;
        stack[(*depth)++] = (cond){dl ? 1 + neg : 0, 0};
    } else if (word_is(s, i, end, "elif")) {
        /* dl-annotate's shared form: `#elif defined(DL_SHARE_<k>)` after
         * the DL_ACTIVE_ branch, as undefined there as the #ifdef. */
        if (!*depth ||
            (stack[*depth - 1].dl &&
             !(stack[*depth - 1].dl == 1 && elif_defined_dl(s, i + 4, end))))
            return 0;
    } else if (word_is(s, i, end, "else")) {
        if (!*depth)
            return 0;
        stack[*depth - 1].in_else = 1;
    } else if (word_is(s, i, end, "endif")) {
        if (!*depth)
            return 0;
        (*depth)--;
    }
    return 1;
}

char *rt_source_as_built(const char *src, size_t len, const char **why)
{
    char *out = malloc(len + 1);
    *why = "out of memory";
    if (!out)
        return NULL;
    memcpy(out, src, len);
    out[len] = 0;
    cond stack[MAX_DEPTH];
    int depth = 0;
    for (size_t i = 0; i < len;) {
        size_t end = line_end(src, len, i), j = skip_blanks(src, i, end);
        int was_out = left_out(stack, depth);
        if (j < end && src[j] == '#' &&
            !follow(src, j + 1, end, stack, &depth)) {
            *why = "a preprocessor conditional on a DL_ macro it does not "
                   "know";
            free(out);
            return NULL;
        }
        if (was_out || left_out(stack, depth))
            for (size_t k = i; k < end; k++)
                out[k] = out[k] == '\n' ? '\n' : ' ';
        i = end + 1;
    }
    return out;
}

int rt_source_directive_names(const char *src, size_t len, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i < len;) {
        size_t end = line_end(src, len, i), j = skip_blanks(src, i, end);
        for (size_t k = j; j < end && src[j] == '#' && k + w <= end; k++) {
            if (!memcmp(src + k, word, w) && !ident_char(src[k - 1]) &&
                (k + w == end || !ident_char(src[k + w])))
                return 1;
        }
        i = end + 1;
    }
    return 0;
}
