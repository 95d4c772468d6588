// dla-args: -DSINGLE_PRECISION
// dla-build: -DSINGLE_PRECISION
// SHOC MD's style: pointers to POSVECTYPE, a macro that is float4, each
// vector a record whose fields are its lanes: read whole, lane by lane,
// written whole and one lane; a swizzle of several lanes is declined
#ifdef SINGLE_PRECISION
#define POSVECTYPE float4
#define FORCEVECTYPE float4
#define FPTYPE float
#endif

// DL: AoS: position[inum] record(size=16; 0:4, 4:4, 8:4, 12:4)
// DL: AoS: force[inum] record(size=16; 0:4, 4:4, 8:4, 12:4)
__kernel void lj_force(__global FORCEVECTYPE *force,
                       __global const POSVECTYPE *position,
                       const int neighCount, __global const int *neighList,
                       const FPTYPE cutsq, const int inum)
{
    uint idx = get_global_id(0);
    POSVECTYPE ipos = position[idx];
    FORCEVECTYPE f = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < neighCount; j++) {
        int jidx = neighList[j * inum + idx];
        FPTYPE delx = ipos.x - position[jidx].x;
        FPTYPE dely = ipos.y - position[jidx].s1;
        FPTYPE r2 = delx * delx + dely * dely;
        if (r2 < cutsq)
            f.xy += (float2)(delx, dely) / r2;
    }
    force[idx] = f;
    force[idx].w = position[idx].w;
}

// DL: AoS: v[n] record(size=16; 0:4, 4:4, 8:4, 12:4)
__kernel void swizzle(__global float4 *v, int n)
{
    int i = get_global_id(0);
    if (i < n)
        v[i].xy = v[i].zw;
}
