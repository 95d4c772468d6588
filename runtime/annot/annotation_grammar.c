/* annotation_grammar.c - reads the text of one `// DL:` annotation
 * (annotation_grammar.h) and writes annotations back in their canonical
 * form.  A small hand-written scanner over the comment's text: errors
 * name the source column and say what was expected. */
#define _GNU_SOURCE /* strndup */
#include "annotation_grammar.h"
#include "clsource.h"
#include "error.h"
#include "textbuf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --------------------------------------------------- one annotation's text */

/* The comment text after "//"; columns count from the comment's "//". */
typedef struct cursor {
    const char *s;
    size_t len, pos;
    unsigned col0; /* source column of the comment's first '/' */
} cursor;

/* Blanks, and backslash-newline (a line splice keeps the comment going). */
static void blanks(cursor *c)
{
    while (c->pos < c->len) {
        char ch = c->s[c->pos];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v')
            c->pos++;
        else if (ch == '\\' && c->pos + 1 < c->len && c->s[c->pos + 1] == '\n')
            c->pos += 2;
        else
            break;
    }
}

static unsigned column(const cursor *c)
{
    return c->col0 + 2 + c->pos;
}

/* A syntax error: what was expected and what was found. */
static dl_status expected(const cursor *c, const char *what)
{
    size_t n = 0;
    while (c->pos + n < c->len && n < 20 &&
           isgraph((unsigned char)c->s[c->pos + n]))
        n++;
    if (c->pos >= c->len)
        return dl_fail(DL_INVALID_ARGUMENT,
                       "column %u: expected %s, found "
                       "the end of the line",
                       column(c), what);
    if (n == 0)
        return dl_fail(DL_INVALID_ARGUMENT,
                       "column %u: expected %s, found "
                       "byte 0x%02x",
                       column(c), what, (unsigned char)c->s[c->pos]);
    return dl_fail(DL_INVALID_ARGUMENT, "column %u: expected %s, found '%.*s'",
                   column(c), what, (int)n, c->s + c->pos);
}

static int accept(cursor *c, const char *token)
{
    size_t n = strlen(token);
    blanks(c);
    if (c->len - c->pos < n || memcmp(c->s + c->pos, token, n) != 0)
        return 0;
    c->pos += n;
    return 1;
}

static dl_status expect(cursor *c, const char *token, const char *what)
{
    return accept(c, token) ? DL_SUCCESS : expected(c, what);
}

/* An identifier; *n = 0 if there is none. */
static const char *ident(cursor *c, size_t *n)
{
    blanks(c);
    const char *start = c->s + c->pos;
    *n = 0;
    if (c->pos < c->len && (isalpha((unsigned char)*start) || *start == '_'))
        while (c->pos + *n < c->len &&
               (isalnum((unsigned char)start[*n]) || start[*n] == '_'))
            (*n)++;
    c->pos += *n;
    return start;
}

static int is_word(const char *w, size_t n, const char *keyword)
{
    return strlen(keyword) == n && strncasecmp(w, keyword, n) == 0;
}

/* A decimal number from 0 to max. */
static dl_status number(cursor *c, uint64_t max, const char *what,
                        uint64_t *out)
{
    blanks(c);
    if (c->pos >= c->len || !isdigit((unsigned char)c->s[c->pos]))
        return expected(c, what);
    size_t start = c->pos;
    uint64_t v = 0;
    while (c->pos < c->len && isdigit((unsigned char)c->s[c->pos])) {
        unsigned d = (unsigned)(c->s[c->pos++] - '0');
        if (v > (max - d) / 10) {
            c->pos = start;
            return dl_fail(DL_INVALID_ARGUMENT,
                           "column %u: %s is larger "
                           "than %llu",
                           column(c), what, (unsigned long long)max);
        }
        v = v * 10 + d;
    }
    *out = v;
    return DL_SUCCESS;
}

