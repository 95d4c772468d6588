// dla-args: --layout da -I include
// dla-build: -I include
// the count names a size defined in a header the program's build finds
// through -I: the runtime reads the header from the same -I directory
#include "sweep_sizes.h"


#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards.
 * The ids are bounded as ints (as in `int x = get_global_id(0)`): with an
 * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, which POCL's
 * vectoriser turns into gathers and scatters. */
#ifdef __clang__
#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && (int)get_global_id(d) >= (int)(e))
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
//DL: v1 aos: v[ROWS][4] -> da
__kernel void scale(__global float *v, float f)
{
#ifdef DL_ACTIVE_scale
#ifdef DL_GLOBAL_END_scale
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_scale);
#endif
#ifndef DLA_PAD_scale_v
#define DLA_PAD_scale_v 0
#endif
const size_t dla_M_v = (size_t)(long)(ROWS) + DLA_PAD_scale_v;

    int r = get_global_id(0);
    (v)[1u * dla_M_v + (size_t)(r)] = (v)[0u * dla_M_v + (size_t)(r)] * f;

#else

    int r = get_global_id(0);
    v[4 * r + 1] = v[4 * r] * f;

#endif
}
