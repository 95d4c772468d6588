// dla-args:
// a user record(...) on a float4 array whose fields are not whole float4
// elements: declined, the conversion dropped
//DL: v1 aos: p[n][4] record(size=64; 0:16, 16:16, 32:32)
__kernel void k(__global float4 *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i * 4 + 1] += p[i * 4 + 3];
}
