/* fields.c - a record as Clang lays it out: its fields, sorted, with
 * the gaps (padding) between and after them, and its type as code. */
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct field_list {
    dla_part *parts;
    unsigned n, cap;
    int bitfield;
    CXType record;
} field_list;

static enum CXChildVisitResult collect_field(CXCursor c, CXCursor parent,
                                             CXClientData data)
{
    (void)parent;
    field_list *fl = data;
    if (clang_getCursorKind(c) != CXCursor_FieldDecl)
        return CXChildVisit_Continue;
    if (clang_Cursor_isBitField(c)) {
        fl->bitfield = 1;
        return CXChildVisit_Continue;
    }
    if (fl->n == fl->cap) {
        fl->cap = fl->cap ? 2 * fl->cap : 16;
        dla_part *p = realloc(fl->parts, fl->cap * sizeof *p);
        if (!p) {
            fl->bitfield = 1;
            return CXChildVisit_Break;
        }
        fl->parts = p;
    }
    long long bits = clang_Cursor_getOffsetOfField(c);
    long long size = clang_Type_getSizeOf(clang_getCursorType(c));
    if (bits < 0 || size <= 0 || bits % 8) {
        fl->bitfield = 1;
        return CXChildVisit_Continue;
    }
    char *name = dla_spelling(c);
    if (name && !*name) { /* an anonymous struct or union member */
        free(name);
        name = NULL;
    }
    fl->parts[fl->n++] =
        (dla_part){(unsigned)(bits / 8), (unsigned)size, 0, name};
    return CXChildVisit_Continue;
}

static int cmp_part(const void *x, const void *y)
{
    const dla_part *a = x, *b = y;
    return (a->off > b->off) - (a->off < b->off);
}

/* Fields from Clang, sorted, with the gaps between and after them. */
int record_parts(dla_arg *a, CXType pointee)
{
    CXType rec = clang_getCanonicalType(pointee);
    CXCursor decl = clang_getTypeDeclaration(rec);
    field_list fl = {0};
    fl.record = rec;
    clang_visitChildren(decl, collect_field, &fl);
    long long size = clang_Type_getSizeOf(rec);
    if (fl.bitfield || fl.n == 0 || size <= 0) {
        for (unsigned j = 0; j < fl.n; j++)
            free(fl.parts[j].name);
        free(fl.parts);
        return decline(a, fl.bitfield ? "the record has bit-fields"
                                      : "the record has no fields");
    }
    qsort(fl.parts, fl.n, sizeof *fl.parts, cmp_part);
    a->parts = calloc(2 * fl.n + 1, sizeof *a->parts);
    if (!a->parts) {
        free(fl.parts);
        return decline(a, "out of memory");
    }
    unsigned at = 0;
    for (unsigned i = 0; i < fl.n; i++) {
        if (fl.parts[i].off < at) { /* overlapping: a union inside */
            for (unsigned j = 0; j < fl.n; j++)
                free(fl.parts[j].name);
            free(fl.parts);
            return decline(a, "the record has overlapping fields");
        }
        if (fl.parts[i].off > at)
            a->parts[a->nparts++] =
                (dla_part){at, fl.parts[i].off - at, 1, NULL};
        a->parts[a->nparts++] = fl.parts[i];
        at = fl.parts[i].off + fl.parts[i].size;
    }
    if (at < (unsigned)size)
        a->parts[a->nparts++] = (dla_part){at, (unsigned)size - at, 1, NULL};
    a->nfields = fl.n;
    a->record_size = (unsigned)size;
    free(fl.parts);
    return 0;
}

/* The name of the record type as code, or NULL (anonymous struct). */
char *record_type_name(CXType pointee)
{
    CXType t = pointee;
    if (t.kind == CXType_Elaborated)
        t = clang_Type_getNamedType(t);
    if (t.kind == CXType_Typedef) {
        CXString s = clang_getTypedefName(t);
        char *r = dla_strdup(clang_getCString(s));
        clang_disposeString(s);
        return r;
    }
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (clang_Cursor_isAnonymous(decl))
        return NULL;
    char *name = dla_spelling(decl);
    if (!name || !*name || strchr(name, ' ')) {
        free(name);
        return NULL;
    }
    char *r = dla_printf("struct %s", name);
    free(name);
    return r;
}
