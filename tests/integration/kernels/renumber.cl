/* renumber.cl - a graph loop dlayout may run on a renumbered graph
 * (DL_IRREGULAR=renumber, docs/irregular.md "Renumbering a graph loop"):
 * `spmv` walks one CSR row per work-item and names x and y only at the
 * row or through col, so it runs unchanged on renumbered copies of the
 * structure with x and y kept permuted; `touch` uses x directly, so
 * before it x must be back in the program's order; `weighted` uses the
 * vertex number as a value, so it runs as written. */
//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
__kernel void spmv(__global const float *val, __global const int *col,
                   __global const int *rowptr, __global const float *x,
                   __global float *y, int rows)
{
    int v = get_global_id(0);
    if (v >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
        s += val[k] * x[col[k]];
    y[v] = 0.125f * s;
}

/* x[i] += i / 64, element by element. */
__kernel void touch(__global float *x, int n)
{
    int i = get_global_id(0);
    if (i < n)
        x[i] += (float)i / 64.0f;
}

/* The same loop with the vertex number used as a value: it must not run
 * renumbered (it would add another number). */
//DL: indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
__kernel void weighted(__global const float *val, __global const int *col,
                       __global const int *rowptr, __global const float *x,
                       __global float *y, int rows)
{
    int v = get_global_id(0);
    if (v >= rows)
        return;
    float s = (float)v;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
        s += val[k] * x[col[k]];
    y[v] = s;
}
