/* gather.h - reordering with index redirection on the device: builds
 * A'[e] = A[P[e] + c] for every entry e of a reference's index range
 * (marshal_kernels/gather.cl), so that a kernel's variant reads A'[e]
 * instead of A[P[e] + c] (docs/irregular.md, "Reordering").
 *
 * A' is indexed like P and has A's stride: element e of A' lies at byte
 * e * elem_bytes, and only the reference's field is written there.  The
 * reference and the range are the analyser's (dlayout_irregular.h): work-
 * item t at step j reads entry e = base + t * t_stride + j * j_stride, and
 * the entries at or past the end of P are not read. */
#ifndef DL_GATHER_H
#define DL_GATHER_H

#include "dlayout_irregular.h"

/* The entries one gather covers, and the A' it needs. */
typedef struct dl_gather_extent {
    size_t threads; /* work-items covered: the first `threads` of the range */
    size_t first;   /* the lowest entry e read (when end > first)          */
    size_t end;     /* one past the highest; first == end: nothing to read  */
    size_t bytes;   /* A' bytes needed: end * elem_bytes (entries below
                       `first` are left unused)                             */
} dl_gather_extent;

/* The extent of the whole range over a P of p_count entries.
 * DL_INVALID_ARGUMENT for an element or field the analyser refuses, or
 * one whose A' would not fit size_t. */
dl_status dl_gather_extent_of(const dl_coalesce_ref *ref,
                              const dl_coalesce_range *range, size_t p_count,
                              dl_gather_extent *out);

/* Partial duplication (000, section 3.1): the extent of the largest K <=
 * range->threads such that the first K work-items' A' fits in
 * budget_bytes.  out->threads is K: the whole range when it fits, 0 when
 * not even one work-item does.  A caller runs work-items [0, K) through
 * A' (gathered with range->threads = K) and the rest as written, or
 * declines. */
dl_status dl_gather_fit(const dl_coalesce_ref *ref,
                        const dl_coalesce_range *range, size_t p_count,
                        size_t budget_bytes, dl_gather_extent *out);

/* The bytes DL_GATHER_BUDGET's `fraction` allows on `device`: that share
 * of CL_DEVICE_GLOBAL_MEM_SIZE (0 if the device cannot be asked). */
size_t dl_gather_budget_bytes(cl_device_id device, double fraction);

/* Enqueues A'[e] = A[P[e] + c] for every entry e of `range` on `queue`,
 * after the events of wait_list; *event (if not NULL) completes when A'
 * is written.  |A| and |P| are the buffers' sizes over elem_bytes and
 * index_bytes (4 or 8: signed entries); a_prime must hold at least
 * dl_gather_extent_of()'s bytes.  An entry whose P[e] + c lies outside A
 * is never read: A'[e]'s field becomes zero bytes.  Builds
 * gather.cl specialised for the element, field and index size once per
 * engine. */
dl_status dl_enqueue_gather(dl_engine *engine, cl_command_queue queue, cl_mem a,
                            cl_mem p, const dl_coalesce_ref *ref,
                            const dl_coalesce_range *range,
                            unsigned index_bytes, cl_mem a_prime,
                            cl_uint num_events, const cl_event *wait_list,
                            cl_event *event);

#endif
