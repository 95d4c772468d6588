// dla-args:
// a user record(...) on a scalar array that is not one field per float
// (bytes 8..15 are one field): its elements cannot be indexed as fields,
// so the argument is declined and the conversion dropped
// DL: AoS: p[n][4] record(size=16; 0:4, 4:4, 8:8) -> da
__kernel void k(__global float *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i * 4 + 1] += p[i * 4 + 3];
}
