// dla-args:
// a scalar array with record stride 20, declared by an annotation; a
// loop variable in [0, 20) splits the index, a stepped one does not
// DL: AoS: grid[n][20]
__kernel void relax(__global float *grid, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += grid[i * 20 + k];
    for (int k = 0; k < 20; k += 2)
        sum += grid[i * 20 + k];
    grid[i * 20 + 19] = sum;
    grid[i * 20 + 0] = grid[i * 20 + 1] * 0.5f;
}
