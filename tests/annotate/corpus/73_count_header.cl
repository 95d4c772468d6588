// dla-args: --layout da -I include
// dla-build: -I include
// the count names a size defined in a header the program's build finds
// through -I: the runtime reads the header from the same -I directory
#include "sweep_sizes.h"

// DL: AoS: v[ROWS][4]
__kernel void scale(__global float *v, float f)
{
    int r = get_global_id(0);
    v[4 * r + 1] = v[4 * r] * f;
}
