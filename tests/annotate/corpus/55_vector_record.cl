// dla-args:
// a user record(...) on a float4 array, one field per float4 element:
// rewritten element by element
// DL: AoS: p[n][4] record(size=64; 0:16, 16:16, 32:16, 48:16) -> da
__kernel void k(__global float4 *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i * 4 + 1] += p[i * 4 + 3];
}
