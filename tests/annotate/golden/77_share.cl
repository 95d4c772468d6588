// dla-args:
// the shared form under DL_SHARE_<kernel>: the group's block of A copied
// into __local dl_share before any work-item reads it, and A[P[E]] read
// as dl_share[P[E]], for a loop (ELL), a record's field and a kernel that
// returns early; no shared form, each with its reason, for an offset, two
// arrays through index buffers and a kernel whose jobs see their group
struct atom { float x, y, z, w; };

//DL: v1 indirect: read x[col[j * n + gid]] for(j < 4)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_ell
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void ell(__global const float *val, __global const int *col,
                  __global const float *x, __global float *y, int n
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

    int row = get_global_id(0);
    if (row >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < 4; j++)
        s += val[j * n + row] * dl_gather_x_col[j * n + row];
    y[row] = s;

#elif defined(DL_SHARE_ell)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int row = get_global_id(0);
    if (row >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < 4; j++)
        s += val[j * n + row] * dl_share[col[j * n + row]];
    y[row] = s;

#else

    int row = get_global_id(0);
    if (row >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < 4; j++)
        s += val[j * n + row] * x[col[j * n + row]];
    y[row] = s;

#endif
}
#ifdef DL_JOBSWAP_ell
#undef get_global_id
#endif

//DL: v1 indirect: read a[perm[gid]] record(size=16; 4:4)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_field
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void field(__global const struct atom *a, __global const uint *perm,
                    __global float *out
#ifdef DL_ACTIVE_field
, __global const struct atom *dl_gather_a_perm
#endif
#ifdef DL_JOBSWAP_field
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_field
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local struct atom *dl_share
#endif
)
{
#ifdef DL_ACTIVE_field

    size_t i = get_global_id(0);
    out[i] = dl_gather_a_perm[i].y * 2.0f;

#elif defined(DL_SHARE_field)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = a[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    out[i] = dl_share[perm[i]].y * 2.0f;

#else

    size_t i = get_global_id(0);
    out[i] = a[perm[i]].y * 2.0f;

#endif
}
#ifdef DL_JOBSWAP_field
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid] + 1]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_offset
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void offset(__global const float *x, __global const int *col,
                     __global float *y
#ifdef DL_ACTIVE_offset
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_offset
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_offset

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i];

#else

    int i = get_global_id(0);
    y[i] = x[col[i] + 1];

#endif
}
#ifdef DL_JOBSWAP_offset
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid]]
//DL: v1 indirect: read w[col[gid]]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_two
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void two(__global const float *x, __global const float *w,
                  __global const int *col, __global float *y
#ifdef DL_ACTIVE_two
, __global const float *dl_gather_x_col
, __global const float *dl_gather_w_col
#endif
#ifdef DL_JOBSWAP_two
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_two

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i] + dl_gather_w_col[i];

#else

    int i = get_global_id(0);
    y[i] = x[col[i]] + w[col[i]];

#endif
}
#ifdef DL_JOBSWAP_two
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid]]
__kernel void grouped(__global const float *x, __global const int *col,
                      __global float *y
#ifdef DL_ACTIVE_grouped
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_grouped

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i] * (float)get_group_id(0);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]] * (float)get_group_id(0);

#endif
}
