/* permute_shared.cl - kernels reading two arrays through one index
 * buffer (docs/irregular.md "The permutation as a buffer layout": one pi
 * permutes every array read through P, P' = pi o P being shared):
 * `ratio` reads x and w through col, as PageRank's pull loop reads rank
 * and outdeg; `bump` writes x and reads w through col (a permutation:
 * each element is written by one work-item).  `touch` uses w directly,
 * so before it the set must be undone. */

//DL: indirect: read x[col[gid]]
//DL: indirect: read w[col[gid]]
__kernel void ratio(__global const float *x, __global const float *w,
                    __global const int *col, __global float *y, int n)
{
    int gid = get_global_id(0);
    if (gid >= n)
        return;
    y[gid] = x[col[gid]] / w[col[gid]] + x[col[gid]] * 0.5f;
}

//DL: indirect: read x[col[gid]]
//DL: indirect: write x[col[gid]]
//DL: indirect: read w[col[gid]]
__kernel void bump(__global float *x, __global const float *w,
                   __global const int *col, int n)
{
    int gid = get_global_id(0);
    if (gid >= n)
        return;
    x[col[gid]] = x[col[gid]] * 0.75f + w[col[gid]] * (float)(gid % 5);
}

/* w used directly: w must be in the program's order. */
__kernel void touch(__global float *w, int n)
{
    int gid = get_global_id(0);
    if (gid < n)
        w[gid] = w[gid] + 1.0f;
}
