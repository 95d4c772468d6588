// dla-args: -DNE=4
// dla-build: -DNE=4
// a count that names a macro the source defines (Parboil's sizes live in
// layout_config.h): the runtime reads only the build options' macros, so
// dl-annotate rewrites the kernel and warns; NE, given with -D, is fine
#define CELLS 64



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
//DL: v1 aos: f[CELLS][4] -> da
//DL: v1 aos: g[NE * 16][4] -> da
__kernel void relax(__global float *f, __global float *g)
{
#ifdef DL_ACTIVE_relax
#ifdef DL_GLOBAL_END_relax
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_relax);
#endif
const size_t dla_M_f = (size_t)(long)(CELLS);
const size_t dla_M_g = (size_t)((long)(NE) * 16L);

    int c = get_global_id(0);
    (f)[1u * dla_M_f + (size_t)(c)] = (f)[0u * dla_M_f + (size_t)(c)] * 0.5f;
    (g)[2u * dla_M_g + (size_t)(c)] = (g)[3u * dla_M_g + (size_t)(c)];

#else

    int c = get_global_id(0);
    f[4 * c + 1] = f[4 * c] * 0.5f;
    g[4 * c + 2] = g[c * 4 + 3];

#endif
}
