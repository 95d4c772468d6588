// Which redirected kernels may run in chunks (launch: chunks): one that
// reads only its global id may; one that reads the global size, one with
// a barrier and one that calls a function of the source may not, and a
// chunks flag written by hand on such a kernel is removed.

float twice(float v) { return 2.0f * v; }

//DL: v1 indirect: read x[p[gid]]
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_plain
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void plain(__global const float *x, __global const int *p,
                    __global float *y
#ifdef DL_ACTIVE_plain
, __global const float *dl_gather_x_p
#endif
#ifdef DL_JOBSWAP_plain
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_plain
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_plain

    size_t i = get_global_id(0);
    y[i] = dl_gather_x_p[i];

#elif defined(DL_SHARE_plain)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    y[i] = dl_share[p[i]];

#else

    size_t i = get_global_id(0);
    y[i] = x[p[i]];

#endif
}
#ifdef DL_JOBSWAP_plain
#undef get_global_id
#endif

//DL: v1 indirect: read x[p[gid]]
#ifdef DL_JOBSWAP_strided
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void strided(__global const float *x, __global const int *p,
                      __global float *y
#ifdef DL_ACTIVE_strided
, __global const float *dl_gather_x_p
#endif
#ifdef DL_JOBSWAP_strided
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_strided
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_strided

    size_t i = get_global_id(0);
    y[i] = dl_gather_x_p[i] + (float)get_global_size(0);

#elif defined(DL_SHARE_strided)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    y[i] = dl_share[p[i]] + (float)get_global_size(0);

#else

    size_t i = get_global_id(0);
    y[i] = x[p[i]] + (float)get_global_size(0);

#endif
}
#ifdef DL_JOBSWAP_strided
#undef get_global_id
#endif

//DL: v1 indirect: read x[p[gid]]
__kernel void grouped(__global const float *x, __global const int *p,
                      __global float *y
#ifdef DL_ACTIVE_grouped
, __global const float *dl_gather_x_p
#endif
)
{
#ifdef DL_ACTIVE_grouped

    size_t i = get_global_id(0);
    float v = dl_gather_x_p[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = v;

#else

    size_t i = get_global_id(0);
    float v = x[p[i]];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = v;

#endif
}


//DL: v1 indirect: read x[p[gid]]
__kernel void helped(__global const float *x, __global const int *p,
                     __global float *y
#ifdef DL_ACTIVE_helped
, __global const float *dl_gather_x_p
#endif
)
{
#ifdef DL_ACTIVE_helped

    size_t i = get_global_id(0);
    y[i] = twice(dl_gather_x_p[i]);

#else

    size_t i = get_global_id(0);
    y[i] = twice(x[p[i]]);

#endif
}
