// dla-args: --layout da
// p[i].f, the count from the guard `if (i < n)`
struct particle { float x, y, z; float mass; };

#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards.
 * The ids are bounded as ints (as in `int x = get_global_id(0)`): with an
 * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, which POCL's
 * vectoriser turns into gathers and scatters. */
#ifdef __clang__
#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && (int)get_global_id(d) >= (int)(e))
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) __builtin_unreachable()
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
//DL: v1 aos: p[n] record(size=16; 0:4, 4:4, 8:4, 12:4) -> da
__kernel void scale(__global struct particle *p, float s, int n)
{
#ifdef DL_ACTIVE_scale
DLA_LAYOUT_CHECK(sizeof(*p) == 16u, dla_layout_p_size_16);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, x) == 0u, dla_layout_p_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->x) == 4u, dla_layout_p_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, y) == 4u, dla_layout_p_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->y) == 4u, dla_layout_p_y_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, z) == 8u, dla_layout_p_z_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->z) == 4u, dla_layout_p_z_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, mass) == 12u, dla_layout_p_mass_at_12);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->mass) == 4u, dla_layout_p_mass_size_4);
#ifdef DL_GLOBAL_END_scale
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_scale);
#endif
#ifndef DLA_PAD_scale_p
#define DLA_PAD_scale_p 0
#endif
const size_t dla_M_p = (size_t)(long)(n) + DLA_PAD_scale_p;

    int i = get_global_id(0);
    if (i < n) {
        ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(size_t)(i)] *= s;
        ((__global float *)((__global char *)(p) + 4u * dla_M_p))[(size_t)(i)] *= s;
        ((__global float *)((__global char *)(p) + 8u * dla_M_p))[(size_t)(i)] = ((__global float *)((__global char *)(p) + 8u * dla_M_p))[(size_t)(i)] * s + ((__global float *)((__global char *)(p) + 12u * dla_M_p))[(size_t)(i)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        p[i].x *= s;
        p[i].y *= s;
        p[i].z = p[i].z * s + p[i].mass;
    }

#endif
}
