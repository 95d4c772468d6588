// dla-args:
// CSR sparse matrix-vector products, one row per work-item: the row's
// loop runs between two entries of the row-pointer array, so the column
// index is no affine function of the row, yet x[col[k]] can read a
// gathered copy at the same k.  Three spellings: bounds read in the
// loop header, bounds kept in locals first (as SHOC's Spmv does), and a
// second array read through the same column index with an offset.
//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
//DL: v1 jobs: by rowptr[gid + 1] - rowptr[gid]
#ifdef DL_JOBSWAP_spmv_csr
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void spmv_csr(__global const float *val, __global const int *col,
                       __global const int *rowptr, __global const float *x,
                       __global float *y, int rows
#ifdef DL_ACTIVE_spmv_csr
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_spmv_csr
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_spmv_csr
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_spmv_csr

    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * dl_gather_x_col[k];
    y[row] = s;

#elif defined(DL_SHARE_spmv_csr)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * dl_share[col[k]];
    y[row] = s;

#else

    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * x[col[k]];
    y[row] = s;

#endif
}
#ifdef DL_JOBSWAP_spmv_csr
#undef get_global_id
#endif

//DL: v1 indirect: read vec[cols[j]] for(j in delims[gid] .. delims[gid + 1])
//DL: v1 jobs: by delims[gid + 1] - delims[gid]
#ifdef DL_JOBSWAP_spmv_locals
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void spmv_locals(__global const float *val,
                          __global const uint *cols,
                          __global const uint *delims,
                          __global const float *vec, __global float *out
#ifdef DL_ACTIVE_spmv_locals
, __global const float *dl_gather_vec_cols
#endif
#ifdef DL_JOBSWAP_spmv_locals
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_spmv_locals
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_spmv_locals

    size_t my_row = get_global_id(0);
    const uint start = delims[my_row];
    const uint end = delims[my_row + 1];
    float t = 0.0f;
    for (uint j = start; j < end; ++j)
        t += val[j] * dl_gather_vec_cols[j];
    out[my_row] = t;

#elif defined(DL_SHARE_spmv_locals)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = vec[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t my_row = get_global_id(0);
    const uint start = delims[my_row];
    const uint end = delims[my_row + 1];
    float t = 0.0f;
    for (uint j = start; j < end; ++j)
        t += val[j] * dl_share[cols[j]];
    out[my_row] = t;

#else

    size_t my_row = get_global_id(0);
    const uint start = delims[my_row];
    const uint end = delims[my_row + 1];
    float t = 0.0f;
    for (uint j = start; j < end; ++j)
        t += val[j] * vec[cols[j]];
    out[my_row] = t;

#endif
}
#ifdef DL_JOBSWAP_spmv_locals
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[k]] for(k in rowptr[2 * gid] .. rowptr[2 * gid + 1])
//DL: v1 indirect: read w[col[k] + 1] for(k in rowptr[2 * gid] .. rowptr[2 * gid + 1])
//DL: v1 jobs: by rowptr[2 * gid + 1] - rowptr[2 * gid]
#ifdef DL_JOBSWAP_two_arrays
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void two_arrays(__global const int *rowptr, __global const int *col,
                         __global const float *x, __global const float *w,
                         __global float *y
#ifdef DL_ACTIVE_two_arrays
, __global const float *dl_gather_x_col
, __global const float *dl_gather_w_col
#endif
#ifdef DL_JOBSWAP_two_arrays
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_two_arrays

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[2 * i]; k < rowptr[2 * i + 1]; k++)
        s += dl_gather_x_col[k] * dl_gather_w_col[k];
    y[i] = s;

#else

    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[2 * i]; k < rowptr[2 * i + 1]; k++)
        s += x[col[k]] * w[col[k] + 1];
    y[i] = s;

#endif
}
#ifdef DL_JOBSWAP_two_arrays
#undef get_global_id
#endif
