// dla-args:
// the shared form under DL_SHARE_<kernel>: the group's block of A copied
// into __local dl_share before any work-item reads it, and A[P[E]] read
// as dl_share[P[E]], for a loop (ELL), a record's field and a kernel that
// returns early; no shared form, each with its reason, for an offset, two
// arrays through index buffers and a kernel whose jobs see their group
struct atom { float x, y, z, w; };

__kernel void ell(__global const float *val, __global const int *col,
                  __global const float *x, __global float *y, int n)
{
    int row = get_global_id(0);
    if (row >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < 4; j++)
        s += val[j * n + row] * x[col[j * n + row]];
    y[row] = s;
}

__kernel void field(__global const struct atom *a, __global const uint *perm,
                    __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = a[perm[i]].y * 2.0f;
}

__kernel void offset(__global const float *x, __global const int *col,
                     __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i] + 1];
}

__kernel void two(__global const float *x, __global const float *w,
                  __global const int *col, __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i]] + w[col[i]];
}

__kernel void grouped(__global const float *x, __global const int *col,
                      __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[col[i]] * (float)get_group_id(0);
}
