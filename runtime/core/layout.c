/* layout.c - the ASTA(T) family: geometry, the accessor, validation, and
 * the host reference conversion everything else is checked against. */
#include "error.h"
#include "record.h"

#include <stdlib.h>
#include <string.h>

dl_layout dl_layout_aos(const dl_record *record, size_t count)
{
    return (dl_layout){record, count, 1, 0};
}

dl_layout dl_layout_da(const dl_record *record, size_t count)
{
    return (dl_layout){record, count, DL_TILE_DA, 0};
}

dl_layout dl_layout_asta(const dl_record *record, size_t count, size_t tile)
{
    return (dl_layout){record, count, tile, 0};
}

dl_layout dl_layout_da_offset(const dl_record *record, size_t count,
                              size_t stride)
{
    return (dl_layout){record, count, DL_TILE_DA, stride};
}

dl_status dl_layout_tall(uint32_t elem_size, size_t rows, uint32_t cols,
                         size_t tile, dl_record **record_out,
                         dl_layout *layout_out)
{
    DL_RETURN_ERROR_ON(!record_out || !layout_out, DL_INVALID_ARGUMENT,
                       "tall-array outputs are NULL");
    DL_RETURN_IF_FAIL(dl_record_create_uniform(cols, elem_size, record_out));
    *layout_out = dl_layout_asta(*record_out, rows, tile);
    return DL_SUCCESS;
}

size_t dl_layout_tile(const dl_layout *l)
{
    size_t cap = l->count ? l->count : 1;
    return l->tile < cap ? l->tile : cap;
}

size_t dl_layout_span(const dl_layout *l)
{
    return l->stride > l->count ? l->stride : l->count;
}

/* The layout of `span` records that `l` is the first count records of:
 * an offset DA of M records with stride M' is the DA of M' records, and a
 * partner spanning fewer (AoS, checked by the caller) is AoS(M'). */
static dl_layout spanned(const dl_layout *l, size_t span)
{
    size_t tile = l->tile >= span ? DL_TILE_DA : l->tile;
    if (dl_layout_span(l) < span)
        tile = 1;
    return (dl_layout){l->record, span, tile, 0};
}

dl_geometry dl_layout_geometry(const dl_layout *l)
{
    dl_layout s = spanned(l, dl_layout_span(l));
    dl_geometry g;
    g.count = s.count;
    g.tile = dl_layout_tile(&s);
    g.full = g.count / g.tile;
    g.rest = g.count % g.tile;
    return g;
}

dl_kind dl_layout_kind(const dl_layout *l)
{
    size_t t = dl_layout_tile(l);
    if (t == 1)
        return DL_KIND_AOS;
    return t >= l->count ? DL_KIND_DA : DL_KIND_ASTA;
}

dl_status dl_layout_check(const dl_layout *l)
{
    DL_RETURN_ERROR_ON(!l, DL_INVALID_ARGUMENT, "layout is NULL");
    DL_RETURN_ERROR_ON(!l->record, DL_INVALID_ARGUMENT,
                       "layout has no record description");
    DL_RETURN_ERROR_ON(l->tile == 0, DL_INVALID_LAYOUT,
                       "tile size T must be at least 1");
    size_t span = dl_layout_span(l);
    DL_RETURN_ERROR_ON(span > SIZE_MAX / l->record->size, DL_SIZE_OVERFLOW,
                       "%zu records of %u bytes overflow the address space",
                       span, l->record->size);
    DL_RETURN_ERROR_ON(l->stride && l->stride < l->count, DL_INVALID_LAYOUT,
                       "field stride %zu is below the count %zu", l->stride,
                       l->count);
    DL_RETURN_ERROR_ON(span > l->count && l->tile < span, DL_INVALID_LAYOUT,
                       "a field stride (%zu records for %zu) needs DA",
                       l->stride, l->count);
    return DL_SUCCESS;
}

size_t dl_layout_bytes(const dl_layout *l)
{
    if (dl_layout_check(l) != DL_SUCCESS)
        return 0;
    return dl_layout_span(l) * l->record->size;
}

/* Tile q starts at q*T*size.  Inside a tile of width w (T, or R for the
 * partial last tile) part p of the record at slot t sits at
 * offset(p)*w + t*size(p): each part becomes a w-element array. */
size_t dl_part_offset(const dl_record *rec, const dl_geometry *g, size_t i,
                      uint32_t part)
{
    size_t q = i / g->tile, t = i % g->tile;
    size_t width = q < g->full ? g->tile : g->rest;
    const dl_field *p = &rec->parts[part];
    return q * g->tile * rec->size + (size_t)p->offset * width +
           t * (size_t)p->size;
}

