/* emit.c - writes the output: the input text with, for every kernel that
 * has transformed arguments, the canonical annotations before it and its
 * body duplicated under `#ifdef DL_ACTIVE_<kernel>` (rewritten indexing)
 * / `#else` (the original code).  Without dlayout the original branch is
 * compiled, so the program runs exactly as written.
 *
 * The index code follows docs/layouts.md: field o (size z) of record i
 *   DA:      byte o*M + i*z            (per-field arrays: `((T *)(p +
 * o*M))[i]`) ASTA(T): byte q*T*S + o*w + t*z, q = i/T, t = i%T, w = T or, in
 * the tail tile (q == M/T), R = M%T. */
#include "dla.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    char *s;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void putf(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void putf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = dla_vprintf(fmt, ap);
    va_end(ap);
    if (!s) {
        b->failed = 1;
        return;
    }
    puts_(b, s);
    free(s);
}

/* An access of one argument, or a work-item call (tiled variant), for
 * sorting all of a kernel's. */
typedef struct edit {
    const dla_kernel *k;
    const dla_arg *arg;
    const dla_access *acc; /* NULL for a call */
    const dla_call *call;
    dla_range whole;
} edit;

typedef struct emitter {
    const dla_source *src;
    edit *edits;
    size_t nedits;
    int tiled; /* the variant for the tiled range */
    /* a helper copy (helper.c): its pointer parameter q is the base and
     * the record q points at, dla_x_q, is added to every index */
    const char *ptr;
    const char *index_base;
    const dla_access *skip; /* rendering this access's own text */
} emitter;

static const char *base_ptr(const emitter *e, const dla_arg *a)
{
    return e->ptr ? e->ptr : a->name;
}

static void render(emitter *e, buf *b, dla_range r);

static void index_text(emitter *e, buf *b, const dla_arg *a,
                       const dla_access *acc)
{
    int own = acc->index_name && strcmp(acc->index_name, "0") == 0;
    if (e->index_base && own) {
        putf(b, "(size_t)(%s)", e->index_base);
        return;
    }
    if (e->index_base && !acc->index_name) {
        putf(b, "(%s + (size_t)(", e->index_base);
        render(e, b, acc->index);
        puts_(b, "))");
        return;
    }
    /* p moved by `p += C`: an access through p reads record or element
     * E + C of the buffer (an alias's index has C already) */
    const char *bump = a->bump && (own || !acc->index_name) ? a->bump : NULL;
    if (bump)
        puts_(b, "(");
    if (acc->index_name) {
        putf(b, "(size_t)(%s)", acc->index_name);
    } else {
        puts_(b, "(size_t)(");
        render(e, b, acc->index);
        puts_(b, ")");
    }
    if (bump)
        putf(b, " + (size_t)%s)", bump);
}

/* Byte (struct) or element (scalar array) offset of part o (size z) of
 * record index `ix` (already emitted as text). */
static void part_offset(buf *b, const dla_kernel *k, const dla_arg *a,
                        const char *ix, unsigned o, unsigned z, unsigned s)
{
    if (a->target == DLA_TARGET_DA)
        putf(b, "%uu * dla_M_%s + %s * %uu", o, a->name, ix, z);
    else
        putf(b, "DLA_ASTA_OFF(%s, DL_TILE_%s_%s, dla_M_%s, %uu, %uu, %uu)", ix,
             k->name, a->name, a->name, s, o, z);
}

