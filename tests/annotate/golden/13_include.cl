// dla-args: -I include
// dla-build: -I include
// the record comes from a header found with -I
#include "particle.h"

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
#ifndef DLA_LAYOUT_CHECK
/* dl-annotate: the transformed branch checks that the record is laid out as
 * when the file was annotated (a -D option may change it): a mismatch fails
 * the activated build, and the runtime runs the program as written. */
#define DLA_LAYOUT_CHECK(c, name) typedef char name[(c) ? 1 : -1]
#if defined(__clang__) || defined(__GNUC__)
#define DLA_OFFSETOF(T, f) __builtin_offsetof(T, f)
#else
#define DLA_OFFSETOF(T, f) ((size_t) & ((T *)0)->f)
#endif
#endif
//DL: v1 aos: p[n] record(size=32; 0:16, 16:4) -> da
__kernel void damp(__global particle_t *p, int n)
{
#ifdef DL_ACTIVE_damp
DLA_LAYOUT_CHECK(sizeof(*p) == 32u, dla_layout_p_size_32);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(particle_t, pos) == 0u, dla_layout_p_pos_at_0);
DLA_LAYOUT_CHECK(sizeof(((particle_t *)0)->pos) == 16u, dla_layout_p_pos_size_16);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(particle_t, charge) == 16u, dla_layout_p_charge_at_16);
DLA_LAYOUT_CHECK(sizeof(((particle_t *)0)->charge) == 4u, dla_layout_p_charge_size_4);
#ifdef DL_GLOBAL_END_damp
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_damp);
#endif
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        ((__global float *)((__global char *)(p) + 16u * dla_M_p))[(size_t)(i)] *= DAMP;

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].charge *= DAMP;

#endif
}
