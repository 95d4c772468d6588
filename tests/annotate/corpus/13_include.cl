// dla-args: -I include
// dla-build: -I include
// the record comes from a header found with -I
#include "particle.h"

__kernel void damp(__global particle_t *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].charge *= DAMP;
}
