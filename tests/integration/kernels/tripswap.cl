/* tripswap.cl - a CSR and an ELLPACK-R SpMV over a power-law graph, one
 * row a work-item, run by scn_tripswap.c: the rows' lengths differ
 * widely, so the jobs may be sorted by trip count (the jobs keys:
 * rowptr[gid + 1] - rowptr[gid], len[gid]).
 * dl-annotate wrote the annotations and the DL_ACTIVE_ and DL_JOBSWAP_
 * branches. */
//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
//DL: v1 jobs: by rowptr[gid + 1] - rowptr[gid]
#ifdef DL_JOBSWAP_csr_spmv
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void csr_spmv(__global const float *val, __global const int *col,
                       __global const int *rowptr, __global const float *x,
                       __global float *y, int rows
#ifdef DL_ACTIVE_csr_spmv
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_csr_spmv
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_csr_spmv
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_csr_spmv

    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * dl_gather_x_col[k];
    y[row] = s;

#elif defined(DL_SHARE_csr_spmv)
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
#ifdef DL_JOBSWAP_csr_spmv
#undef get_global_id
#endif

/* ELLPACK-R: the rows column-major, padded to the longest, each row's
 * own length bounding its loop (the jobs key: len[gid]). */
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
