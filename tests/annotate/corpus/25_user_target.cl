// dla-args:
// the user's annotation names the target: asta(16) wins over --layout
//DL: AoS: v[n][4] -> asta(16)
__kernel void add(__global float *v, int n)
{
    int i = get_global_id(0);
    if (i < n)
        v[i * 4 + 0] += v[i * 4 + 3];
}
