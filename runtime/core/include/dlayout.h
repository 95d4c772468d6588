/*
 * dlayout.h - public API of libdlayout: describe record layouts of the
 * ASTA(T) family and convert OpenCL buffers between them in place.
 *
 * Layout family (docs/layouts.md has the full definition):
 *   A buffer holds `count` (M) records.  ASTA(T) groups records in tiles of
 *   T; inside a tile every field becomes a T-element array.  AoS is ASTA(1)
 *   and DA is ASTA(M).  When M is not a multiple of T the last, partial tile
 *   of R = M % T records is stored as ASTA(R), i.e. as a mini-DA, so every
 *   layout of the family occupies exactly M * record_size bytes.  An
 *   offset DA (dl_layout_da_offset) is the DA of M' > M records whose first
 *   M are the data: M' * record_size bytes, which needs slack in the buffer.
 */
#ifndef DLAYOUT_H
#define DLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Only the functions below are exported from libdlayout. */
#if defined(__GNUC__)
#define DL_API __attribute__((visibility("default")))
#else
#define DL_API
#endif

/* Every function that can fail returns one of these.  dl_last_error() gives
 * a message for the last failure in the calling thread. */
typedef enum dl_status {
    DL_SUCCESS = 0,
    DL_INVALID_ARGUMENT = -1, /* NULL handle, bad enum value, zero size    */
    DL_INVALID_LAYOUT = -2,   /* record or layout description inconsistent */
    DL_INCOMPATIBLE = -3,     /* the two layouts differ in record or count */
    DL_UNSUPPORTED = -4,      /* valid, but not supported (size, algorithm) */
    DL_BUFFER_TOO_SMALL = -5, /* cl_mem smaller than the described layout   */
    DL_SIZE_OVERFLOW = -6,    /* count * record size does not fit a size_t  */
    DL_OUT_OF_MEMORY = -7,
    DL_OPENCL_ERROR = -8, /* an OpenCL call failed; message has the code */
    DL_BUILD_ERROR = -9   /* a marshaling kernel failed to compile      */
} dl_status;

DL_API const char *dl_status_name(dl_status status);
DL_API const char *dl_last_error(void);

/* ---------------------------------------------------------------- records */

#define DL_MAX_FIELDS     4096u /* fields per record                        */
#define DL_MAX_FIELD_SIZE 4096u /* bytes per field                          */

typedef struct dl_field {
    uint32_t offset; /* byte offset of the field inside the AoS record */
    uint32_t size;   /* bytes; vector fields (float4) count as one     */
} dl_field;

typedef struct dl_record dl_record;

/* Fields may come in any order but must not overlap.  record_size is the
 * AoS stride (sizeof the C struct); 0 means "end of the last field".  Gaps
 * (C padding) are kept bit-exact: they move like fields of their own. */
DL_API dl_status dl_record_create(const dl_field *fields, uint32_t nfields,
                                  uint32_t record_size, dl_record **out);
/* nfields fields of field_size bytes each, packed. */
DL_API dl_status dl_record_create_uniform(uint32_t nfields, uint32_t field_size,
                                          dl_record **out);
DL_API void dl_record_retain(dl_record *record);
DL_API void dl_record_release(dl_record *record);
DL_API uint32_t dl_record_size(const dl_record *record);
DL_API uint32_t dl_record_nfields(const dl_record *record);
DL_API dl_field dl_record_field(const dl_record *record, uint32_t index);

/* ---------------------------------------------------------------- layouts */

typedef enum dl_kind { DL_KIND_AOS, DL_KIND_ASTA, DL_KIND_DA } dl_kind;

#define DL_TILE_DA SIZE_MAX /* any tile >= count means DA */

typedef struct dl_layout {
    const dl_record *record;
    size_t count; /* M: number of records                                */
    size_t tile;  /* T: 1 = AoS, >= count (or DL_TILE_DA) = DA, 0 invalid */
    /* DA only, 0 = count: the field stride in records (M' >= M).  Offset
     * DA is the DA of M' records whose first M are the data: part o starts
     * at byte o*M' instead of o*M, which keeps the field arrays of a count
     * that is a multiple of 4 KiB apart from aliasing.  It needs
     * M'*record_size bytes, i.e. slack in the buffer (docs/layouts.md). */
    size_t stride;
} dl_layout;

DL_API dl_layout dl_layout_aos(const dl_record *record, size_t count);
DL_API dl_layout dl_layout_da(const dl_record *record, size_t count);
DL_API dl_layout dl_layout_asta(const dl_record *record, size_t count,
                                size_t tile);
