// Padding on the device (docs/irregular.md, "Padding in the runtime"),
// annotated as indirect references only: `ell` reads x only through col
// and col only there, x read-only: it runs padded; `mixed` also reads col
// itself, `scale` may write x: both run as written, with the reason.

// ELL SpMV: K entries per row, column-major (entry j of row r at
// j * N + r), one row per work-item.
//DL: indirect: read x[col[j * N + gid]] for(j < K)
__kernel void ell(__global const float *val, __global const int *col,
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

//DL: indirect: read x[col[gid]]
__kernel void mixed(__global const float *x, __global const int *col,
                    __global float *y)
{
    int gid = get_global_id(0);
    y[gid] = x[col[gid]] + (float)col[gid];
}

//DL: indirect: read x[col[gid]]
__kernel void scale(__global float *x, __global const int *col,
                    __global float *y)
{
    int gid = get_global_id(0);
    y[gid] = x[col[gid]] * 2.0f;
}
