// Job swapping (docs/irregular.md), as dl-annotate wrote it: `swap` reads
// x through col, one entry a work-item, with a guard for the range's tail,
// and has the job-swapped form; `fenced` has a barrier: no such form.
//DL: v1 indirect: read x[col[gid]]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_swap
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void swap(__global const float *x, __global const int *col,
                   __global float *y, int n
#ifdef DL_ACTIVE_swap
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_swap
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_swap
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_swap

    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int r = 0; r < 3; r++)
        s = s * 0.5f + dl_gather_x_col[i] * (float)(r + 1);
    y[i] = s + (float)get_global_id(0) * 0.25f;

#elif defined(DL_SHARE_swap)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int r = 0; r < 3; r++)
        s = s * 0.5f + dl_share[col[i]] * (float)(r + 1);
    y[i] = s + (float)get_global_id(0) * 0.25f;

#else

    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int r = 0; r < 3; r++)
        s = s * 0.5f + x[col[i]] * (float)(r + 1);
    y[i] = s + (float)get_global_id(0) * 0.25f;

#endif
}
#ifdef DL_JOBSWAP_swap
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid]]
__kernel void fenced(__global const float *x, __global const int *col,
                     __global float *y
#ifdef DL_ACTIVE_fenced
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_fenced

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i] * 3.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]] * 3.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);

#endif
}
