// dla-args:
// indirect references through index buffers: A[P[i]], a field of a
// record A[P[i]].y, an offset A[P[i] + 1] and A[P[i] - n], one array
// through two index buffers, one index buffer for two arrays; the same
// reference twice is annotated once
struct atom { float x, y, z, w; };

__kernel void gather(__global const float *x, __global const float *w,
                     __global const int *col, __global const uint *perm,
                     __global const struct atom *a, __global float *out,
                     int n)
{
    int i = get_global_id(0);
    float s = x[col[i]] + x[perm[i]] + w[col[i]];
    s += x[col[i] + 1] - x[col[i] - n] + x[col[i]];
    s += a[perm[i]].y * a[perm[get_global_id(0)]].y;
    out[i] = s + a[col[2 * i + 1]].w;
}
