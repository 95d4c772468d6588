// dla-args:
// the jobs key: a row loop's trip count (rowptr[gid + 1] - rowptr[gid])
// is written before a kernel that gets the job-swapped form, so that the
// runtime may sort its jobs by trip count; a kernel whose jobs see their
// work-group (a barrier) gets neither; a key the source has stays as
// written and is not repeated.
//DL: v1 indirect: read contrib[in_src[e]] for(e in in_ptr[gid] .. in_ptr[gid + 1])
//DL: v1 launch: chunks
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
)
{
#ifdef DL_ACTIVE_pagerank_pull

    int v = get_global_id(0);
    float s = 0.0f;
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++)
        s += dl_gather_contrib_in_src[e];
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
//DL: v1 launch: chunks
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
)
{
#ifdef DL_ACTIVE_keyed

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += dl_gather_x_col[k];
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
