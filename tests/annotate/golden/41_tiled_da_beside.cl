// dla-args: --layout asta --tile 8
// tiled launch with a DA argument beside the ASTA one: the DA index of
// the own record is contiguous in the lanes too, and both counts are read
// from the tiled range
struct v2 { float x, y; };


#ifndef DLA_ASTA_OFF
/* dl-annotate: offset of part o (size z) of record i in ASTA(T) of M records
 * of S units; the tail tile of M%T records has width M%T (docs/layouts.md). */
#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + (o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + (i) % (T) * (z))
#endif
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
#ifndef DLA_ASTA_TILED
/* dl-annotate: the same for the work-item's own record in the tiled range:
 * tile get_global_id(1), lane get_global_id(0). */
#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * (S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + get_global_id(0) * (z))
#endif
#ifndef DL_TILE_mix_a
#define DL_TILE_mix_a 8
#endif
//DL: v1 launch: tiled
//DL: v1 aos: a[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> asta(8)
//DL: v1 aos: b[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void mix(__global struct v2 *a, __global struct v2 *b)
{
#ifdef DL_ACTIVE_mix
DLA_LAYOUT_CHECK(sizeof(*a) == 8u, dla_layout_a_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct v2, x) == 0u, dla_layout_a_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct v2 *)0)->x) == 4u, dla_layout_a_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct v2, y) == 4u, dla_layout_a_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct v2 *)0)->y) == 4u, dla_layout_a_y_size_4);
DLA_LAYOUT_CHECK(sizeof(*b) == 8u, dla_layout_b_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct v2, x) == 0u, dla_layout_b_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct v2 *)0)->x) == 4u, dla_layout_b_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct v2, y) == 4u, dla_layout_b_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct v2 *)0)->y) == 4u, dla_layout_b_y_size_4);
#if DL_TILE_mix_a > 1 && DL_TILE_mix_a <= 1024 && !defined(DL_FLAT_mix)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_a = (size_t)(((long)get_global_offset(1) * (long)(get_global_size(0))) + ((long)get_global_size(0) * (long)get_global_size(1)));
const size_t dla_M_b = (size_t)(((long)get_global_offset(1) * (long)(get_global_size(0))) + ((long)get_global_size(0) * (long)get_global_size(1)));

    size_t i = (get_global_id(1) * (size_t)(DL_TILE_mix_a) + get_global_id(0));
    (*(__global float *)((__global char *)(a) + DLA_ASTA_TILED(DL_TILE_mix_a, dla_M_a, 8u, 0u, 4u))) += ((__global float *)((__global char *)(b) + 4u * dla_M_b))[(size_t)(i)];
    ((__global float *)((__global char *)(b) + 0u * dla_M_b))[(size_t)(i)] = (*(__global float *)((__global char *)(a) + DLA_ASTA_TILED(DL_TILE_mix_a, dla_M_a, 8u, 4u, 4u)));

#else
#ifdef DL_GLOBAL_END_mix
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_mix);
#endif
const size_t dla_M_a = (size_t)((long)get_global_offset(0) + (long)get_global_size(0));
#ifndef DLA_PAD_mix_b
#define DLA_PAD_mix_b 0
#endif
const size_t dla_M_b = (size_t)((long)get_global_offset(0) + (long)get_global_size(0)) + DLA_PAD_mix_b;

    size_t i = get_global_id(0);
    (*(__global float *)((__global char *)(a) + DLA_ASTA_OFF((size_t)(i), DL_TILE_mix_a, dla_M_a, 8u, 0u, 4u))) += ((__global float *)((__global char *)(b) + 4u * dla_M_b))[(size_t)(i)];
    ((__global float *)((__global char *)(b) + 0u * dla_M_b))[(size_t)(i)] = (*(__global float *)((__global char *)(a) + DLA_ASTA_OFF((size_t)(i), DL_TILE_mix_a, dla_M_a, 8u, 4u, 4u)));

#endif
#else

    size_t i = get_global_id(0);
    a[i].x += b[i].y;
    b[i].x = a[i].y;

#endif
}
