// dla-args:
// the user asks for a conversion of g, which cannot be rewritten (it
// escapes): its annotation loses the target, p is still rewritten
struct foo { float a, b; };

static float first(__global float *v) { return v[0]; }

//DL: v1 aos: g[n][4]
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> da
__kernel void k(__global struct foo *p, __global float *g, int n)
{
#ifdef DL_ACTIVE_k
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(size_t)(i)] = first(g) + g[i * 4 + 1];

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].a = first(g) + g[i * 4 + 1];

#endif
}
