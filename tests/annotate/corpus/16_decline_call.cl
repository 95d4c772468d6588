// dla-args:
// once declined (the pointer is passed to a function): the helper is
// defined in this source, so the transformed branch calls a copy of it
struct foo { float a, b; };

static float sum(__global struct foo *p, int i) { return p[i].a + p[i].b; }

__kernel void k(__global struct foo *p, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = sum(p, i) + p[i].a;
}