static void field_access(emitter *e, buf *b, const edit *ed)
{
    const dla_kernel *k = ed->k;
    const dla_arg *a = ed->arg;
    const dla_access *acc = ed->acc;
    const char *pname = base_ptr(e, a);
    if (e->tiled && acc->own && a->target == DLA_TARGET_ASTA) {
        /* the work-item's own record in the tiled range: tile
         * get_global_id(1), lane get_global_id(0), consecutive lanes at
         * consecutive addresses */
        putf(b,
             "(%s(__global %s *)((__global char *)(%s) + "
             "DLA_ASTA_TILED(DL_TILE_%s_%s, dla_M_%s, %uu, %uu, %uu)",
             acc->kind == DLA_FIELD ? "*" : "", acc->leaf_type, pname, k->name,
             a->name, a->name, a->record_size, acc->part_off, acc->part_size);
        if (acc->inner_off)
            putf(b, " + %uu", acc->inner_off);
        puts_(b, "))");
        return;
    }
    if (acc->kind == DLA_FIELD && acc->whole_part &&
        a->target == DLA_TARGET_DA) {
        /* the form the device compiler vectorises: a per-field array */
        putf(b, "((__global %s *)((__global char *)(%s) + %uu * dla_M_%s))[",
             acc->leaf_type, pname, acc->part_off, a->name);
        index_text(e, b, a, acc);
        puts_(b, "]");
        return;
    }
    buf ix = {0};
    index_text(e, &ix, a, acc);
    if (acc->kind == DLA_FIELD)
        putf(b, "(*(__global %s *)((__global char *)(%s) + ", acc->leaf_type,
             pname);
    else
        putf(b, "((__global %s *)((__global char *)(%s) + ", acc->leaf_type,
             pname);
    part_offset(b, k, a, ix.s ? ix.s : "0", acc->part_off, acc->part_size,
                a->record_size);
    if (acc->inner_off)
        putf(b, " + %uu", acc->inner_off);
    puts_(b, "))");
    free(ix.s);
}

/* Record r, element k of an array moved by C: element k + C of record r
 * is record r + floor((k + C) / K), element (k + C) mod K (DLA_FDIV,
 * DLA_FMOD: constants when k is). */
static void bump_split(buf *rec, buf *el, const dla_arg *a)
{
    char *x = dla_printf("((long)%s + %s)", el->s ? el->s : "0", a->bump);
    char *r = rec->s;
    *rec = (buf){0};
    *el = (buf){0};
    putf(rec, "(%s + (size_t)DLA_FDIV(%s, %uL))", r ? r : "0", x ? x : "0",
         a->per_record);
    putf(el, "(size_t)DLA_FMOD(%s, %uL)", x ? x : "0", a->per_record);
    if (!x)
        rec->failed = 1;
    free(x);
    free(r);
}

static void element_access(emitter *e, buf *b, const edit *ed)
{
    const dla_kernel *k = ed->k;
    const dla_arg *a = ed->arg;
    const dla_access *acc = ed->acc;
    buf rec = {0}, el = {0}, ix = {0};
    if (acc->in_macro) {
        /* the index the invocation's expansion computes, from p itself */
        const dla_access *outer = e->skip;
        e->skip = acc;
        puts_(&ix, "(&(");
        render(e, &ix, acc->whole);
        putf(&ix, ") - (%s))", a->name);
        e->skip = outer;
    }
    if (acc->element_const >= 0 || acc->element_var) {
        if (acc->in_macro)
            putf(&rec, "(size_t)((%s - %ldL) / %uL)", ix.s ? ix.s : "0",
                 acc->element_const, a->per_record);
        else
            puts_(&rec, "(size_t)(");
        if (!acc->in_macro) {
            render(e, &rec, acc->record);
            puts_(&rec, ")");
        }
        if (acc->element_var) {
            puts_(&el, "(size_t)(");
            render(e, &el, acc->element);
            puts_(&el, ")");
        } else {
            putf(&el, "%ldu", acc->element_const);
        }
        if (a->bump)
            bump_split(&rec, &el, a);
    } else {
        if (acc->in_macro) {
            char *rel = ix.s;
            ix = (buf){0};
            putf(&ix, "((size_t)%s%s%s%s)", rel ? rel : "0",
                 a->bump ? " + (size_t)" : "", a->bump ? a->bump : "", "");
            free(rel);
        } else {
            index_text(e, &ix, a, acc);
        }
        putf(&rec, "(%s / %uu)", ix.s ? ix.s : "0", a->per_record);
        putf(&el, "(%s %% %uu)", ix.s ? ix.s : "0", a->per_record);
    }
    free(ix.s);
    const char *r = rec.s ? rec.s : "0", *f = el.s ? el.s : "0";
    if (a->target == DLA_TARGET_DA)
        putf(b, "(%s)[%s * dla_M_%s + %s]", a->name, f, a->name, r);
    else
        putf(b, "(%s)[DLA_ASTA_OFF(%s, DL_TILE_%s_%s, dla_M_%s, %uu, %s, 1u)]",
             a->name, r, k->name, a->name, a->name, a->per_record, f);
    free(rec.s);
    free(el.s);
}

