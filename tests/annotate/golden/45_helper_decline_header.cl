// dla-args: -I include
// dla-build: -I include
// declined: the helper is defined in a header, not in this source
#include "particle_helper.h"

__kernel void kick(__global struct hp *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].v = hp_speed(&p[i]);
}
