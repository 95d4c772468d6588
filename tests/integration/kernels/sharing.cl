// Sharing on the device (docs/irregular.md, "Sharing in the runtime"), as
// dl-annotate wrote it (the shared form under DL_SHARE_<kernel>): `ell`
// reads x only through col and col only there, x read-only, and is
// launched with an explicit local size, and as `unsized` without one
// (dlayout chooses it: the kernel cannot observe its work-group): both
// run shared; the same kernel as `odd`, launched without a local size on
// a range no size from 16 to 64 divides, and as `tailed`, whose range's
// guarded tail would read entries of another group's, `scale`, which
// may write x, and `big`, whose blocks exceed __local memory, run as
// written, with the reason.

// ELL SpMV: K entries per row, column-major (entry j of row r at
// j * N + r), one row per work-item.
//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell(__global const float *val, __global const int *col,
                  __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_ell
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_ell
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_ell
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_ell

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_gather_x_col[j * N + gid];
    y[gid] = s;

#elif defined(DL_SHARE_ell)
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
#ifdef DL_JOBSWAP_ell
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_unsized
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void unsized(__global const float *val, __global const int *col,
                      __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_unsized
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_unsized
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_unsized
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_unsized

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_gather_x_col[j * N + gid];
    y[gid] = s;

#elif defined(DL_SHARE_unsized)
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
#ifdef DL_JOBSWAP_unsized
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_tailed
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void tailed(__global const float *val, __global const int *col,
                     __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_tailed
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_tailed
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_tailed
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_tailed

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_gather_x_col[j * N + gid];
    y[gid] = s;

#elif defined(DL_SHARE_tailed)
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
#ifdef DL_JOBSWAP_tailed
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[j * N + gid]] for(j < K)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_odd
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void odd(__global const float *val, __global const int *col,
                  __global const float *x, __global float *y, int N
#ifdef DL_ACTIVE_odd
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_odd
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_odd
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_odd

    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * dl_gather_x_col[j * N + gid];
    y[gid] = s;

#elif defined(DL_SHARE_odd)
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
#ifdef DL_JOBSWAP_odd
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid]]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_scale
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void scale(__global float *x, __global const int *col,
                    __global float *y
#ifdef DL_ACTIVE_scale
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_scale
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_scale
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_scale

    int gid = get_global_id(0);
    y[gid] = dl_gather_x_col[gid] * 2.0f;

#elif defined(DL_SHARE_scale)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int gid = get_global_id(0);
    y[gid] = dl_share[col[gid]] * 2.0f;

#else

    int gid = get_global_id(0);
    y[gid] = x[col[gid]] * 2.0f;

#endif
}
#ifdef DL_JOBSWAP_scale
#undef get_global_id
#endif

// A cell of 4 KiB read through col: a group of 512 reading 512 cells
// needs 2 MiB of __local memory, more than the device has.
struct cell { float v[1024]; };

//DL: v1 indirect: read a[col[gid]] record(size=4096; 0:4096)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_big
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void big(__global const struct cell *a, __global const int *col,
                  __global float *y
#ifdef DL_ACTIVE_big
, __global const struct cell *dl_gather_a_col
#endif
#ifdef DL_JOBSWAP_big
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_big
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local struct cell *dl_share
#endif
)
{
#ifdef DL_ACTIVE_big

    int gid = get_global_id(0);
    y[gid] = dl_gather_a_col[gid].v[3];

#elif defined(DL_SHARE_big)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = a[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int gid = get_global_id(0);
    y[gid] = dl_share[col[gid]].v[3];

#else

    int gid = get_global_id(0);
    y[gid] = a[col[gid]].v[3];

#endif
}
#ifdef DL_JOBSWAP_big
#undef get_global_id
#endif