/* get_global_id(0), get_global_size(0) and get_global_offset(0) of the
 * application's 1-D range, read from the tiled range global (T, G/T),
 * offset (0, O/T). */
static void call_replacement(buf *b, const edit *ed)
{
    const char *tile = ed->k->tiled_tile;
    switch (ed->call->kind) {
    case DLA_CALL_ID:
        putf(b, "(get_global_id(1) * (size_t)(%s) + get_global_id(0))", tile);
        break;
    case DLA_CALL_SIZE:
        puts_(b, "(get_global_size(0) * get_global_size(1))");
        break;
    case DLA_CALL_OFFSET:
        putf(b, "(get_global_offset(1) * (size_t)(%s))", tile);
        break;
    }
}

static void replacement(emitter *e, buf *b, const edit *ed)
{
    const dla_kernel *k = ed->k;
    const dla_arg *a = ed->arg;
    const dla_access *acc = ed->acc;
    if (ed->call) {
        call_replacement(b, ed);
        return;
    }
    switch (acc->kind) {
    case DLA_FIELD:
    case DLA_FIELD_ARRAY:
        field_access(e, b, ed);
        break;
    case DLA_ELEMENT:
        element_access(e, b, ed);
        break;
    case DLA_LOAD:
        putf(b, "dla_load_%s_%s((__global char *)(%s), ", k->name, a->name,
             base_ptr(e, a));
        index_text(e, b, a, acc);
        putf(b, ", dla_M_%s)", a->name);
        break;
    case DLA_STORE:
        putf(b, "dla_store_%s_%s((__global char *)(%s), ", k->name, a->name,
             base_ptr(e, a));
        index_text(e, b, a, acc);
        putf(b, ", dla_M_%s, (", a->name);
        render(e, b, acc->value);
        puts_(b, "))");
        break;
    case DLA_ALIAS_DECL:
        putf(b, "const size_t %s = ", acc->alias_name);
        index_text(e, b, a, acc);
        break;
    case DLA_CALL_NAME:
        puts_(b, acc->callee);
        break;
    case DLA_BUMP: /* its C is in every index of p */
        puts_(b, "(void)0");
        break;
    case DLA_CALL_ARG: /* the copy's pointer, record and count */
        putf(b, "%s, ", base_ptr(e, a));
        index_text(e, b, a, acc);
        putf(b, ", dla_M_%s", a->name);
        break;
    }
}

/* Copies r with every edit inside it applied (edits are sorted by begin,
 * outer ones first, and nest like the AST they come from). */
static void render(emitter *e, buf *b, dla_range r)
{
    unsigned at = r.begin;
    size_t lo = 0, hi = e->nedits; /* the first edit beginning in r */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e->edits[mid].whole.begin < r.begin)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < e->nedits; i++) {
        dla_range whole = e->edits[i].whole;
        if (whole.begin >= r.end)
            break;
        if (whole.begin < at || whole.end > r.end)
            continue;
        if (!e->tiled && e->edits[i].call)
            continue; /* the flat variant keeps the calls */
        if (e->skip && e->edits[i].acc == e->skip)
            continue;
        put(b, e->src->text + at, whole.begin - at);
        replacement(e, b, &e->edits[i]);
        at = whole.end;
    }
    put(b, e->src->text + at, r.end - at);
}

static int cmp_edit(const void *x, const void *y)
{
    dla_range a = ((const edit *)x)->whole, b = ((const edit *)y)->whole;
    if (a.begin != b.begin)
        return a.begin < b.begin ? -1 : 1;
    return (a.end < b.end) - (a.end > b.end);
}

static int transformed_args(const dla_kernel *k)
{
    int n = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        n += k->args[i].transformed;
    return n;
}

