// dla-args: -I include
// dla-build: -I include
// the record comes from a header found with -I
#include "particle.h"

//DL: v1 aos: p[n] record(size=32; 0:16, 16:4) -> da
__kernel void damp(__global particle_t *p, int n)
{
#ifdef DL_ACTIVE_damp
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        ((__global float *)((__global char *)(p) + 16u * dla_M_p))[(size_t)(i)] *= DAMP;

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].charge *= DAMP;

#endif
}