/* aos | da | asta "(" T ")", and asta(auto) where `target`. */
static dl_status parse_layout(cursor *c, int target, dl_annot_layout *out)
{
    size_t n;
    const char *w = ident(c, &n);
    if (is_word(w, n, "aos")) {
        *out = (dl_annot_layout){DL_KIND_AOS, 1};
        return DL_SUCCESS;
    }
    if (is_word(w, n, "da")) {
        *out = (dl_annot_layout){DL_KIND_DA, DL_TILE_DA};
        return DL_SUCCESS;
    }
    if (!is_word(w, n, "asta")) {
        c->pos -= n;
        return expected(c, "a layout (aos, da or asta(T))");
    }
    DL_RETURN_IF_FAIL(expect(c, "(", "'(' and the tile size after asta"));
    size_t save = c->pos;
    w = ident(c, &n);
    if (is_word(w, n, "auto")) {
        c->pos -= n;
        DL_RETURN_ERROR_ON(!target, DL_INVALID_ARGUMENT,
                           "column %u: asta(auto) can only be a target "
                           "layout: the data's own layout has a fixed tile",
                           column(c));
        c->pos += n;
        *out = (dl_annot_layout){DL_KIND_ASTA, 0};
    } else {
        c->pos = save;
        uint64_t t;
        DL_RETURN_IF_FAIL(number(c, DL_ANNOT_MAX_TILE,
                                 target ? "a tile size or auto" : "a tile size",
                                 &t));
        DL_RETURN_ERROR_ON(t == 0, DL_INVALID_ARGUMENT,
                           "column %u: the tile size must be at least 1",
                           column(c));
        *out = (dl_annot_layout){DL_KIND_ASTA, (size_t)t};
    }
    return expect(c, ")", "')' after the tile size");
}

/* "[" expr "]" { "[" expr "]" } */
static dl_status parse_dims(cursor *c, dl_annot_pending *p)
{
    while (accept(c, "[")) {
        const char *start = c->s + c->pos;
        const char *end = memchr(start, ']', c->len - c->pos);
        DL_RETURN_ERROR_ON(!end, DL_INVALID_ARGUMENT,
                           "column %u: '[' without a matching ']'", column(c));
        DL_RETURN_ERROR_ON(p->ndims == DL_ANNOT_MAX_DIMS, DL_INVALID_ARGUMENT,
                           "column %u: more than %d dimensions", column(c),
                           DL_ANNOT_MAX_DIMS);
        dl_status status =
            dl_dims_parse(start, (size_t)(end - start), &p->dims[p->ndims]);
        if (status != DL_SUCCESS)
            return dl_fail_wrap(status, "dimension %u starting at column %u",
                                p->ndims + 1, column(c));
        p->ndims++;
        c->pos += (size_t)(end - start) + 1;
    }
    return p->ndims ? DL_SUCCESS
                    : expected(c, "'[' and the record count after the "
                                  "argument name");
}

static dl_status add_field(dl_annot_pending *p, uint64_t offset, uint64_t size,
                           const cursor *c)
{
    DL_RETURN_ERROR_ON(p->nfields == DL_MAX_FIELDS, DL_INVALID_ARGUMENT,
                       "column %u: more than %u fields", column(c),
                       DL_MAX_FIELDS);
    /* Grow by doubling: the count is bounded by DL_MAX_FIELDS. */
    if ((p->nfields & (p->nfields - 1)) == 0) {
        uint32_t cap = p->nfields ? 2 * p->nfields : 4;
        dl_field *grown = realloc(p->fields, cap * sizeof *grown);
        DL_RETURN_ERROR_ON(!grown, DL_OUT_OF_MEMORY, "out of host memory");
        p->fields = grown;
    }
    p->fields[p->nfields++] = (dl_field){(uint32_t)offset, (uint32_t)size};
    return DL_SUCCESS;
}

/* "record" "(" [ "size" "=" N ";" ] off ":" size { "," off ":" size } ")";
 * the word "record" is already read. */
static dl_status parse_record(cursor *c, dl_annot_pending *p)
{
    DL_RETURN_IF_FAIL(expect(c, "(", "'(' after record"));
    size_t save = c->pos, n;
    const char *w = ident(c, &n);
    if (is_word(w, n, "size")) {
        uint64_t size;
        DL_RETURN_IF_FAIL(expect(c, "=", "'=' after size"));
        DL_RETURN_IF_FAIL(number(c, UINT32_MAX, "the record size", &size));
        DL_RETURN_ERROR_ON(size == 0, DL_INVALID_ARGUMENT,
                           "column %u: the record size must be positive",
                           column(c));
        DL_RETURN_IF_FAIL(expect(c, ";", "';' after the record size"));
        p->record_size = (uint32_t)size;
    } else {
        c->pos = save;
    }
    do {
        uint64_t offset, size;
        DL_RETURN_IF_FAIL(number(c, UINT32_MAX, "a field offset", &offset));
        DL_RETURN_IF_FAIL(expect(c, ":",
                                 "':' between a field's offset and "
                                 "size"));
        DL_RETURN_IF_FAIL(number(c, UINT32_MAX, "a field size", &size));
        DL_RETURN_IF_FAIL(add_field(p, offset, size, c));
    } while (accept(c, ","));
    p->has_record = 1;
    return expect(c, ")", "',' or ')' after a field");
}