static int uses(const dla_arg *a, dla_access_kind kind)
{
    for (unsigned i = 0; i < a->naccesses; i++)
        if (a->accesses[i].kind == kind)
            return 1;
    for (unsigned h = 0; h < a->nhelpers; h++)
        for (unsigned i = 0; i < a->helpers[h].naccesses; i++)
            if (a->helpers[h].accesses[i].kind == kind)
                return 1;
    return 0;
}

/* The copy of a helper for this kernel and argument (helper.c): the
 * definition with its name changed, `size_t dla_x_q, size_t dla_M_<arg>`
 * after the pointer parameter q, and q's accesses rewritten. */
static void helper_copy(buf *b, const dla_source *src, const dla_kernel *k,
                        const dla_arg *a, const dla_helper *h)
{
    size_t n = h->naccesses + 2;
    edit *edits = calloc(n, sizeof *edits);
    char *base = dla_printf("dla_x_%s", h->param_name);
    char *extra =
        dla_printf(", size_t %s, size_t dla_M_%s", base ? base : "", a->name);
    dla_access name = {0}, param = {0};
    if (!edits || !base || !extra) {
        b->failed = 1;
        goto out;
    }
    name.kind = DLA_CALL_NAME;
    name.callee = h->copy;
    name.whole = h->fname;
    /* an empty edit at the end of the parameter: inserts `extra` */
    param.kind = DLA_CALL_NAME;
    param.callee = extra;
    param.whole = (dla_range){h->param.end, h->param.end};
    edits[0] = (edit){k, a, &name, NULL, name.whole};
    edits[1] = (edit){k, a, &param, NULL, param.whole};
    for (unsigned i = 0; i < h->naccesses; i++)
        edits[i + 2] =
            (edit){k, a, &h->accesses[i], NULL, h->accesses[i].whole};
    qsort(edits, n, sizeof *edits, cmp_edit);
    emitter e = {src, edits, n, 0, h->param_name, base, NULL};
    render(&e, b, h->decl);
    puts_(b, "\n");
out:
    free(edits);
    free(base);
    free(extra);
}

/* Whole-record copies part by part, gaps included (bit-exact). */
static void copy_helpers(buf *b, const dla_kernel *k, const dla_arg *a)
{
    const char *kn = k->name, *an = a->name;
    for (int store = 0; store < 2; store++) {
        if (!uses(a, store ? DLA_STORE : DLA_LOAD))
            continue;
        if (store)
            putf(b,
                 "static void dla_store_%s_%s(__global char *p, size_t i, "
                 "size_t M, %s r)\n{\n",
                 kn, an, a->record_type);
        else
            putf(b,
                 "static %s dla_load_%s_%s(__global char *p, size_t i, "
                 "size_t M)\n{\n    %s r;\n",
                 a->record_type, kn, an, a->record_type);
        puts_(b, "    (void)M;\n");
        for (unsigned j = 0; j < a->nparts; j++) {
            unsigned o = a->parts[j].off, z = a->parts[j].size;
            unsigned w = 4;
            while (w > 1 && (o % w || z % w || a->record_size % w))
                w /= 2;
            const char *wt = w == 4 ? "uint" : w == 2 ? "ushort" : "uchar";
            putf(b, "    for (uint b = 0; b < %uu; b++)\n        ", z / w);
            if (store)
                putf(b, "((__global %s *)(p + ", wt);
            else
                putf(b, "((__private %s *)&r)[%uu + b] = ((__global %s *)(p + ",
                     wt, o / w, wt);
            if (a->target == DLA_TARGET_DA)
                putf(b, "%uu * M + i * %uu", o, z);
            else
                putf(b, "DLA_ASTA_OFF(i, DL_TILE_%s_%s, M, %uu, %uu, %uu)", kn,
                     an, a->record_size, o, z);
            if (store)
                putf(b, "))[b] = ((__private %s *)&r)[%uu + b];\n", wt, o / w);
            else
                puts_(b, "))[b];\n");
        }
        puts_(b, store ? "}\n" : "    return r;\n}\n");
    }
}

/* Whether a transformed argument of k is a struct whose layout the
 * transformed branch checks. */
static int checks_layout(const dla_kernel *k)
{
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed && !k->args[i].scalar && k->args[i].nparts)
            return 1;
    return 0;
}