dl_status dl_layout_offset(const dl_layout *l, size_t index, uint32_t field,
                           size_t *offset)
{
    DL_RETURN_IF_FAIL(dl_layout_check(l));
    DL_RETURN_ERROR_ON(!offset, DL_INVALID_ARGUMENT, "offset output is NULL");
    DL_RETURN_ERROR_ON(index >= l->count, DL_INVALID_ARGUMENT,
                       "record %zu is out of range (count %zu)", index,
                       l->count);
    DL_RETURN_ERROR_ON(field >= l->record->nfields, DL_INVALID_ARGUMENT,
                       "field %u is out of range (%u fields)", field,
                       l->record->nfields);
    dl_geometry g = dl_layout_geometry(l); /* of the spanned layout */
    const dl_field f = l->record->fields[field];
    size_t q = index / g.tile, t = index % g.tile;
    size_t width = q < g.full ? g.tile : g.rest;
    *offset = q * g.tile * l->record->size + (size_t)f.offset * width +
              t * (size_t)f.size;
    return DL_SUCCESS;
}

/* Checks that two layouts describe the same data, only arranged
 * differently. */
dl_status dl_layouts_compatible(const dl_layout *from, const dl_layout *to)
{
    DL_RETURN_IF_FAIL(dl_layout_check(from));
    DL_RETURN_IF_FAIL(dl_layout_check(to));
    DL_RETURN_ERROR_ON(from->count != to->count, DL_INCOMPATIBLE,
                       "layouts hold different record counts (%zu vs %zu)",
                       from->count, to->count);
    const dl_record *a = from->record, *b = to->record;
    if (a == b)
        return DL_SUCCESS;
    int same = a->size == b->size && a->nparts == b->nparts;
    for (uint32_t i = 0; same && i < a->nparts; i++)
        same = a->parts[i].offset == b->parts[i].offset &&
               a->parts[i].size == b->parts[i].size;
    DL_RETURN_ERROR_ON(!same, DL_INCOMPATIBLE,
                       "layouts describe different records");
    return DL_SUCCESS;
}

/* An offset DA of M records (stride M') converts as the DA of M'
 * records: the slack's bytes move with the data, a permutation of the
 * first M'*S bytes that the inverse undoes.  Its partner must span M'
 * records too, which only AoS (the first M of AoS(M')) does. */
dl_status dl_layouts_spanned(const dl_layout *from, const dl_layout *to,
                             dl_layout *from_out, dl_layout *to_out)
{
    DL_RETURN_IF_FAIL(dl_layouts_compatible(from, to));
    size_t a = dl_layout_span(from), b = dl_layout_span(to);
    size_t span = a > b ? a : b;
    int a_fits = a == span || dl_layout_kind(from) == DL_KIND_AOS;
    int b_fits = b == span || dl_layout_kind(to) == DL_KIND_AOS;
    DL_RETURN_ERROR_ON(!a_fits || !b_fits, DL_UNSUPPORTED,
                       "an offset DA (field stride %zu records) converts "
                       "only to and from AoS or the same offset DA",
                       span);
    *from_out = spanned(from, span);
    *to_out = spanned(to, span);
    return DL_SUCCESS;
}

dl_status dl_convert_host(void *data, size_t size, const dl_layout *from_in,
                          const dl_layout *to_in)
{
    dl_layout f, t;
    DL_RETURN_IF_FAIL(dl_layouts_spanned(from_in, to_in, &f, &t));
    const dl_layout *from = &f, *to = &t;
    size_t bytes = dl_layout_bytes(from);
    DL_RETURN_ERROR_ON(!data && bytes, DL_INVALID_ARGUMENT, "data is NULL");
    DL_RETURN_ERROR_ON(size < bytes, DL_BUFFER_TOO_SMALL,
                       "buffer of %zu bytes is smaller than the layout "
                       "(%zu bytes)",
                       size, bytes);
    if (bytes == 0)
        return DL_SUCCESS;
    unsigned char *tmp = malloc(bytes);
    DL_RETURN_ERROR_ON(!tmp, DL_OUT_OF_MEMORY,
                       "cannot allocate %zu bytes for the host conversion",
                       bytes);
    const dl_record *rec = from->record;
    dl_geometry gf = dl_layout_geometry(from), gt = dl_layout_geometry(to);
    for (size_t i = 0; i < from->count; i++)
        for (uint32_t p = 0; p < rec->nparts; p++)
            memcpy(tmp + dl_part_offset(rec, &gt, i, p),
                   (unsigned char *)data + dl_part_offset(rec, &gf, i, p),
                   rec->parts[p].size);
    memcpy(data, tmp, bytes);
    free(tmp);
    return DL_SUCCESS;
}
