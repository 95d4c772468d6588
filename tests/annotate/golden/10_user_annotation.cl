// dla-args:
// the paper's annotation form: the count comes from the user
struct foo { float bar; int baz; };


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
//DL: v1 aos: f[global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void scale(__global struct foo *f)
{
#ifdef DL_ACTIVE_scale
#ifdef DL_GLOBAL_END_scale
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_scale);
#endif
const size_t dla_M_f = (size_t)(long)get_global_size(0);

    ((__global float *)((__global char *)(f) + 0u * dla_M_f))[(size_t)(get_global_id(0))] *= 2.0f;
    ((__global int *)((__global char *)(f) + 4u * dla_M_f))[(size_t)(get_global_id(0))] += 1;

#else

    f[get_global_id(0)].bar *= 2.0f;
    f[get_global_id(0)].baz += 1;

#endif
}