/* The record layout the annotation bakes in, checked against the type
 * the device compiler sees: its size, and each named field's offset and
 * size (an unnamed record type gets the size check only). */
static void layout_checks(buf *b, const dla_kernel *k)
{
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (!a->transformed || a->scalar || !a->nparts)
            continue;
        putf(b,
             "DLA_LAYOUT_CHECK(sizeof(*%s) == %uu, dla_layout_%s_size_%u);"
             "\n",
             a->name, a->record_size, a->name, a->record_size);
        for (unsigned j = 0; a->record_type && j < a->nparts; j++) {
            const dla_part *f = &a->parts[j];
            if (f->gap || !f->name)
                continue;
            putf(b,
                 "DLA_LAYOUT_CHECK(DLA_OFFSETOF(%s, %s) == %uu, "
                 "dla_layout_%s_%s_at_%u);\n",
                 a->record_type, f->name, f->off, a->name, f->name, f->off);
            putf(b,
                 "DLA_LAYOUT_CHECK(sizeof(((%s *)0)->%s) == %uu, "
                 "dla_layout_%s_%s_size_%u);\n",
                 a->record_type, f->name, f->size, a->name, f->name, f->size);
        }
    }
}

static void before_kernel(buf *b, const dla_source *src, const dla_kernel *k)
{
    if (k->mid_line)
        puts_(b, "\n"); /* directives start a line */
    int asta = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        asta |= k->args[i].transformed && k->args[i].target == DLA_TARGET_ASTA;
    if (asta)
        puts_(b,
              "#ifndef DLA_ASTA_OFF\n"
              "/* dl-annotate: offset of part o (size z) of record i in "
              "ASTA(T) of M records\n"
              " * of S units; the tail tile of M%T records has width M%T "
              "(docs/layouts.md). */\n"
              "#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + "
              "(o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + "
              "(i) % (T) * (z))\n"
              "#endif\n");
    puts_(b,
          "#ifndef DLA_ASSUME_GLOBAL_END\n"
          "/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as "
          "e0,e1,e2 when it\n"
          " * builds the variant for launches whose global range ends at or "
          "before e in\n"
          " * every dimension: the compiler may then drop the kernel's bounds "
          "guards. */\n"
          "#ifdef __clang__\n"
          "#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) "
          ">= (e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) "
          "__builtin_unreachable()\n"
          "#else\n"
          "#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)\n"
          "#endif\n"
          "#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)\n"
          "#endif\n");
    int bumped = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        bumped |= k->args[i].transformed && k->args[i].scalar &&
                  k->args[i].bump != NULL;
    if (bumped)
        puts_(b,
              "#ifndef DLA_FDIV\n"
              "/* dl-annotate: an array moved by `p += C`: element k + C of "
              "record r is\n"
              " * record r + DLA_FDIV(k + C, K), element DLA_FMOD(k + C, K) "
              "(floor division). */\n"
              "#define DLA_FDIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - "
              "1) / (s)))\n"
              "#define DLA_FMOD(x, s) ((x) - DLA_FDIV(x, s) * (s))\n"
              "#endif\n");
    if (checks_layout(k))
        puts_(b,
              "#ifndef DLA_LAYOUT_CHECK\n"
              "/* dl-annotate: the transformed branch checks that the record "
              "is laid out as\n"
              " * when the file was annotated (a -D option may change it): "
              "a mismatch fails\n"
              " * the activated build, and the runtime runs the program as "
              "written. */\n"
              "#define DLA_LAYOUT_CHECK(c, name) typedef char name[(c) ? 1 : "
              "-1]\n"
              "#if defined(__clang__) || defined(__GNUC__)\n"
              "#define DLA_OFFSETOF(T, f) __builtin_offsetof(T, f)\n"
              "#else\n"
              "#define DLA_OFFSETOF(T, f) ((size_t) & ((T *)0)->f)\n"
              "#endif\n"
              "#endif\n");
    if (k->tiled)
        puts_(b,
              "#ifndef DLA_ASTA_TILED\n"
              "/* dl-annotate: the same for the work-item's own record in the "
              "tiled range:\n"
              " * tile get_global_id(1), lane get_global_id(0). */\n"
              "#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * "
              "(S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : "
              "(M) % (T)) + get_global_id(0) * (z))\n"
              "#endif\n");
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (!a->transformed || a->target != DLA_TARGET_ASTA)
            continue;
        putf(b, "#ifndef DL_TILE_%s_%s\n#define DL_TILE_%s_%s %zu\n#endif\n",
             k->name, a->name, k->name, a->name, a->tile ? a->tile : 32);
    }
    int helpers = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (a->transformed && (uses(a, DLA_LOAD) || uses(a, DLA_STORE))) {
            if (!helpers++)
                putf(b, "#ifdef DL_ACTIVE_%s\n", k->name);
            copy_helpers(b, k, a);
        }
    }
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        for (unsigned h = 0; a->transformed && h < a->nhelpers; h++) {
            if (!helpers++)
                putf(b, "#ifdef DL_ACTIVE_%s\n", k->name);
            helper_copy(b, src, k, a, &a->helpers[h]);
        }
    }
    if (helpers)
        puts_(b, "#endif\n");
    if (k->tiled)
        putf(b, "%s\n", k->tiled_annotation);
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            putf(b, "%s\n", k->args[i].annotation);
}

