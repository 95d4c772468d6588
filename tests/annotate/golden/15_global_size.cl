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
//DL: v1 aos: t[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void fill(__global struct kv *t)
{
#ifdef DL_ACTIVE_fill
DLA_LAYOUT_CHECK(sizeof(*t) == 8u, dla_layout_t_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct kv, key) == 0u, dla_layout_t_key_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct kv *)0)->key) == 4u, dla_layout_t_key_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct kv, val) == 4u, dla_layout_t_val_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct kv *)0)->val) == 4u, dla_layout_t_val_size_4);
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
