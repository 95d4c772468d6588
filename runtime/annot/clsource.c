/* clsource.c - the OpenCL C lexer and kernel-signature reader of
 * clsource.h.  It knows just enough C to be safe on any input: comments,
 * string and character literals, line splices, preprocessor lines. */
#define _GNU_SOURCE /* asprintf */
#include "clsource.h"
#include "error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TYPE_WORDS 8
#define MAX_PARAMS     1024

/* ------------------------------------------------------------------ lexer */

void dl_clsrc_init(dl_clsrc_lexer *lx, const char *src, size_t len,
                   dl_clsrc_annot_fn on_annotation, void *user)
{
    *lx = (dl_clsrc_lexer){.s = src,
                           .len = len,
                           .line = 1,
                           .line_blank = 1,
                           .on_annotation = on_annotation,
                           .user = user};
}

size_t dl_clsrc_annotation_start(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t'))
        i++;
    return len - i >= 3 && memcmp(body + i, "DL:", 3) == 0 ? i + 3 : 0;
}

static void new_line(dl_clsrc_lexer *lx)
{
    lx->line++;
    lx->line_start = lx->pos;
}

/* Backslash-newline joins lines (also inside comments and literals). */
static int splice(dl_clsrc_lexer *lx)
{
    const char *s = lx->s + lx->pos;
    size_t left = lx->len - lx->pos;
    if (left >= 2 && s[0] == '\\' && s[1] == '\n')
        lx->pos += 2;
    else if (left >= 3 && s[0] == '\\' && s[1] == '\r' && s[2] == '\n')
        lx->pos += 3;
    else
        return 0;
    new_line(lx);
    return 1;
}

static void skip_line_comment(dl_clsrc_lexer *lx)
{
    while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
        if (!splice(lx))
            lx->pos++;
}

static void skip_block_comment(dl_clsrc_lexer *lx)
{
    lx->pos += 2;
    while (lx->pos < lx->len) {
        if (lx->s[lx->pos] == '*' && lx->pos + 1 < lx->len &&
            lx->s[lx->pos + 1] == '/') {
            lx->pos += 2;
            return;
        }
        if (lx->s[lx->pos++] == '\n')
            new_line(lx);
    }
}

/* "..." or '...'; an unterminated one ends at the line's end. */
static void skip_literal(dl_clsrc_lexer *lx)
{
    char quote = lx->s[lx->pos++];
    while (lx->pos < lx->len) {
        if (splice(lx))
            continue;
        char ch = lx->s[lx->pos];
        if (ch == '\n')
            return;
        lx->pos++;
        if (ch == quote)
            return;
        /* An escape hides the next character (\" does not end "..."). */
        if (ch == '\\' && lx->pos < lx->len && lx->s[lx->pos] != '\n')
            lx->pos++;
    }
}

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The next token, preprocessor lines and annotations included: blanks
 * and plain comments are all it skips. */
static dl_clsrc_token lex(dl_clsrc_lexer *lx)
{
    for (;;) {
        dl_clsrc_token t = {DL_CLSRC_EOF,
                            lx->s + lx->pos,
                            0,
                            lx->line,
                            (unsigned)(lx->pos - lx->line_start + 1),
                            lx->directive};
        if (lx->pos >= lx->len)
            return t;
        char c = lx->s[lx->pos];
        char next = lx->pos + 1 < lx->len ? lx->s[lx->pos + 1] : '\0';
        if (c == '\n') {
            lx->pos++;
            new_line(lx);
            lx->line_blank = 1;
            lx->directive = 0;
            continue;
        }
        if (splice(lx))
            continue;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
            continue;
        }
        if (c == '/' && next == '/') {
            size_t body = lx->pos + 2;
            skip_line_comment(lx);
            t.s = lx->s + body;
            t.len = lx->pos - body;
            if (dl_clsrc_annotation_start(t.s, t.len)) {
                t.kind = DL_CLSRC_ANNOT;
                return t;
            }
            continue;
        }
        if (c == '/' && next == '*') {
            skip_block_comment(lx);
            continue;
        }
        int first_on_line = lx->line_blank;
        lx->line_blank = 0;
        size_t start = lx->pos;
        if (c == '#' && first_on_line) {
            lx->directive = t.directive = 1;
            lx->pos++;
            t.kind = DL_CLSRC_PUNCT;
        } else if (c == '"' || c == '\'') {
            skip_literal(lx);
            t.kind = DL_CLSRC_STRING;
        } else if (isalpha((unsigned char)c) || c == '_') {
            while (lx->pos < lx->len && ident_char(lx->s[lx->pos]))
                lx->pos++;
            t.kind = DL_CLSRC_IDENT;
        } else if (isdigit((unsigned char)c)) {
            while (lx->pos < lx->len &&
                   (ident_char(lx->s[lx->pos]) || lx->s[lx->pos] == '.'))
                lx->pos++;
            t.kind = DL_CLSRC_NUMBER;
        } else {
            lx->pos++;
            t.kind = DL_CLSRC_PUNCT;
        }
        t.len = lx->pos - start;
        return t;
    }
}

