/* permute.cl - kernels whose arrays dlayout may keep permuted
 * (DL_IRREGULAR=remap, docs/irregular.md "The permutation as a buffer
 * layout"):
 * they name x and a only through col and idx, so they run unchanged on
 * the permuted arrays; `touch` uses x directly and `shuffle_col` writes
 * col, so before them the permutation must be undone.  K comes from the
 * build options. */

/* ELL SpMV: K entries per row, column-major, one row per work-item. */
//DL: indirect: read x[col[j * N + gid]] for(j < K)
__kernel void ell_spmv(__global const float *val, __global const int *col,
                       __global const float *x, __global float *y, int N)
{
    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * x[col[j * N + gid]];
    y[gid] = s;
}

/* The same, row-major: row gid's K entries are consecutive. */
//DL: indirect: read x[col[gid * K + j]] for(j < K)
__kernel void ell_rows(__global const float *val, __global const int *col,
                       __global const float *x, __global float *y, int N)
{
    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[gid * K + j] * x[col[gid * K + j]];
    y[gid] = s;
}

/* A scatter that reads and writes its array through a permutation idx:
 * each element is updated by exactly one work-item. */
//DL: indirect: read a[idx[gid]]
//DL: indirect: write a[idx[gid]]
__kernel void scatter(__global float2 *a, __global const long *idx,
                      __global const float *v, int M)
{
    int gid = get_global_id(0);
    if (gid >= M)
        return;
    a[idx[gid]] = a[idx[gid]] * 0.5f + (float2)(v[gid], (float)gid);
}

/* x used directly: x must be in the program's order. */
__kernel void touch(__global float *x, int N)
{
    int gid = get_global_id(0);
    if (gid < N)
        x[gid] = x[gid] * 0.75f + (float)(gid % 5);
}

/* Writes col: its values must be the program's. */
__kernel void shuffle_col(__global int *col, int N)
{
    int gid = get_global_id(0);
    if (gid < N)
        col[gid] = (col[gid] + 3) % N;
}
