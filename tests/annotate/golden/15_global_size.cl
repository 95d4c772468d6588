// dla-args:
// no guard: the count is the NDRange (offset + size)
struct kv { uint key; float val; };

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
//DL: v1 aos: t[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void fill(__global struct kv *t)
{
#ifdef DL_ACTIVE_fill
#ifdef DL_GLOBAL_END_fill
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_fill);
#endif
const size_t dla_M_t = (size_t)((long)get_global_offset(0) + (long)get_global_size(0));

    size_t i = get_global_id(0);
    ((__global uint *)((__global char *)(t) + 0u * dla_M_t))[(size_t)(i)] = (uint)i;
    ((__global float *)((__global char *)(t) + 4u * dla_M_t))[(size_t)(i)] = 0.0f;

#else

    size_t i = get_global_id(0);
    t[i].key = (uint)i;
    t[i].val = 0.0f;

#endif
}
