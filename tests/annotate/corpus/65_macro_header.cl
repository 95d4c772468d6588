// dla-args: --layout da -I include
// dla-build: -I include -DCELLS=64
// the macros that make the accesses come from a header (-I), as
// Parboil's lbm_macros.h; the count names a build-option macro
#include "lattice.h"

// DL: AoS: src[CELLS + 4][4]
// DL: AoS: dst[CELLS + 4][4]
__kernel void stream(__global const float *src, __global float *dst)
{
    src += MARGIN;
    dst += MARGIN;
    int cell = get_global_id(0);
    if (as_uint(LOCAL(src, FLAGS)) & 1u)
        return;
    DST_N(dst) = SRC_N(src);
    DST_C(dst) = SRC_C(src);
}
