/* grid.cl - kernel of dla-e2e-host's `grid` case: a scalar array of
 * records of 6 floats, declared by an annotation. */
//DL: AoS: g[n][6]
__kernel void smooth(__global float *g, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 6; k++)
        sum += g[i * 6 + k];
    g[i * 6 + 5] = sum * 0.1f;
    g[i * 6 + 0] += g[i * 6 + 1] * 0.5f;
}
