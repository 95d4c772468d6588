// dla-args:
// declined: the pointer is stored in another variable
struct foo { float a, b; };

__kernel void k(__global struct foo *p, int n)
{
    int i = get_global_id(0);
    __global struct foo *r = p;
    if (i < n)
        r[i].a = p[i].b;
}
