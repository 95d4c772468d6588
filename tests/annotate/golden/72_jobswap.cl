// dla-args:
// the job-swapped form under DL_JOBSWAP_<kernel>: get_global_id(0) reads
// dl_job[get_global_id(0)], also through a macro; kernels whose jobs
// could see their work-group, one another or their order get no such form,
// each with its reason: a barrier with __local memory, a __local
// parameter, an atomic, a local id, a function of the source, a barrier
// and printf
#define GID get_global_id(0)

float twice(float v) { return 2.0f * v; }

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

    int i = GID;
    if (i >= n)
        return;
    y[get_global_id(0)] = dl_gather_x_col[i] + 1.0f;

#elif defined(DL_SHARE_swap)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = GID;
    if (i >= n)
        return;
    y[get_global_id(0)] = dl_share[col[i]] + 1.0f;

#else

    int i = GID;
    if (i >= n)
        return;
    y[get_global_id(0)] = x[col[i]] + 1.0f;

#endif
}
#ifdef DL_JOBSWAP_swap
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[gid]]
__kernel void staged(__global const float *x, __global const int *col,
                     __global float *y
#ifdef DL_ACTIVE_staged
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_staged

    __local float tile[64];
    int i = get_global_id(0);
    tile[i % 64] = dl_gather_x_col[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[i] = tile[(i + 1) % 64];

#else

    __local float tile[64];
    int i = get_global_id(0);
    tile[i % 64] = x[col[i]];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[i] = tile[(i + 1) % 64];

#endif
}

//DL: v1 indirect: read x[col[gid]]
__kernel void shared(__global const float *x, __global const int *col,
                     __global float *y, __local float *scratch
#ifdef DL_ACTIVE_shared
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_shared

    int i = get_global_id(0);
    scratch[0] = 0.0f;
    y[i] = dl_gather_x_col[i];

#else

    int i = get_global_id(0);
    scratch[0] = 0.0f;
    y[i] = x[col[i]];

#endif
}

//DL: v1 indirect: read x[col[gid]]
__kernel void counted(__global const float *x, __global const int *col,
                      __global float *y, __global int *hits
#ifdef DL_ACTIVE_counted
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_counted

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i];
    atomic_inc(hits);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]];
    atomic_inc(hits);

#endif
}

//DL: v1 indirect: read x[col[gid]]
__kernel void lane(__global const float *x, __global const int *col,
                   __global float *y
#ifdef DL_ACTIVE_lane
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_lane

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i] + (float)get_local_id(0);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]] + (float)get_local_id(0);

#endif
}

//DL: v1 indirect: read x[col[gid]]
__kernel void helper(__global const float *x, __global const int *col,
                     __global float *y
#ifdef DL_ACTIVE_helper
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_helper

    int i = get_global_id(0);
    y[i] = twice(dl_gather_x_col[i]);

#else

    int i = get_global_id(0);
    y[i] = twice(x[col[i]]);

#endif
}

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
    y[i] = dl_gather_x_col[i];
    barrier(CLK_GLOBAL_MEM_FENCE);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]];
    barrier(CLK_GLOBAL_MEM_FENCE);

#endif
}

//DL: v1 indirect: read x[col[gid]]
//DL: v1 launch: chunks
__kernel void said(__global const float *x, __global const int *col,
                   __global float *y
#ifdef DL_ACTIVE_said
, __global const float *dl_gather_x_col
#endif
)
{
#ifdef DL_ACTIVE_said

    int i = get_global_id(0);
    y[i] = dl_gather_x_col[i];
    if (i == 0)
        printf("%f\n", y[i]);

#else

    int i = get_global_id(0);
    y[i] = x[col[i]];
    if (i == 0)
        printf("%f\n", y[i]);

#endif
}