int dl_clsrc_is_punct(dl_clsrc_token t, char c)
{
    return t.kind == DL_CLSRC_PUNCT && t.s[0] == c;
}

int dl_clsrc_is_ident(dl_clsrc_token t, const char *word)
{
    return t.kind == DL_CLSRC_IDENT && strlen(word) == t.len &&
           memcmp(t.s, word, t.len) == 0;
}

dl_status dl_clsrc_next(dl_clsrc_lexer *lx, dl_clsrc_token *out)
{
    for (;;) {
        dl_clsrc_token t = lex(lx);
        if (t.kind == DL_CLSRC_ANNOT) {
            if (lx->on_annotation)
                DL_RETURN_IF_FAIL(lx->on_annotation(lx->user, &t));
        } else if (!t.directive || t.kind == DL_CLSRC_EOF) {
            *out = t;
            return DL_SUCCESS;
        }
    }
}

dl_clsrc_token dl_clsrc_peek(const dl_clsrc_lexer *lx)
{
    dl_clsrc_lexer copy = *lx;
    dl_clsrc_token t;
    do
        t = lex(&copy);
    while (t.kind == DL_CLSRC_ANNOT || (t.directive && t.kind != DL_CLSRC_EOF));
    return t;
}

/* A token that ends any declaration: a signature cannot cross it. */
static int is_barrier(dl_clsrc_token t)
{
    return t.kind == DL_CLSRC_EOF || dl_clsrc_is_punct(t, '{') ||
           dl_clsrc_is_punct(t, '}') || dl_clsrc_is_punct(t, ';');
}

/* Skips a balanced "( ... )" that comes next; *ok = 0 if it is not
 * closed before a barrier. */
static dl_status skip_parens(dl_clsrc_lexer *lx, int *ok)
{
    unsigned depth = 0;
    *ok = 0;
    do {
        dl_clsrc_token t = dl_clsrc_peek(lx);
        if (is_barrier(t) || (depth == 0 && !dl_clsrc_is_punct(t, '(')))
            return DL_SUCCESS;
        DL_RETURN_IF_FAIL(dl_clsrc_next(lx, &t));
        if (dl_clsrc_is_punct(t, '('))
            depth++;
        else if (dl_clsrc_is_punct(t, ')'))
            depth--;
    } while (depth > 0);
    *ok = 1;
    return DL_SUCCESS;
}

/* ------------------------------------------------------- kernel signature */

static const struct {
    const char *name;
    uint32_t size;
    dl_int_type int_type;
} scalar_types[] = {
    {"char", 1, DL_INT_I8},     {"uchar", 1, DL_INT_U8},
    {"short", 2, DL_INT_I16},   {"ushort", 2, DL_INT_U16},
    {"int", 4, DL_INT_I32},     {"uint", 4, DL_INT_U32},
    {"long", 8, DL_INT_I64},    {"ulong", 8, DL_INT_U64},
    {"half", 2, DL_INT_NONE},   {"float", 4, DL_INT_NONE},
    {"double", 8, DL_INT_NONE},
};

/* Size of an OpenCL C scalar or vector type name (float4: 16, and float3
 * like float4), or 0. */
static uint32_t type_size(const char *type, dl_int_type *int_type)
{
    *int_type = DL_INT_NONE;
    for (size_t i = 0; i < sizeof scalar_types / sizeof *scalar_types; i++) {
        size_t n = strlen(scalar_types[i].name);
        if (strncmp(type, scalar_types[i].name, n) != 0)
            continue;
        const char *width = type + n;
        if (!*width) {
            *int_type = scalar_types[i].int_type;
            return scalar_types[i].size;
        }
        static const char *const widths[] = {"2", "3", "4", "8", "16"};
        static const uint32_t lanes[] = {2, 4, 4, 8, 16};
        for (size_t w = 0; w < 5; w++)
            if (strcmp(width, widths[w]) == 0)
                return scalar_types[i].size * lanes[w];
    }
    return 0;
}

