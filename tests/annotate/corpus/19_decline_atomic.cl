// dla-args:
// declined: an atomic on a field
struct bin { int count; float sum; };

__kernel void hist(__global struct bin *b, __global const float *x, int n)
{
    int i = get_global_id(0);
    if (i < n)
        atomic_add(&b[(int)x[i] & 15].count, 1);
}