/* Offset DA: DA whose field arrays are `stride` records apart (>= count). */
DL_API dl_layout dl_layout_da_offset(const dl_record *record, size_t count,
                                     size_t stride);
/* A tall M x K row-major matrix of elem-byte scalars (e.g. an ELL matrix)
 * is an AoS of K equal fields; its tiled transpose is ASTA(T).  The record
 * is created for the caller, who releases it. */
DL_API dl_status dl_layout_tall(uint32_t elem_size, size_t rows, uint32_t cols,
                                size_t tile, dl_record **record_out,
                                dl_layout *layout_out);

DL_API dl_status dl_layout_check(const dl_layout *layout);
DL_API dl_kind dl_layout_kind(const dl_layout *layout);
/* T as the layout really uses it: min(tile, max(count, 1)). */
DL_API size_t dl_layout_tile(const dl_layout *layout);
/* Records the layout spans: the field stride of an offset DA, else count. */
DL_API size_t dl_layout_span(const dl_layout *layout);
DL_API size_t dl_layout_bytes(const dl_layout *layout);
/* Byte offset of field `field` of record `index` (the accessor). */
DL_API dl_status dl_layout_offset(const dl_layout *layout, size_t index,
                                  uint32_t field, size_t *offset);

/* Host reference conversion (out of place internally, bit-exact). */
DL_API dl_status dl_convert_host(void *data, size_t size, const dl_layout *from,
                                 const dl_layout *to);

/* ----------------------------------------------------------------- engine */

/* One engine per (context, device): it owns the cache of specialised
 * marshaling programs.  Thread-safe. */
typedef struct dl_engine dl_engine;

DL_API dl_status dl_engine_create(cl_context context, cl_device_id device,
                                  dl_engine **out);
DL_API void dl_engine_release(dl_engine *engine);

typedef struct dl_engine_stats {
    uint64_t programs_built; /* compilations; a repeated shape adds none */
    uint64_t conversions;    /* plans enqueued                           */
    uint64_t launches;       /* kernels and fills enqueued               */
} dl_engine_stats;
DL_API void dl_engine_get_stats(const dl_engine *engine,
                                dl_engine_stats *stats);

/* ------------------------------------------------------------- conversion */

typedef enum dl_algo {
    DL_ALGO_AUTO = 0, /* chosen from the shape and the device limits        */
    DL_ALGO_BS,       /* barrier-sync tile transpose (AoS<->ASTA)           */
    DL_ALGO_PTTWAC,   /* cycle following with atomic done bits              */
    DL_ALGO_PIPT,     /* one work-group per cycle (baseline)                */
    DL_ALGO_OOP       /* out of place through a temporary (baseline)        */
} dl_algo;

DL_API const char *dl_algo_name(dl_algo algo);
/* "auto", "bs", "pttwac", "pipt", "oop"; returns DL_INVALID_ARGUMENT else. */
DL_API dl_status dl_algo_parse(const char *name, dl_algo *algo);

typedef struct dl_plan dl_plan;

/* Validates both layouts and compiles (or reuses) every kernel the
 * conversion needs.  `algo` overrides the automatic choice for every step
 * it can serve (other steps stay automatic); DL_UNSUPPORTED if it can
 * serve none of them. */
DL_API dl_status dl_plan_create(dl_engine *engine, const dl_layout *from,
                                const dl_layout *to, dl_algo algo,
                                dl_plan **out);
DL_API void dl_plan_release(dl_plan *plan);
/* Device memory the conversion allocates beyond the buffer (done bits). */
DL_API size_t dl_plan_extra_bytes(const dl_plan *plan);
/* Human-readable list of steps, e.g. "bs(T=16) -> pttwac-tiles(T=16)". */
DL_API const char *dl_plan_describe(const dl_plan *plan);

/* Converts `buffer` in place on `queue`.  The conversion waits for
 * `wait_list`; `event`, if not NULL, completes when it is done.  Everything
 * is validated before the first command is enqueued. */
DL_API dl_status dl_plan_enqueue(dl_plan *plan, cl_command_queue queue,
                                 cl_mem buffer, cl_uint num_events,
                                 const cl_event *wait_list, cl_event *event);

/* Plan (cached in the engine), then enqueue. */
DL_API dl_status dl_enqueue_convert(dl_engine *engine, cl_command_queue queue,
                                    cl_mem buffer, const dl_layout *from,
                                    const dl_layout *to, dl_algo algo,
                                    cl_uint num_events,
                                    const cl_event *wait_list, cl_event *event);

#ifdef __cplusplus
}
#endif
#endif /* DLAYOUT_H */
