// dla-args:
// the user asks for a conversion of g, which cannot be rewritten (it
// escapes): its annotation loses the target, p is still rewritten
struct foo { float a, b; };

static float first(__global float *v) { return v[0]; }

//DL: AoS: g[n][4] -> da
__kernel void k(__global struct foo *p, __global float *g, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = first(g) + g[i * 4 + 1];
}
