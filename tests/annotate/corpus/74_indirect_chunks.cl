// Which redirected kernels may run in chunks (launch: chunks): one that
// reads only its global id may; one that reads the global size, one with
// a barrier and one that calls a function of the source may not, and a
// chunks flag written by hand on such a kernel is removed.

float twice(float v) { return 2.0f * v; }

__kernel void plain(__global const float *x, __global const int *p,
                    __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = x[p[i]];
}

__kernel void strided(__global const float *x, __global const int *p,
                      __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = x[p[i]] + (float)get_global_size(0);
}

__kernel void grouped(__global const float *x, __global const int *p,
                      __global float *y)
{
    size_t i = get_global_id(0);
    float v = x[p[i]];
    barrier(CLK_GLOBAL_MEM_FENCE);
    y[i] = v;
}

//DL: launch: chunks
__kernel void helped(__global const float *x, __global const int *p,
                     __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = twice(x[p[i]]);
}
