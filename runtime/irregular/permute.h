/* permute.h - the permutation layout on the device (docs/irregular.md,
 * "The permutation as a buffer layout"): an array A kept permuted by pi,
 * A'[pi[x]] = A[x], applied in place by cycle following
 * (marshal_kernels/permute.cl), and the values of an index array P
 * redirected, P'[i] = pi[P[i]], so that a kernel that reads or writes A
 * only as A[P[..]] runs unchanged and sees the same values.
 *
 * The plan lists pi's cycles and cuts them into segments that the device
 * moves in parallel (two launches: each segment's first element saved,
 * then every segment shifted one step along its cycle).  Restoring is the
 * same with the plan of pi^-1. */
#ifndef DL_PERMUTE_H
#define DL_PERMUTE_H

#include "dlayout.h"

#include <CL/cl.h>
#include <stddef.h>
#include <stdint.h>

/* Segments hold at most this many elements unless a plan says otherwise:
 * long enough that a launch has little per-work-item overhead, short
 * enough that a giant cycle keeps every core busy. */
#define DL_PERM_SEGMENT 256

typedef struct dl_perm_plan {
    size_t n;        /* elements of A */
    size_t moved;    /* elements on cycles of two or more */
    size_t segments; /* segments of those cycles */
    uint32_t *order; /* [moved] the cycles, one after another:
                        order[k + 1] = pi[order[k]] inside a cycle */
    uint32_t *seg;   /* [3 * segments] first (in order), len, after: the
                        index in order where the segment's last element
                        goes (the next segment's first, or the cycle's) */
} dl_perm_plan;

/* Plans A'[pi[x]] = A[x] for pi of n elements (n < 2^32), with segments
 * of at most seg_len elements (0: DL_PERM_SEGMENT).  DL_INVALID_ARGUMENT
 * if pi is not a permutation of [0, n); DL_OUT_OF_MEMORY. */
dl_status dl_perm_plan_build(const uint32_t *pi, size_t n, size_t seg_len,
                             dl_perm_plan *out);
void dl_perm_plan_free(dl_perm_plan *plan);

/* The plan of pi^-1 from pi's: the same cycles walked backwards, read in
 * order (no random access), with segments of at most seg_len (0:
 * DL_PERM_SEGMENT).  DL_OUT_OF_MEMORY. */
dl_status dl_perm_plan_reverse(const dl_perm_plan *forward, size_t seg_len,
                               dl_perm_plan *out);

/* inv[pi[x]] = x.  pi must be a permutation of [0, n). */
void dl_perm_invert(const uint32_t *pi, size_t n, uint32_t *inv);

/* The plan run on the host, step by step as the device runs it (every
 * segment's first element saved, then each segment shifted): elem_bytes
 * per element.  DL_OUT_OF_MEMORY. */
dl_status dl_perm_apply_host(const dl_perm_plan *plan, void *a,
                             size_t elem_bytes);

/* pi from the first touches of P's `count` entries (signed, 4 or 8
 * bytes): the element P names first goes to 0, the next new one to 1, and
 * so on; elements P never names (or entries outside [0, n)) keep their
 * relative order after them.  pi holds n entries. */
dl_status dl_perm_first_touch(const void *p, size_t count, unsigned index_bytes,
                              size_t n, uint32_t *pi);

/* A plan on the device: its order and segment tables, and room for the
 * saved elements. */
typedef struct dl_perm_device {
    cl_mem order, seg, saved;
    size_t segments, elem_bytes;
} dl_perm_device;

/* Copies the plan into buffers of `context` (no command queue: nothing
 * is enqueued, nothing waits) for elements of elem_bytes. */
dl_status dl_perm_device_create(cl_context context, const dl_perm_plan *plan,
                                size_t elem_bytes, dl_perm_device *out);
void dl_perm_device_release(dl_perm_device *dev);

/* Builds (through the engine's program cache) the kernels of a
 * permutation of elem_bytes elements and of a redirection of P's entries
 * of index_bytes, so that the launches later build nothing. */
dl_status dl_perm_warm(dl_engine *engine, size_t elem_bytes,
                       unsigned index_bytes);

/* Enqueues the plan on A (whose elements are dev->elem_bytes, 1 to any
 * size) on `queue`, after wait_list; *event (if not NULL) completes when
 * A is permuted. */
dl_status dl_enqueue_permute(dl_engine *engine, cl_command_queue queue,
                             cl_mem a, const dl_perm_device *dev,
                             cl_uint num_events, const cl_event *wait_list,
                             cl_event *event);

/* Enqueues P[i] = map[P[i]] for the `count` entries of P (signed, of
 * index_bytes 4 or 8) whose value lies in [0, n); the others are kept.
 * `map` holds n uint32 values. */
dl_status dl_enqueue_redirect(dl_engine *engine, cl_command_queue queue,
                              cl_mem p, unsigned index_bytes, size_t count,
                              cl_mem map, size_t n, cl_uint num_events,
                              const cl_event *wait_list, cl_event *event);

#endif
