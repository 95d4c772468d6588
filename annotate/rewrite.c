/* rewrite.c - a kernel body's accesses rewritten for the new layout. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

/* The index code follows docs/layouts.md: field o (size z) of record i
 *   DA:      byte o*M + i*z            (per-field arrays:
 *            `((T *)(p + o*M))[i]`)
 *   ASTA(T): byte q*T*S + o*w + t*z, q = i/T, t = i%T, w = T or, in
 *            the tail tile (q == M/T), R = M%T. */

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
    part_offset(b, k, a, ix.text ? ix.text : "0", acc->part_off, acc->part_size,
                a->record_size);
    if (acc->inner_off)
        putf(b, " + %uu", acc->inner_off);
    puts_(b, "))");
    free(ix.text);
}

/* Record r, element k of an array moved by C: element k + C of record r
 * is record r + floor((k + C) / K), element (k + C) mod K (DLA_FDIV,
 * DLA_FMOD: constants when k is). */
static void bump_split(buf *rec, buf *el, const dla_arg *a)
{
    char *x = dla_printf("((long)%s + %s)", el->text ? el->text : "0", a->bump);
    char *r = rec->text;
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
            putf(&rec, "(size_t)((%s - %ldL) / %uL)", ix.text ? ix.text : "0",
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
            char *rel = ix.text;
            ix = (buf){0};
            putf(&ix, "((size_t)%s%s%s%s)", rel ? rel : "0",
                 a->bump ? " + (size_t)" : "", a->bump ? a->bump : "", "");
            free(rel);
        } else {
            index_text(e, &ix, a, acc);
        }
        putf(&rec, "(%s / %uu)", ix.text ? ix.text : "0", a->per_record);
        putf(&el, "(%s %% %uu)", ix.text ? ix.text : "0", a->per_record);
    }
    free(ix.text);
    const char *r = rec.text ? rec.text : "0", *f = el.text ? el.text : "0";
    if (a->target == DLA_TARGET_DA)
        putf(b, "(%s)[%s * dla_M_%s + %s]", a->name, f, a->name, r);
    else
        putf(b, "(%s)[DLA_ASTA_OFF(%s, DL_TILE_%s_%s, dla_M_%s, %uu, %s, 1u)]",
             a->name, r, k->name, a->name, a->name, a->per_record, f);
    free(rec.text);
    free(el.text);
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

/* The copy of a helper for this kernel and argument (helper.c): the
 * definition with its name changed, `size_t dla_x_q, size_t dla_M_<arg>`
 * after the pointer parameter q, and q's accesses rewritten. */
void dla_emit_helper_copy(buf *b, const dla_source *src, const dla_kernel *k,
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

/* The preprocessor condition of the tiled variant: every ASTA argument
 * has the same tile T, 1 < T <= DL_ANNOT_TILED_MAX_TILE, and the runtime
 * did not ask for the flat form (DL_FLAT_<kernel>: a range it cannot
 * tile).  The runtime launches the kernel on the tiled range under the
 * same condition (runtime/rt/rt_reshape.c). */
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
    putf(b, " && !defined(DL_FLAT_%s)", k->name);
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
        if (!a->transformed)
            continue;
        if (e->tiled || a->target != DLA_TARGET_DA) {
            putf(b, "const size_t dla_M_%s = (size_t)%s;\n", a->name,
                 e->tiled ? a->m_code_tiled : a->m_code);
            continue;
        }
        /* DA's field stride: the count, plus the pad in records of an
         * offset DA that the runtime may define (docs/layouts.md). */
        putf(b,
             "#ifndef DLA_PAD_%s_%s\n#define DLA_PAD_%s_%s 0\n#endif\n"
             "const size_t dla_M_%s = (size_t)%s + DLA_PAD_%s_%s;\n",
             k->name, a->name, k->name, a->name, a->name, a->m_code, k->name,
             a->name);
    }
    render(e, b, (dla_range){k->body.begin + 1, k->body.end - 1});
}

int dla_emit_body(buf *b, const dla_source *src, const dla_kernel *k)
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
