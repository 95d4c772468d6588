// dla-args:
// once declined (the pointer is passed to a function): the helper is
// defined in this source, so the transformed branch calls a copy of it
struct foo { float a, b; };

static float sum(__global struct foo *p, int i) { return p[i].a + p[i].b; }

#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards. */
#ifdef __clang__
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) >= (e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
#ifdef DL_ACTIVE_k
static float dla_k_p_sum(__global struct foo *p, size_t dla_x_p, size_t dla_M_p, int i) { return ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(dla_x_p + (size_t)(i))] + ((__global float *)((__global char *)(p) + 4u * dla_M_p))[(dla_x_p + (size_t)(i))]; }
#endif
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> da
__kernel void k(__global struct foo *p, __global float *out, int n)
{
#ifdef DL_ACTIVE_k
#ifdef DL_GLOBAL_END_k
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_k);
#endif
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