/* The preprocessor condition of the tiled variant: every ASTA argument
 * has the same tile T, 1 < T <= DL_ANNOT_TILED_MAX_TILE.  The runtime
 * launches the kernel on the tiled range under the same condition
 * (runtime/rt/rt_reshape.c). */
static void tiled_condition(buf *b, const dla_kernel *k)
{
    putf(b, "#if %s > 1 && %s <= %d", k->tiled_tile, k->tiled_tile,
         DL_ANNOT_TILED_MAX_TILE);
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (!a->transformed || a->target != DLA_TARGET_ASTA)
            continue;
        char *macro = dla_printf("DL_TILE_%s_%s", k->name, a->name);
        if (macro && strcmp(macro, k->tiled_tile) != 0)
            putf(b, " && DL_TILE_%s_%s == %s", k->name, a->name, k->tiled_tile);
        if (!macro)
            b->failed = 1;
        free(macro);
    }
    puts_(b, "\n/* " DLA_TILED_MARK ", global (T, G/T): record i = "
             "get_global_id(1)*T + get_global_id(0) */\n");
}

/* One variant of the transformed body: the hint of the launch's global
 * range (DLA_ASSUME_GLOBAL_END, when the runtime defines it), the record
 * counts, where no local name can shadow an argument that the count
 * expression names, then the body with its accesses rewritten. */
static void variant(emitter *e, buf *b, const dla_kernel *k)
{
    if (!e->tiled) /* the tiled range is the runtime's, never specialised */
        putf(b,
             "#ifdef DL_GLOBAL_END_%s\nDLA_ASSUME_GLOBAL_END("
             "DL_GLOBAL_END_%s);\n#endif\n",
             k->name, k->name);
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (a->transformed)
            putf(b, "const size_t dla_M_%s = (size_t)%s;\n", a->name,
                 e->tiled ? a->m_code_tiled : a->m_code);
    }
    render(e, b, (dla_range){k->body.begin + 1, k->body.end - 1});
}

static int kernel_body(buf *b, const dla_source *src, const dla_kernel *k)
{
    size_t n = k->tiled ? k->ncalls : 0;
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            n += k->args[i].naccesses;
    edit *edits = calloc(n ? n : 1, sizeof *edits);
    if (!edits)
        return -1;
    n = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            for (unsigned j = 0; j < k->args[i].naccesses; j++)
                edits[n++] = (edit){k, &k->args[i], &k->args[i].accesses[j],
                                    NULL, k->args[i].accesses[j].whole};
    for (unsigned i = 0; k->tiled && i < k->ncalls; i++)
        edits[n++] = (edit){k, NULL, NULL, &k->calls[i], k->calls[i].whole};
    qsort(edits, n, sizeof *edits, cmp_edit);
    emitter e = {src, edits, n, 0, NULL, NULL, NULL};
    dla_range inner = {k->body.begin + 1, k->body.end - 1};
    putf(b, "{\n#ifdef DL_ACTIVE_%s\n", k->name);
    layout_checks(b, k);
    if (k->tiled) {
        tiled_condition(b, k);
        e.tiled = 1;
        variant(&e, b, k);
        e.tiled = 0;
        puts_(b, "\n#else\n");
    }
    variant(&e, b, k);
    if (k->tiled)
        puts_(b, "\n#endif");
    puts_(b, "\n#else\n");
    put(b, src->text + inner.begin, inner.end - inner.begin);
    puts_(b, "\n#endif\n}");
    free(edits);
    return 0;
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
                 5 gather parameters, 6 the redirected body */
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
    return b.s;
}

