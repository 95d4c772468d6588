// dla-args:
// declined: the pointer escapes into a function
struct foo { float a, b; };

static float sum(__global struct foo *p, int i) { return p[i].a + p[i].b; }

__kernel void k(__global struct foo *p, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = sum(p, i) + p[i].a;
}
