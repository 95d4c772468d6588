/* record.c - record descriptions: validation, padding parts, word size. */
#include "record.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

static int by_offset(const void *a, const void *b)
{
    const dl_field *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Sorts the fields, inserts a part for every gap and checks overlap. */
static dl_status build_parts(dl_record *r)
{
    dl_field *sorted = malloc(r->nfields * sizeof *sorted);
    DL_RETURN_ERROR_ON(!sorted, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(sorted, r->fields, r->nfields * sizeof *sorted);
    qsort(sorted, r->nfields, sizeof *sorted, by_offset);

    r->parts = malloc((2 * (size_t)r->nfields + 1) * sizeof *r->parts);
    if (!r->parts) {
        free(sorted);
        return dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    }
    uint32_t end = 0, n = 0;
    for (uint32_t i = 0; i < r->nfields; i++) {
        if (sorted[i].offset < end) {
            uint32_t offset = sorted[i].offset;
            free(sorted);
            return dl_fail(DL_INVALID_LAYOUT,
                           "field at offset %u overlaps the previous field "
                           "(which ends at %u)",
                           offset, end);
        }
        if (sorted[i].offset > end)
            r->parts[n++] = (dl_field){end, sorted[i].offset - end};
        r->parts[n++] = sorted[i];
        end = sorted[i].offset + sorted[i].size;
    }
    free(sorted);
    if (r->size == 0)
        r->size = end;
    DL_RETURN_ERROR_ON(r->size < end, DL_INVALID_LAYOUT,
                       "record size %u is smaller than the end of its last "
                       "field (%u)",
                       r->size, end);
    if (r->size > end)
        r->parts[n++] = (dl_field){end, r->size - end};
    r->nparts = n;

    uint32_t g = 0;
    for (uint32_t i = 0; i < n; i++)
        g = gcd32(g, r->parts[i].size);
    r->word = 16;
    while (g % r->word)
        r->word /= 2;
    r->rec_words = r->size / r->word;
    r->uniform = 1;
    for (uint32_t i = 0; i < n; i++)
        if (r->parts[i].size != r->word)
            r->uniform = 0;
    return DL_SUCCESS;
}

/* A record has 1 to DL_MAX_FIELDS fields. */
static dl_status check_field_count(uint32_t nfields)
{
    DL_RETURN_ERROR_ON(nfields == 0, DL_INVALID_LAYOUT,
                       "a record needs at least one field");
    DL_RETURN_ERROR_ON(nfields > DL_MAX_FIELDS, DL_UNSUPPORTED,
                       "%u fields exceed the limit of %u", nfields,
                       DL_MAX_FIELDS);
    return DL_SUCCESS;
}

dl_status dl_record_create(const dl_field *fields, uint32_t nfields,
                           uint32_t record_size, dl_record **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "record output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!fields, DL_INVALID_ARGUMENT, "field list is NULL");
    DL_RETURN_IF_FAIL(check_field_count(nfields));
    for (uint32_t i = 0; i < nfields; i++) {
        DL_RETURN_ERROR_ON(fields[i].size == 0, DL_INVALID_LAYOUT,
                           "field %u has size 0", i);
        DL_RETURN_ERROR_ON(fields[i].size > DL_MAX_FIELD_SIZE, DL_UNSUPPORTED,
                           "field %u has size %u, above the limit of %u", i,
                           fields[i].size, DL_MAX_FIELD_SIZE);
        DL_RETURN_ERROR_ON(fields[i].offset > UINT32_MAX / 2, DL_SIZE_OVERFLOW,
                           "field %u offset %u is too large", i,
                           fields[i].offset);
    }
    dl_record *r = calloc(1, sizeof *r);
    DL_RETURN_ERROR_ON(!r, DL_OUT_OF_MEMORY, "out of host memory");
    r->refs = 1;
    r->size = record_size;
    r->nfields = nfields;
    r->fields = malloc(nfields * sizeof *fields);
    dl_status st = r->fields ? DL_SUCCESS
                             : dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
    if (st == DL_SUCCESS) {
        memcpy(r->fields, fields, nfields * sizeof *fields);
        st = build_parts(r);
    }
    if (st != DL_SUCCESS) {
        dl_record_release(r);
        return st;
    }
    *out = r;
    return DL_SUCCESS;
}

dl_status dl_record_create_uniform(uint32_t nfields, uint32_t field_size,
                                   dl_record **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "record output is NULL");
    *out = NULL;
    DL_RETURN_IF_FAIL(check_field_count(nfields));
    dl_field *f = malloc(nfields * sizeof *f);
    DL_RETURN_ERROR_ON(!f, DL_OUT_OF_MEMORY, "out of host memory");
    for (uint32_t i = 0; i < nfields; i++)
        f[i] = (dl_field){i * field_size, field_size};
    dl_status st = dl_record_create(f, nfields, 0, out);
    free(f);
    return st;
}

void dl_record_retain(dl_record *record)
{
    if (record)
        __atomic_add_fetch(&record->refs, 1, __ATOMIC_RELAXED);
}

void dl_record_release(dl_record *record)
{
    if (!record || __atomic_sub_fetch(&record->refs, 1, __ATOMIC_ACQ_REL))
        return;
    free(record->fields);
    free(record->parts);
    free(record);
}

uint32_t dl_record_size(const dl_record *r)
{
    return r ? r->size : 0;
}
uint32_t dl_record_nfields(const dl_record *r)
{
    return r ? r->nfields : 0;
}

dl_field dl_record_field(const dl_record *r, uint32_t index)
{
    if (!r || index >= r->nfields)
        return (dl_field){0, 0};
    return r->fields[index];
}
