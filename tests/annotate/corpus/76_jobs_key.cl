// dla-args:
// the jobs key: a row loop's trip count (rowptr[gid + 1] - rowptr[gid])
// is written before a kernel that gets the job-swapped form, so that the
// runtime may sort its jobs by trip count; a kernel whose jobs see their
// work-group (a barrier) gets neither; a key the source has stays as
// written and is not repeated; a loop bounded by a per-job length (len[i])
// gives its bound as the key.
__kernel void pagerank_pull(__global const int *in_ptr,
                            __global const int *in_src,
                            __global const float *contrib,
                            __global float *rank, float base, float damp)
{
    int v = get_global_id(0);
    float s = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++)
        s += contrib[in_src[e]];
    rank[v] = base + damp * s;
}

__kernel void rows_synced(__global const int *rowptr, __global const int *col,
                          __global const float *x, __global float *y)
{
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += x[col[k]];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = s;
}

//DL: jobs: by rowptr[gid + 1] - rowptr[gid]
__kernel void keyed(__global const int *rowptr, __global const int *col,
                    __global const float *x, __global float *y)
{
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += x[col[k]];
    y[i] = s;
}

// ELLPACK-R: each row's own length bounds its loop, so the references
// get no annotation (the grammar has no per-job trip count), but the
// bound is the jobs key, and the kernel the job-swapped form.
__kernel void ellr(__global const float *val, __global const int *col,
                   __global const int *len, __global const float *x,
                   __global float *y, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < len[i]; j++)
        s += val[j * n + i] * x[col[j * n + i]];
    y[i] = s;
}
