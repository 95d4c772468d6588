// dla-args:
// the jobs key: a row loop's trip count (rowptr[gid + 1] - rowptr[gid])
// is written before a kernel that gets the job-swapped form, so that the
// runtime may sort its jobs by trip count; a kernel whose jobs see their
// work-group (a barrier) gets neither; a key the source has stays as
// written and is not repeated; a loop bounded by a per-job length (len[i])
// gives its bound as the key.
//DL: v1 indirect: read contrib[in_src[e]] for(e in in_ptr[gid] .. in_ptr[gid + 1])
//DL: v1 jobs: by in_ptr[gid + 1] - in_ptr[gid]
#ifdef DL_JOBSWAP_pagerank_pull
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void pagerank_pull(__global const int *in_ptr,
                            __global const int *in_src,
                            __global const float *contrib,
                            __global float *rank, float base, float damp
#ifdef DL_ACTIVE_pagerank_pull
, __global const float *dl_gather_contrib_in_src
#endif
#ifdef DL_JOBSWAP_pagerank_pull
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_pagerank_pull
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_pagerank_pull

    int v = get_global_id(0);
    float s = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++)
        s += dl_gather_contrib_in_src[e];
    rank[v] = base + damp * s;

#elif defined(DL_SHARE_pagerank_pull)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = contrib[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = get_global_id(0);
    float s = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++)
        s += dl_share[in_src[e]];
    rank[v] = base + damp * s;

#else

    int v = get_global_id(0);
    float s = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++)
        s += contrib[in_src[e]];
    rank[v] = base + damp * s;

#endif
}
#ifdef DL_JOBSWAP_pagerank_pull
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
__kernel void rows_synced(__global const int *rowptr, __global const int *col,
                          __global const float *x, __global float *y
#ifdef DL_ACTIVE_rows_synced
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_rows_synced

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += dl_gather_x_col[k];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = s;

#else

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += x[col[k]];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = s;

#endif
}

//DL: jobs: by rowptr[gid + 1] - rowptr[gid]
//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
#ifdef DL_JOBSWAP_keyed
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void keyed(__global const int *rowptr, __global const int *col,
                    __global const float *x, __global float *y
#ifdef DL_ACTIVE_keyed
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_keyed
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_keyed
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_keyed

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += dl_gather_x_col[k];
    y[i] = s;

#elif defined(DL_SHARE_keyed)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += dl_share[col[k]];
    y[i] = s;

#else

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += x[col[k]];
    y[i] = s;

#endif
}
#ifdef DL_JOBSWAP_keyed
#undef get_global_id
#endif

// ELLPACK-R: each row's own length bounds its loop, so the references
// get no annotation (the grammar has no per-job trip count), but the
// bound is the jobs key, and the kernel the job-swapped form.
//DL: v1 jobs: by len[gid]
#ifdef DL_JOBSWAP_ellr
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ellr(__global const float *val, __global const int *col,
                   __global const int *len, __global const float *x,
                   __global float *y, int n
#ifdef DL_JOBSWAP_ellr
, __global const uint *dl_job
#endif
)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < len[i]; j++)
        s += val[j * n + i] * x[col[j * n + i]];
    y[i] = s;
}
#ifdef DL_JOBSWAP_ellr
#undef get_global_id
#endif
