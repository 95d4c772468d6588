/* tail.h - what the chunk algorithms (pttwac-tiles, pipt) share: the tail
 * split and the cutting of chunks into pieces.  When M % T = R > 0 the
 * split turns DA(M) into [full-tile parts | DA(R)] in place
 * (marshal_kernels/tail.cl), so that the chunk transpose only sees whole
 * T-record chunks. */
#ifndef DL_TAIL_H
#define DL_TAIL_H

#include "internal.h"

/* The tail uses these slots of the step; the algorithm keeps the others. */
enum {
    DL_TAIL_KERNEL_FIXUP = DL_STEP_MAX_KERNELS - 3,
    DL_TAIL_KERNEL_GATHER = DL_STEP_MAX_KERNELS - 2,
    DL_TAIL_KERNEL_SHIFT = DL_STEP_MAX_KERNELS - 1,
    DL_TAIL_PARAM_GROUPS = 6,
    DL_TAIL_PARAM_RANGE = 7,
};

/* A T-word chunk is cut into `pieces` pieces of at most `piece` words so
 * that one work-group of `local` items carries a piece in registers,
 * `per_item` words each. */
typedef struct dl_chunk_geometry {
    size_t local, piece, pieces, per_item;
} dl_chunk_geometry;

dl_chunk_geometry dl_chunk_geometry_of(const dl_engine *engine,
                                       const dl_step_desc *desc);
/* Pieces in the chunk part of the buffer: Q*RW*pieces. */
size_t dl_chunk_pieces(const dl_step_desc *desc, const dl_chunk_geometry *g);
/* The specialisation of pttwac_tiles.cl and pipt.cl. */
void dl_chunk_spec(dl_spec *spec, const dl_step_desc *desc,
                   const dl_chunk_geometry *g);

/* Builds the tail kernels if the step needs them (count % tile > 0). */
dl_status dl_tail_prepare(dl_engine *engine, dl_step *step);

/* Bytes of the temporary buffer dl_tail_enqueue needs (0: no tail, or a
 * CPU device, where work-groups rotate the tails into place). */
size_t dl_tail_temp_bytes(const dl_step *step);

/* Enqueues the split (desc.inverse 0) or the merge (1); `temp` holds at
 * least dl_tail_temp_bytes() (may be NULL when that is 0).  No-op without
 * a tail. */
dl_status dl_tail_enqueue(dl_step *step, dl_chain *chain, cl_mem buffer,
                          cl_mem temp);

#endif
