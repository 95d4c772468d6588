/* chunks.cl - two redirected gathers that may run in chunks (dl-annotate's
 * output, with its `launch: chunks` flags): a row-major ELL SpMV
 * (x[col[row * K + j]]: each row reads its own K entries of col) and a
 * permutation gather with an offset (x[perm[i] + 1]).  scale_x writes x.
 * K comes from the build options. */
//DL: v1 indirect: read x[col[gid * K + j]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell_rows
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell_rows(__global const float *val, __global const int *col,
                       __global const float *x, __global float *y
#ifdef DL_ACTIVE_ell_rows
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_ell_rows
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_ell_rows
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_ell_rows

    size_t row = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[row * K + j] * dl_gather_x_col[row * K + j];
    y[row] = s;

#elif defined(DL_SHARE_ell_rows)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t row = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[row * K + j] * dl_share[col[row * K + j]];
    y[row] = s;

#else

    size_t row = get_global_id(0);
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[row * K + j] * x[col[row * K + j]];
    y[row] = s;

#endif
}
#ifdef DL_JOBSWAP_ell_rows
#undef get_global_id
#endif

//DL: v1 indirect: read x[perm[gid] + 1]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_permute
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void permute(__global const float *x, __global const int *perm,
                      __global float *out
#ifdef DL_ACTIVE_permute
, __global const float *dl_gather_x_perm
#endif
#ifdef DL_JOBSWAP_permute
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_permute

    size_t i = get_global_id(0);
    out[i] = 2.0f * dl_gather_x_perm[i] - 1.0f;

#else

    size_t i = get_global_id(0);
    out[i] = 2.0f * x[perm[i] + 1] - 1.0f;

#endif
}
#ifdef DL_JOBSWAP_permute
#undef get_global_id
#endif

__kernel void scale_x(__global float *x, float a)
{
    size_t i = get_global_id(0);
    x[i] = x[i] * a + 1.0f;
}
