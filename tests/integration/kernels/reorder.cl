/* reorder.cl - an ELL SpMV whose x[col[...]] gather dl-annotate
 * redirected (the annotation and the DL_ACTIVE_ell_spmv branch are its
 * output): under dl-run with DL_POLICY=always the runtime gathers
 * dl_gather_x_col[e] = x[col[e]] on the device and caches it while x and
 * col are unchanged.  scale_x writes x (a kernel write).  K comes from the
 * build options. */
//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell_spmv
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell_spmv(__global const float *val, __global const int *col,
                       __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_ell_spmv
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_ell_spmv
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_ell_spmv
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_ell_spmv

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_gather_x_col[j * N + gid];
    y[gid] = s;

#elif defined(DL_SHARE_ell_spmv)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_share[col[j * N + gid]];
    y[gid] = s;

#else

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * x[col[j * N + gid]];
    y[gid] = s;

#endif
}
#ifdef DL_JOBSWAP_ell_spmv
#undef get_global_id
#endif

__kernel void scale_x(__global float *x, float a)
{
    int i = get_global_id(0);
    x[i] = x[i] * a + 1.0f;
}
