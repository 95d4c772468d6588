// dla-args: -DK=4
// dla-build: -D K=4
// ELL SpMV, column-major (x[col[j*N + row]]) with K from the build
// options, and row-major (x[col[row*W + j]]) with W defined here: the
// index into col is affine in the global id and the loop counter
#define W 3

//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell_cm
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell_cm(__global const float *val, __global const int *col,
                     __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_ell_cm
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_ell_cm
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_ell_cm
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_ell_cm

    int row = get_global_id(0);
    if (row >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + row] * dl_gather_x_col[j * N + row];
    y[row] = s;

#elif defined(DL_SHARE_ell_cm)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int row = get_global_id(0);
    if (row >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + row] * dl_share[col[j * N + row]];
    y[row] = s;

#else

    int row = get_global_id(0);
    if (row >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + row] * x[col[j * N + row]];
    y[row] = s;

#endif
}
#ifdef DL_JOBSWAP_ell_cm
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid * 3 + j]] for(j < 3)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell_rm
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell_rm(__global const float *val, __global const long *col,
                     __global const float *x, __global float *y, int rows
#ifdef DL_ACTIVE_ell_rm
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_ell_rm
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_ell_rm
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_ell_rm

    size_t row = get_global_id(0);
    float s = 0.0f;
    for (uint j = 0; j < W; ++j)
        s += val[row * W + j] * dl_gather_x_col[row * W + j];
    y[row] = s;

#elif defined(DL_SHARE_ell_rm)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t row = get_global_id(0);
    float s = 0.0f;
    for (uint j = 0; j < W; ++j)
        s += val[row * W + j] * dl_share[col[row * W + j]];
    y[row] = s;

#else

    size_t row = get_global_id(0);
    float s = 0.0f;
    for (uint j = 0; j < W; ++j)
        s += val[row * W + j] * x[col[row * W + j]];
    y[row] = s;

#endif
}
#ifdef DL_JOBSWAP_ell_rm
#undef get_global_id
#endif