/* A parameter being read: its words, minus qualifiers. */
typedef struct param_words {
    dl_clsrc_token words[MAX_TYPE_WORDS];
    unsigned nwords;
    unsigned pointer;
    dl_addr_space space;
    int in_brackets;
    int pointee_const; /* "const" before the first '*' */
} param_words;

static const struct {
    const char *word;
    int space; /* dl_addr_space + 1, or 0 for other qualifiers */
} qualifiers[] = {
    {"__global", 1 + DL_SPACE_GLOBAL},
    {"global", 1 + DL_SPACE_GLOBAL},
    {"__constant", 1 + DL_SPACE_CONSTANT},
    {"constant", 1 + DL_SPACE_CONSTANT},
    {"__local", 1 + DL_SPACE_LOCAL},
    {"local", 1 + DL_SPACE_LOCAL},
    {"__private", 1 + DL_SPACE_PRIVATE},
    {"private", 1 + DL_SPACE_PRIVATE},
    {"const", 0},
    {"volatile", 0},
    {"restrict", 0},
    {"__restrict", 0},
    {"__restrict__", 0},
    {"__read_only", 0},
    {"read_only", 0},
    {"__write_only", 0},
    {"write_only", 0},
    {"__read_write", 0},
    {"read_write", 0},
    {"signed", 0},
};

static void add_word(param_words *pw, dl_clsrc_token t)
{
    for (size_t i = 0; i < sizeof qualifiers / sizeof *qualifiers; i++)
        if (dl_clsrc_is_ident(t, qualifiers[i].word)) {
            if (qualifiers[i].space)
                pw->space = (dl_addr_space)(qualifiers[i].space - 1);
            if (!strcmp(qualifiers[i].word, "const") && !pw->pointer)
                pw->pointee_const = 1;
            return;
        }
    if (pw->nwords < MAX_TYPE_WORDS)
        pw->words[pw->nwords++] = t;
}

/* "unsigned int" -> "uint", "struct foo" stays, "unsigned" -> "uint". */
static char *type_name(const dl_clsrc_token *words, unsigned n)
{
    int is_unsigned = 0;
    char buf[256] = "";
    size_t used = 0;
    for (unsigned i = 0; i < n; i++) {
        if (dl_clsrc_is_ident(words[i], "unsigned")) {
            is_unsigned = 1;
            continue;
        }
        used +=
            (size_t)snprintf(buf + used, sizeof buf - used, "%s%.*s",
                             used ? " " : "", (int)words[i].len, words[i].s);
        if (used >= sizeof buf)
            used = sizeof buf - 1;
    }
    if (!is_unsigned)
        return strdup(buf);
    char *out = NULL;
    if (asprintf(&out, "u%s", used ? buf : "int") < 0)
        return NULL;
    return out;
}

/* Turns the words of one parameter into the next entry of sig->params. */
static dl_status finish_param(param_words *pw, dl_clsrc_signature *sig)
{
    unsigned nw = pw->nwords;
    /* "()" and "(void)" declare no parameter. */
    int none = nw == 0 || (nw == 1 && pw->pointer == 0 &&
                           dl_clsrc_is_ident(pw->words[0], "void"));
    if (!none && sig->nparams < MAX_PARAMS) {
        /* Grow by doubling: the count is bounded by MAX_PARAMS. */
        if ((sig->nparams & (sig->nparams - 1)) == 0) {
            uint32_t cap = sig->nparams ? 2 * sig->nparams : 4;
            dl_kernel_param *grown = realloc(sig->params, cap * sizeof *grown);
            DL_RETURN_ERROR_ON(!grown, DL_OUT_OF_MEMORY, "out of host memory");
            sig->params = grown;
        }
        dl_kernel_param *p = &sig->params[sig->nparams++];
        memset(p, 0, sizeof *p);
        /* The last word names the parameter, unless it is the only one. */
        dl_clsrc_token name =
            nw > 1 ? pw->words[nw - 1] : (dl_clsrc_token){.s = "", .len = 0};
        p->name = strndup(name.s, name.len);
        p->type = type_name(pw->words, nw > 1 ? nw - 1 : 1);
        DL_RETURN_ERROR_ON(!p->name || !p->type, DL_OUT_OF_MEMORY,
                           "out of host memory");
        p->pointer = pw->pointer;
        p->space = pw->space;
        p->pointee_const = pw->pointee_const;
        dl_int_type int_type;
        p->elem_size = type_size(p->type, &int_type);
        p->int_type = pw->pointer ? DL_INT_NONE : int_type;
    }
    memset(pw, 0, sizeof *pw);
    return DL_SUCCESS;
}

