// dla-args:
// declined: the address of a field is passed on
struct foo { float a, b; };

static void set(__global float *f) { *f = 1.0f; }

__kernel void k(__global struct foo *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        set(&p[i].b);
}
