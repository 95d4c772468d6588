// dla-args:
// once declined (the pointer is passed to a function): the helper is
// defined in this source, so the transformed branch calls a copy of it
struct foo { float a, b; };

static float sum(__global struct foo *p, int i) { return p[i].a + p[i].b; }

#ifdef DL_ACTIVE_k
static float dla_k_p_sum(__global struct foo *p, size_t dla_x_p, size_t dla_M_p, int i) { return ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(dla_x_p + (size_t)(i))] + ((__global float *)((__global char *)(p) + 4u * dla_M_p))[(dla_x_p + (size_t)(i))]; }
#endif
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> da
__kernel void k(__global struct foo *p, __global float *out, int n)
{
#ifdef DL_ACTIVE_k
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        out[i] = dla_k_p_sum(p, (size_t)(0), dla_M_p, i) + ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(size_t)(i)];

#else

    int i = get_global_id(0);
    if (i < n)
        out[i] = sum(p, i) + p[i].a;

#endif
}
