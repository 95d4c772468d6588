/* record.h - the internal view of a record: its fields plus the padding
 * gaps between them ("parts"), and the word size the kernels move. */
#ifndef DL_RECORD_H
#define DL_RECORD_H

#include "dlayout.h"

struct dl_record {
    int refs;
    uint32_t size;    /* AoS stride in bytes                              */
    uint32_t nfields; /* user fields, in the order they were given        */
    dl_field *fields;
    uint32_t nparts; /* fields and gaps, sorted, covering [0, size)      */
    dl_field *parts;
    uint32_t word;      /* W: largest of 16,8,4,2,1 dividing every part     */
    uint32_t rec_words; /* size / word                                      */
    int uniform;        /* every part is exactly one word: pure transposes  */
};

/* Word-level geometry of a layout, shared by the reference and planner. */
typedef struct dl_geometry {
    size_t count; /* M */
    size_t tile;  /* effective T, 1..max(M,1) */
    size_t full;  /* Q = M / T full tiles */
    size_t rest;  /* R = M % T records in the partial last tile */
} dl_geometry;

dl_geometry dl_layout_geometry(const dl_layout *layout);

/* Byte offset of part p of record i (no validation). */
size_t dl_part_offset(const dl_record *rec, const dl_geometry *g, size_t i,
                      uint32_t part);

#endif
