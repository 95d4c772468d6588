// dla-args:
// the job-swapped form under DL_JOBSWAP_<kernel>: get_global_id(0) reads
// dl_job[get_global_id(0)], also through a macro; kernels whose jobs
// could see their work-group, one another or their order get no such form,
// each with its reason: a barrier with __local memory, a __local
// parameter, an atomic, a local id, a function of the source, a barrier
// and printf
#define GID get_global_id(0)

float twice(float v) { return 2.0f * v; }

__kernel void swap(__global const float *x, __global const int *col,
                   __global float *y, int n)
{
    int i = GID;
    if (i >= n)
        return;
    y[get_global_id(0)] = x[col[i]] + 1.0f;
}

__kernel void staged(__global const float *x, __global const int *col,
                     __global float *y)
{
    __local float tile[64];
    int i = get_global_id(0);
    tile[i % 64] = x[col[i]];
    barrier(CLK_LOCAL_MEM_FENCE);
    y[i] = tile[(i + 1) % 64];
}

__kernel void shared(__global const float *x, __global const int *col,
                     __global float *y, __local float *scratch)
{
    int i = get_global_id(0);
    scratch[0] = 0.0f;
    y[i] = x[col[i]];
}

__kernel void counted(__global const float *x, __global const int *col,
                      __global float *y, __global int *hits)
{
    int i = get_global_id(0);
    y[i] = x[col[i]];
    atomic_inc(hits);
}

__kernel void lane(__global const float *x, __global const int *col,
                   __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i]] + (float)get_local_id(0);
}

__kernel void helper(__global const float *x, __global const int *col,
                     __global float *y)
{
    int i = get_global_id(0);
    y[i] = twice(x[col[i]]);
}

__kernel void fenced(__global const float *x, __global const int *col,
                     __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i]];
    barrier(CLK_GLOBAL_MEM_FENCE);
}

__kernel void said(__global const float *x, __global const int *col,
                   __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i]];
    if (i == 0)
        printf("%f\n", y[i]);
}
