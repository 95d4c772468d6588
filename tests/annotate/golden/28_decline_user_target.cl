// dla-args:
// the user asks for a conversion of g, which cannot be rewritten (it
// escapes): its annotation loses the target, p is still rewritten
struct foo { float a, b; };

static float first(__global float *v) { return v[0]; }

//DL: v1 aos: g[n][4]
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
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> da
__kernel void k(__global struct foo *p, __global float *g, int n)
{
#ifdef DL_ACTIVE_k
#ifdef DL_GLOBAL_END_k
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_k);
#endif
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