/* The body with each annotated read A[P[E] + c] reading its gather
 * array G[E] under DL_ACTIVE_<k>; the #else branch is the original. */
static int redirected_body(buf *b, const dla_source *src, const dla_kernel *k)
{
    dla_redirect *r = malloc(k->nredirects * sizeof *r);
    if (!r)
        return -1;
    memcpy(r, k->redirects, k->nredirects * sizeof *r);
    qsort(r, k->nredirects, sizeof *r, cmp_redirect);
    dla_range inner = {k->body.begin + 1, k->body.end - 1};
    unsigned at = inner.begin;
    putf(b, "{\n#ifdef DL_ACTIVE_%s\n", k->name);
    for (unsigned i = 0; i < k->nredirects; i++) {
        put(b, src->text + at, r[i].whole.begin - at);
        putf(b, "%s[", k->gathers[r[i].gather].name);
        put(b, src->text + r[i].index.begin, r[i].index.end - r[i].index.begin);
        puts_(b, "]");
        at = r[i].whole.end;
    }
    put(b, src->text + at, inner.end - at);
    puts_(b, "\n#else\n");
    put(b, src->text + inner.begin, inner.end - inner.begin);
    puts_(b, "\n#endif\n}");
    free(r);
    return 0;
}

/* The indirect references' annotations the kernel does not have yet,
 * one a line (written after its layout annotations), or NULL. */
static char *indirect_lines(const dla_kernel *k, int *failed)
{
    buf b = {0};
    for (unsigned i = 0; i < k->nindirect; i++)
        if (k->indirect[i].annotation && !k->indirect[i].present)
            putf(&b, "%s\n", k->indirect[i].annotation);
    *failed |= b.failed;
    return b.s;
}

char *dla_emit(const dla_program *prog, size_t *len)
{
    size_t cap = 1, n = 0;
    int failed = 0;
    for (unsigned i = 0; i < prog->nkernels; i++)
        cap += 6 + 2 * prog->kernels[i].nargs;
    change *ch = calloc(cap, sizeof *ch);
    char **lines = calloc(2 * prog->nkernels + 1, sizeof *lines);
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
        for (unsigned j = 0; j < k->nargs; j++) {
            dla_range r;
            if (k->args[j].neutral && k->args[j].user &&
                annotation_span(&prog->src, k->args[j].user->line, &r))
                ch[n++] = (change){r, k, 3, k->args[j].neutral};
        }
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
            before_kernel(&b, &prog->src, ch[i].k);
        else if (ch[i].what == 2 && kernel_body(&b, &prog->src, ch[i].k))
            b.failed = 1;
        else if (ch[i].what == 3 || ch[i].what == 4 || ch[i].what == 5)
            puts_(&b, ch[i].text ? ch[i].text : "");
        else if (ch[i].what == 6 && redirected_body(&b, &prog->src, ch[i].k))
            b.failed = 1;
        at = ch[i].r.end;
    }
    put(&b, prog->src.text + at, prog->src.len - at);
    free(ch);
    for (unsigned i = 0; i < 2 * prog->nkernels; i++)
        free(lines[i]);
    free(lines);
    b.failed |= failed;
    if (b.failed || !b.s) {
        free(b.s);
        if (!b.failed && prog->src.len == 0) {
            *len = 0;
            return calloc(1, 1);
        }
        return NULL;
    }
    *len = b.len;
    return b.s;
}
