// dla-args:
// declined: the helper reads the record as raw words
struct rec { float a, b; };

static float raw(__global struct rec *q) { return ((__global float *)q)[1]; }

__kernel void words(__global struct rec *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = raw(&p[i]);
}