void dl_clsrc_free_params(dl_kernel_param *params, uint32_t n)
{
    for (uint32_t i = 0; params && i < n; i++) {
        free(params[i].name);
        free(params[i].type);
    }
    free(params);
}

/* Reads "( params )" (the '(' is next).  *ok = 0 if the list is not
 * closed before a barrier. */
static dl_status read_params(dl_clsrc_lexer *lx, dl_clsrc_signature *sig,
                             int *ok)
{
    param_words pw = {0};
    unsigned depth = 0;
    dl_clsrc_token t;
    *ok = 0;
    DL_RETURN_IF_FAIL(dl_clsrc_next(lx, &t)); /* '(' */
    for (;;) {
        if (is_barrier(dl_clsrc_peek(lx)))
            return DL_SUCCESS;
        DL_RETURN_IF_FAIL(dl_clsrc_next(lx, &t));
        if (dl_clsrc_is_ident(t, "__attribute__")) {
            int closed;
            DL_RETURN_IF_FAIL(skip_parens(lx, &closed));
            if (!closed)
                return DL_SUCCESS;
        } else if (dl_clsrc_is_punct(t, '(')) {
            depth++;
        } else if (dl_clsrc_is_punct(t, ')') && depth > 0) {
            depth--;
        } else if (depth > 0) {
            continue;
        } else if (dl_clsrc_is_punct(t, ')')) {
            *ok = 1;
            return finish_param(&pw, sig);
        } else if (pw.in_brackets) {
            pw.in_brackets = !dl_clsrc_is_punct(t, ']');
        } else if (dl_clsrc_is_punct(t, ',')) {
            DL_RETURN_IF_FAIL(finish_param(&pw, sig));
        } else if (dl_clsrc_is_punct(t, '*')) {
            pw.pointer++;
        } else if (dl_clsrc_is_punct(t, '[')) {
            pw.pointer++;
            pw.in_brackets = 1;
        } else if (t.kind == DL_CLSRC_IDENT) {
            add_word(&pw, t);
        }
    }
}

static void free_signature(dl_clsrc_signature *sig)
{
    dl_clsrc_free_params(sig->params, sig->nparams);
    free(sig->name);
    memset(sig, 0, sizeof *sig);
}

dl_status dl_clsrc_read_kernel(dl_clsrc_lexer *lx, dl_clsrc_signature *sig,
                               int *found)
{
    dl_clsrc_token t, name = {0};
    int ok;
    *sig = (dl_clsrc_signature){0};
    *found = 0;
    for (;;) {
        t = dl_clsrc_peek(lx);
        if (is_barrier(t))
            return DL_SUCCESS;
        DL_RETURN_IF_FAIL(dl_clsrc_next(lx, &t));
        if (dl_clsrc_is_ident(t, "__attribute__")) {
            DL_RETURN_IF_FAIL(skip_parens(lx, &ok));
            if (!ok)
                return DL_SUCCESS;
        } else if (t.kind == DL_CLSRC_IDENT &&
                   dl_clsrc_is_punct(dl_clsrc_peek(lx), '(')) {
            name = t;
            break;
        }
    }
    sig->line = name.line;
    sig->name = strndup(name.s, name.len);
    DL_RETURN_ERROR_ON(!sig->name, DL_OUT_OF_MEMORY, "out of host memory");
    dl_status status = read_params(lx, sig, &ok);
    /* Attributes may also follow the parameter list. */
    while (status == DL_SUCCESS && ok &&
           dl_clsrc_is_ident(dl_clsrc_peek(lx), "__attribute__")) {
        status = dl_clsrc_next(lx, &t);
        if (status == DL_SUCCESS)
            status = skip_parens(lx, &ok);
    }
    t = dl_clsrc_peek(lx);
    if (status != DL_SUCCESS || !ok ||
        !(dl_clsrc_is_punct(t, '{') || dl_clsrc_is_punct(t, ';'))) {
        free_signature(sig);
        return status;
    }
    sig->defined = dl_clsrc_is_punct(t, '{');
    *found = 1;
    return DL_SUCCESS;
}
