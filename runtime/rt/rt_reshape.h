/* rt_reshape.h - the tiled launch of a kernel built transformed.  A kernel
 * whose annotation says "launch: tiled" (docs/annotations.md) reads, when
 * its ASTA(T) arguments share one tile T, its record index from a 2-D
 * range: i = get_global_id(1)*T + get_global_id(0).  The runtime then
 * launches it on global (T, G/T) instead of (G), so that consecutive
 * work-items of dimension 0 touch consecutive addresses of a tile: the
 * form the device compiler vectorises (DL paper, ASTA). */
#ifndef DL_RT_RESHAPE_H
#define DL_RT_RESHAPE_H

#include "rt_internal.h"

typedef struct rt_reshaped {
    size_t offset[2], global[2], local[2];
    int has_local; /* 0: local NULL (the implementation picks) */
} rt_reshaped;

/* The tile of k's tiled launch: the one tile of all its asta targets, if
 * 1 < T <= DL_ANNOT_TILED_MAX_TILE and the annotation has the flag; else
 * 0 (the kernel was built in its flat form).  Locked. */
size_t rt_reshape_tile(const rt_kernel *k);

/* For a launch of k built transformed, with the application's range:
 *   1  the launch must run on *out, a 2-D range (work_dim 2);
 *   0  k does not take the tiled launch: run the range as given;
 *  -1  k takes only the tiled launch but this range cannot be tiled
 *      (work_dim != 1, an offset not a multiple of T, a global size not
 *      a multiple of T that no guard makes safe to pad): run the plain
 *      variant.  dl_last_error() says why.
 * A global size G that is no multiple of T is padded up when the
 * annotation's tiled(bound) is at most offset + G: the added work-items
 * then do nothing.  A local size that is no multiple of T, and any padded
 * range, leave the work-group size to the implementation (the kernel
 * uses no local ids, groups or barriers).  Locked (reads k->args). */
int rt_reshape_launch(const rt_kernel *k, cl_uint work_dim,
                      const size_t *offset, const size_t *global,
                      const size_t *local, rt_reshaped *out);

/* Whether k, which takes the tiled launch, also has its flat ASTA form,
 * the one any range can run: its source's tiled branch is conditioned on
 * !defined(DL_FLAT_<kernel>), as dl-annotate writes it.  A range that
 * cannot be tiled then runs that form (rt_program_xform_flat) with the
 * same layouts instead of plain.  A source from an older dl-annotate has
 * no such condition: such ranges run plain. */
int rt_reshape_flat_form(rt_kernel *k); /* locked */

/* Whether a transformed launch of k on this range could only use the flat
 * ASTA index: every record argument k converts goes to ASTA, and k takes
 * no tiled launch (RT_FLAT_KERNEL: dl-annotate wrote none, e.g. it calls
 * get_local_id) or this range cannot be tiled while the flat form exists
 * (RT_FLAT_RANGE); else RT_FLAT_NO (DA, or the tiled launch).  Locked. */
typedef enum rt_flat_only {
    RT_FLAT_NO,
    RT_FLAT_KERNEL,
    RT_FLAT_RANGE
} rt_flat_only;
rt_flat_only rt_reshape_flat_only(rt_kernel *k, const dl_dims_env *env);

#endif
