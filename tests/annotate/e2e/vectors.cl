/* vectors.cl - kernel of dla-e2e-host's `particles` case written over
 * float4 (SHOC MD's POSVECTYPE style): each particle of 48 bytes is
 * three vectors, and each vector a record whose fields are its lanes.
 * The third vector holds an integer id and raw bytes, copied whole. */
#define POSVECTYPE float4

// DL: AoS: p[3 * n] record(size=16; 0:4, 4:4, 8:4, 12:4)
__kernel void advance(__global POSVECTYPE *p, float dt, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    POSVECTYPE pos = p[3 * i], vel = p[3 * i + 1];
    pos.xyz += vel.xyz * dt;
    p[3 * i] = pos;
    p[3 * i + 1].y = vel.y - 9.81f * dt;
    p[3 * i + 1].w = p[3 * i + 2].x * 0.5f;
    POSVECTYPE tag = p[3 * i + 2];
    p[3 * i + 2] = tag;
}