static int by_offset(const void *a, const void *b)
{
    const dl_field *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Fields must be non-empty, apart and inside the record. */
static dl_status check_record(dl_annot_pending *p)
{
    dl_field *sorted = malloc(p->nfields * sizeof *sorted);
    DL_RETURN_ERROR_ON(!sorted, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(sorted, p->fields, p->nfields * sizeof *sorted);
    qsort(sorted, p->nfields, sizeof *sorted, by_offset);
    uint64_t end = 0;
    dl_status status = DL_SUCCESS;
    for (uint32_t i = 0; i < p->nfields && status == DL_SUCCESS; i++) {
        dl_field f = sorted[i];
        if (f.size == 0 || f.size > DL_MAX_FIELD_SIZE)
            status = dl_fail(DL_INVALID_ARGUMENT,
                             "field %u:%u: a field has 1 to %u bytes", f.offset,
                             f.size, DL_MAX_FIELD_SIZE);
        else if (i > 0 && f.offset < end)
            status = dl_fail(
                DL_INVALID_ARGUMENT, "fields %u:%u and %u:%u overlap",
                sorted[i - 1].offset, sorted[i - 1].size, f.offset, f.size);
        else if (p->record_size && (uint64_t)f.offset + f.size > p->record_size)
            status = dl_fail(DL_INVALID_ARGUMENT,
                             "field %u:%u does not fit the record of %u "
                             "bytes",
                             f.offset, f.size, p->record_size);
        else if ((uint64_t)f.offset + f.size > UINT32_MAX)
            status = dl_fail(DL_INVALID_ARGUMENT,
                             "field %u:%u ends beyond 4 GiB", f.offset, f.size);
        end = (uint64_t)f.offset + f.size;
    }
    free(sorted);
    if (status == DL_SUCCESS && !p->record_size)
        p->record_size = (uint32_t)end;
    return status;
}

/* "launch" ":" ( "tiled" [ "(" expr ")" ] | "chunks" ); the word
 * "launch" is read.  The bound runs to the ')' that closes its '(' (it
 * may hold parentheses). */
static dl_status parse_launch(cursor *c, dl_annot_pending *p)
{
    size_t n;
    DL_RETURN_IF_FAIL(expect(c, ":", "':' after launch"));
    const char *w = ident(c, &n);
    if (is_word(w, n, "chunks")) {
        p->chunks_launch = 1;
        blanks(c);
        return c->pos < c->len ? expected(c, "the end") : DL_SUCCESS;
    }
    if (!is_word(w, n, "tiled")) {
        c->pos -= n;
        return expected(c, "tiled or chunks");
    }
    p->tiled_launch = 1;
    if (accept(c, "(")) {
        size_t start = c->pos, end = start;
        unsigned depth = 1;
        for (; end < c->len; end++) {
            depth += c->s[end] == '(';
            depth -= c->s[end] == ')';
            if (depth == 0)
                break;
        }
        DL_RETURN_ERROR_ON(end >= c->len, DL_INVALID_ARGUMENT,
                           "column %u: '(' after tiled without a matching "
                           "')'",
                           column(c));
        dl_status status =
            dl_dims_parse(c->s + start, end - start, &p->dims[0]);
        if (status != DL_SUCCESS)
            return dl_fail_wrap(status,
                                "the bound of tiled(...) at column "
                                "%u",
                                column(c));
        p->ndims = 1;
        c->pos = end + 1;
    }
    blanks(c);
    if (c->pos < c->len)
        return expected(c, p->ndims ? "the end" : "'(' or the end");
    return DL_SUCCESS;
}

/* ------------------------------------------------- indirect references */

/* The text from the cursor up to the `close` that balances an `open`
 * already read; the cursor moves past that `close`. */
static dl_status balanced(cursor *c, char open, char close, const char *what,
                          size_t *start, size_t *end)
{
    unsigned depth = 1;
    *start = c->pos;
    for (*end = c->pos; *end < c->len; (*end)++) {
        depth += c->s[*end] == open;
        depth -= c->s[*end] == close;
        if (depth == 0)
            break;
    }
    DL_RETURN_ERROR_ON(*end >= c->len, DL_INVALID_ARGUMENT,
                       "column %u: '%c' %s without a matching '%c'", column(c),
                       open, what, close);
    c->pos = *end + 1;
    return DL_SUCCESS;
}

/* Parses s[start..end) as an expression; `what` names it in errors. */
static dl_status span_expr(const cursor *c, size_t start, size_t end,
                           const char *what, dl_dims_expr **out)
{
    dl_status status = dl_dims_parse(c->s + start, end - start, out);
    if (status != DL_SUCCESS)
        return dl_fail_wrap(status, "%s at column %u", what,
                            c->col0 + 2 + (unsigned)start);
    return DL_SUCCESS;
}

/* An identifier, copied; `what` names it when it is missing. */
static dl_status name_copy(cursor *c, const char *what, char **out)
{
    size_t n;
    const char *w = ident(c, &n);
    if (n == 0)
        return expected(c, what);
    *out = strndup(w, n);
    DL_RETURN_ERROR_ON(!*out, DL_OUT_OF_MEMORY, "out of host memory");
    return DL_SUCCESS;
}

/* "[" P "[" index "]" [ ("+" | "-") expr ] "]" after A's name.  A minus
 * belongs to the offset's text, so "P[i] - N + 1" is the offset -N + 1. */
static dl_status parse_indirect_ref(cursor *c, dl_annot_pending *p)
{
    size_t start, end;
    DL_RETURN_IF_FAIL(expect(c, "[", "'[' after the array name"));
    DL_RETURN_IF_FAIL(name_copy(c, "the index buffer's name", &p->via));
    DL_RETURN_IF_FAIL(expect(c, "[", "'[' after the index buffer's name"));
    DL_RETURN_IF_FAIL(
        balanced(c, '[', ']', "of the index buffer", &start, &end));
    DL_RETURN_IF_FAIL(span_expr(c, start, end, "the index", &p->index));
    blanks(c);
    int plus = accept(c, "+");
    if (plus || accept(c, "-")) {
        c->pos -= !plus; /* keep the minus */
        DL_RETURN_IF_FAIL(balanced(c, '[', ']', "of the array", &start, &end));
        return span_expr(c, start, end, "the offset", &p->offset);
    }
    return expect(c, "]",
                  "']', '+' or '-' after the index buffer's "
                  "element");
}

/* One bound of a row-bounded loop, B "[" expr "]", into slot `i`. */
static dl_status parse_bound(cursor *c, dl_annot_pending *p, int i)
{
    size_t start, end;
    DL_RETURN_IF_FAIL(
        name_copy(c, "the bounds array's name", &p->rows_array[i]));
    DL_RETURN_IF_FAIL(expect(c, "[", "'[' after the bounds array's name"));
    DL_RETURN_IF_FAIL(
        balanced(c, '[', ']', "of the bounds array", &start, &end));
    return span_expr(c, start, end, "the bound's index", &p->rows_index[i]);
}

/* "for" "(" j ( "<" trips | "in" bound ".." bound ) ")"; the word "for"
 * is read. */
static dl_status parse_loop(cursor *c, dl_annot_pending *p)
{
    size_t start, end, n;
    DL_RETURN_IF_FAIL(expect(c, "(", "'(' after for"));
    DL_RETURN_IF_FAIL(name_copy(c, "the loop variable", &p->loop_var));
    blanks(c);
    size_t save = c->pos;
    const char *w = ident(c, &n);
    if (is_word(w, n, "in")) {
        DL_RETURN_IF_FAIL(parse_bound(c, p, 0));
        DL_RETURN_IF_FAIL(expect(c, "..", "'..' after the first bound"));
        DL_RETURN_IF_FAIL(parse_bound(c, p, 1));
        return expect(c, ")", "')' after the last bound");
    }
    c->pos = save;
    DL_RETURN_IF_FAIL(expect(c, "<", "'<' or in after the loop variable"));
    DL_RETURN_IF_FAIL(balanced(c, '(', ')', "after for", &start, &end));
    return span_expr(c, start, end, "the trip count", &p->trips);
}

/* "jobs" ":" "by" bound [ "-" bound ]: the key of each job (its trip
 * count), into the bound slots; the word "jobs" is read. */
static dl_status parse_jobs(cursor *c, dl_annot_pending *p)
{
    size_t n;
    p->jobs = 1;
    DL_RETURN_IF_FAIL(expect(c, ":", "':' after jobs"));
    const char *w = ident(c, &n);
    if (!is_word(w, n, "by")) {
        c->pos -= n;
        return expected(c, "by");
    }
    DL_RETURN_IF_FAIL(parse_bound(c, p, 0));
    if (accept(c, "-"))
        DL_RETURN_IF_FAIL(parse_bound(c, p, 1));
    blanks(c);
    if (c->pos < c->len)
        return expected(c, p->rows_array[1] ? "the end" : "'-' or the end");
    return DL_SUCCESS;
}

/* "indirect" ":" ( "read" | "write" ) A ref [ record ] [ loop ]; the word
 * "indirect" is read. */
static dl_status parse_indirect(cursor *c, dl_annot_pending *p)
{
    size_t n, save;
    p->indirect = 1;
    DL_RETURN_IF_FAIL(expect(c, ":", "':' after indirect"));
    const char *w = ident(c, &n);
    p->write = is_word(w, n, "write");
    if (!p->write && !is_word(w, n, "read")) {
        c->pos -= n;
        return expected(c, "read or write");
    }
    DL_RETURN_IF_FAIL(name_copy(c, "the array name", &p->name));
    DL_RETURN_IF_FAIL(parse_indirect_ref(c, p));
    save = c->pos;
    w = ident(c, &n);
    if (is_word(w, n, "record")) {
        DL_RETURN_IF_FAIL(parse_record(c, p));
        DL_RETURN_IF_FAIL(check_record(p));
        save = c->pos;
        w = ident(c, &n);
    }
    if (is_word(w, n, "for"))
        DL_RETURN_IF_FAIL(parse_loop(c, p));
    else
        c->pos = save;
    blanks(c);
    if (c->pos < c->len)
        return expected(c, p->loop_var     ? "the end"
                           : p->has_record ? "for(...) or the end"
                                           : "record(...), for(...) or the "
                                             "end");
    return DL_SUCCESS;
}

/* The whole annotation after "DL:". */
static dl_status parse_text(cursor *c, dl_annot_pending *p)
{
    size_t n, save;
    blanks(c);
    save = c->pos;
    const char *w = ident(c, &n);
    /* An optional format version: v1 is the only one so far. */
    size_t digits = 1;
    while (digits < n && isdigit((unsigned char)w[digits]))
        digits++;
    if (n >= 2 && (w[0] == 'v' || w[0] == 'V') && digits == n) {
        DL_RETURN_ERROR_ON(!is_word(w, n, "v1"), DL_INVALID_ARGUMENT,
                           "column %u: annotation version %.*s is not "
                           "supported (this runtime reads v1)",
                           column(c) - (unsigned)n, (int)n, w);
    } else {
        c->pos = save;
    }
    save = c->pos;
    w = ident(c, &n);
    if (is_word(w, n, "launch"))
        return parse_launch(c, p);
    if (is_word(w, n, "indirect"))
        return parse_indirect(c, p);
    if (is_word(w, n, "jobs"))
        return parse_jobs(c, p);
    c->pos = save;
    DL_RETURN_IF_FAIL(parse_layout(c, 0, &p->from));
    DL_RETURN_IF_FAIL(expect(c, ":", "':' after the layout"));
    w = ident(c, &n);
    if (n == 0)
        return expected(c, "the argument name");
    p->name = strndup(w, n);
    DL_RETURN_ERROR_ON(!p->name, DL_OUT_OF_MEMORY, "out of host memory");
    DL_RETURN_IF_FAIL(parse_dims(c, p));
    save = c->pos;
    w = ident(c, &n);
    if (is_word(w, n, "record")) {
        DL_RETURN_IF_FAIL(parse_record(c, p));
        DL_RETURN_IF_FAIL(check_record(p));
    } else {
        c->pos = save;
    }
    p->to = p->from;
    if (accept(c, "->"))
        DL_RETURN_IF_FAIL(parse_layout(c, 1, &p->to));
    blanks(c);
    if (c->pos < c->len)
        return expected(c, p->has_record ? "'->' or the end"
                                         : "record(...), '->' or the end");
    return DL_SUCCESS;
}

void dl_annot_pending_free(dl_annot_pending *p)
{
    free(p->error);
    free(p->name);
    for (uint32_t i = 0; i < p->ndims; i++)
        dl_dims_free(p->dims[i]);
    free(p->fields);
    free(p->via);
    free(p->loop_var);
    dl_dims_free(p->index);
    dl_dims_free(p->offset);
    dl_dims_free(p->trips);
    for (int i = 0; i < 2; i++) {
        free(p->rows_array[i]);
        dl_dims_free(p->rows_index[i]);
    }
    memset(p, 0, sizeof *p);
}

dl_status dl_annot_read_comment(const char *body, size_t len, unsigned col,
                                dl_annot_pending *p)
{
    cursor c = {body, len, dl_clsrc_annotation_start(body, len), col};
    return parse_text(&c, p);
}

/* ------------------------------------------------------------- formatting */

int dl_annot_same_layout(dl_annot_layout a, dl_annot_layout b)
{
    if (a.kind == DL_KIND_ASTA && a.tile == 1)
        a = (dl_annot_layout){DL_KIND_AOS, 1};
    if (b.kind == DL_KIND_ASTA && b.tile == 1)
        b = (dl_annot_layout){DL_KIND_AOS, 1};
    return a.kind == b.kind && a.tile == b.tile;
}

int dl_annot_layout_format(dl_annot_layout layout, char *buf, size_t size)
{
    switch (layout.kind) {
    case DL_KIND_AOS:
        return snprintf(buf, size, "aos");
    case DL_KIND_DA:
        return snprintf(buf, size, "da");
    case DL_KIND_ASTA:
        break;
    }
    if (layout.tile == 0)
        return snprintf(buf, size, "asta(auto)");
    return snprintf(buf, size, "asta(%zu)", layout.tile);
}

int dl_annot_format_chunks(const dl_annot_kernel *k, char *buf, size_t size)
{
    return k && k->chunks ? snprintf(buf, size, "//DL: v1 launch: chunks")
                          : snprintf(buf, size, "%s", "");
}

int dl_annot_format_jobs(const dl_annot_kernel *k, char *buf, size_t size)
{
    dl_textbuf o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    for (uint32_t i = 0; k && i < k->njobs; i++) {
        char index[1024];
        dl_dims_format(k->jobs[i].index, index, sizeof index);
        dl_textbuf_put(&o, "%s%s[%s]", i ? " - " : "//DL: v1 jobs: by ",
                       k->jobs[i].name, index);
    }
    return (int)o.n;
}

int dl_annot_format_launch(const dl_annot_kernel *k, char *buf, size_t size)
{
    dl_textbuf o = {buf, size, 0};
    if (buf && size)
        buf[0] = '\0';
    if (!k || !k->tiled)
        return 0;
    dl_textbuf_put(&o, "//DL: v1 launch: tiled");
    if (k->tiled_bound) {
        char bound[1024];
        dl_dims_format(k->tiled_bound, bound, sizeof bound);
        dl_textbuf_put(&o, "(%s)", bound);
    }
    return (int)o.n;
}

int dl_annot_format(const dl_annot_arg *arg, char *buf, size_t size)
{
    dl_textbuf o = {buf, size, 0};
    char layout[48];
    if (buf && size)
        buf[0] = '\0';
    if (!arg)
        return 0;
    dl_annot_layout_format(arg->from, layout, sizeof layout);
    dl_textbuf_put(&o, "//DL: v1 %s: %s", layout, arg->name);
    for (uint32_t i = 0; i < arg->ndims; i++) {
        char dim[1024];
        dl_dims_format(arg->dims[i], dim, sizeof dim);
        dl_textbuf_put(&o, "[%s]", dim);
    }
    if (arg->explicit_record) {
        dl_textbuf_put(&o, " record(size=%u;", arg->record_size);
        for (uint32_t i = 0; i < arg->nfields; i++)
            dl_textbuf_put(&o, "%s %u:%u", i ? "," : "", arg->fields[i].offset,
                           arg->fields[i].size);
        dl_textbuf_put(&o, ")");
    }
    if (!dl_annot_same_layout(arg->from, arg->to)) {
        dl_annot_layout_format(arg->to, layout, sizeof layout);
        dl_textbuf_put(&o, " -> %s", layout);
    }
    return (int)o.n;
}
