/*
 * dlayout_irregular.h - public API of libdlayout for irregular references
 * such as A[P[i] + c]: count the memory transactions an index array causes,
 * before and after reorganisation (docs/irregular.md).
 *
 * The metric is the one of the irregular-access papers: for each group of
 * W consecutive work-items (a warp) executing one load or store, the number
 * of distinct S-byte memory segments it touches.
 */
#ifndef DLAYOUT_IRREGULAR_H
#define DLAYOUT_IRREGULAR_H

#include "dlayout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* W work-items per warp (SIMD width), S bytes per memory segment. */
typedef struct dl_coalesce_geometry {
    unsigned simd_width;    /* W */
    unsigned segment_bytes; /* S */
} dl_coalesce_geometry;

/* The data array A and the part of its element one reference reads.  For
 * a whole element: field_offset 0 and field_bytes elem_bytes (or 0). */
typedef struct dl_coalesce_ref {
    size_t elem_bytes;   /* bytes of one element (record) of A          */
    size_t field_offset; /* first byte read inside the element          */
    size_t field_bytes;  /* bytes read; 0 means the whole element       */
    long long offset;    /* c in A[P[e] + c]                            */
} dl_coalesce_ref;

/* Which entries of P the work-items read: work-item t in [0, threads) at
 * step j in [0, steps) reads A[P[e] + c] with
 *   e = base + t * t_stride + j * j_stride.
 * A[P[tid]] is {threads, 1, 0, 1, 0}; ELL's column-major x[col[j*rows +
 * row]] is {rows, width, 0, 1, rows}.  Lanes whose e falls outside P are
 * inactive: they touch nothing. */
typedef struct dl_coalesce_range {
    size_t threads;
    size_t steps;
    size_t base;
    size_t t_stride;
    size_t j_stride;
} dl_coalesce_range;

typedef struct dl_coalesce_counts {
    uint64_t accesses; /* warp-accesses with at least one active lane     */
    uint64_t before;   /* transactions reading A[P[e] + c], A aligned to S */
    uint64_t after;    /* transactions of the duplication layout
                          A'[e] = A[P[e] + c], A' aligned to S            */
} dl_coalesce_counts;

/* Counts the transactions of one reference over `index`, index_count
 * signed integers of index_bytes (4 or 8) bytes in host byte order.
 * DL_INVALID_ARGUMENT for a zero W, S or element size, a field outside the
 * element, or an element address that does not fit 64 bits. */
DL_API dl_status dl_coalesce_count(const dl_coalesce_geometry *geometry,
                                   const dl_coalesce_ref *ref,
                                   const dl_coalesce_range *range,
                                   const void *index, size_t index_count,
                                   unsigned index_bytes,
                                   dl_coalesce_counts *out);

/* A row-bounded loop (CSR): work-item t in [0, threads) reads A[P[e] + c]
 * for e = begin[t], begin[t] + 1, ..., end[t] - 1, one entry per step, so
 * that at step j its lane reads entry begin[t] + j while j < end[t] -
 * begin[t].  begin and end hold `threads` signed integers of bound_bytes
 * (4 or 8) bytes each; for a CSR row pointer, begin = rowptr and end =
 * rowptr + 1.  A lane past its row, or whose entry falls outside P, is
 * inactive. */
typedef struct dl_coalesce_rows {
    size_t threads;
    const void *begin, *end;
    unsigned bound_bytes;
} dl_coalesce_rows;

/* dl_coalesce_count for a row-bounded loop: per warp and step, the
 * distinct segments of the active lanes, before (A[P[e] + c]) and after
 * (the duplication layout A'[e] = A[P[e] + c], read at the same e). */
DL_API dl_status dl_coalesce_count_rows(const dl_coalesce_geometry *geometry,
                                        const dl_coalesce_ref *ref,
                                        const dl_coalesce_rows *rows,
                                        const void *index, size_t index_count,
                                        unsigned index_bytes,
                                        dl_coalesce_counts *out);

/* "W=32 S=128: 4.1 -> 1.0 transactions per warp-access (75.6% fewer)"
 * into buf, truncated to size; returns the length snprintf would. */
DL_API int dl_coalesce_format(const dl_coalesce_geometry *geometry,
                              const dl_coalesce_counts *counts, char *buf,
                              size_t size);

/* The geometry of a device class.  GPU: W = 32, S = 128.  CPU: W = the
 * work-items one SIMD load serves when POCL-style work-group vectorisation
 * runs work-items in the SIMD lanes, for loads of load_bytes; S = 64, the
 * cache line (docs/irregular.md says why). */
DL_API dl_coalesce_geometry dl_coalesce_geometry_gpu(void);
DL_API dl_coalesce_geometry dl_coalesce_geometry_cpu(unsigned simd_bytes,
                                                     size_t load_bytes);

/* The geometry for `device`: GPU class unless CL_DEVICE_TYPE is CPU; for a
 * CPU, the SIMD width from CL_DEVICE_PREFERRED_VECTOR_WIDTH_* for loads of
 * load_bytes, S from CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE (64 if 0). */
DL_API dl_status dl_coalesce_geometry_for_device(cl_device_id device,
                                                 size_t load_bytes,
                                                 dl_coalesce_geometry *out);

#ifdef __cplusplus
}
#endif

#endif
