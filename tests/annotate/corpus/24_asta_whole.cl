// dla-args: --layout asta --tile 4
// whole records in ASTA(4) (tail tiles included) and a user target
struct pair { float a; int b; short c; };

__kernel void copy(__global struct pair *src, __global struct pair *dst,
                   int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}
