// dla-args: --layout asta --tile 4
// tiled launch without padding: no guard (the count is the range), and
// get_global_size(0) / get_global_offset(0) read from the 2-D range
struct cell { float v; float w; };

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
#ifndef DL_TILE_ramp_c
#define DL_TILE_ramp_c 4
#endif
//DL: v1 launch: tiled
//DL: v1 aos: c[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> asta(4)
__kernel void ramp(__global struct cell *c)
{
#ifdef DL_ACTIVE_ramp
DLA_LAYOUT_CHECK(sizeof(*c) == 8u, dla_layout_c_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, v) == 0u, dla_layout_c_v_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->v) == 4u, dla_layout_c_v_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, w) == 4u, dla_layout_c_w_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->w) == 4u, dla_layout_c_w_size_4);
#if DL_TILE_ramp_c > 1 && DL_TILE_ramp_c <= 1024 && !defined(DL_FLAT_ramp)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_c = (size_t)(((long)get_global_offset(1) * (long)(get_global_size(0))) + ((long)get_global_size(0) * (long)get_global_size(1)));

    size_t i = (get_global_id(1) * (size_t)(DL_TILE_ramp_c) + get_global_id(0));
    float span = (float)(get_global_size(0) * get_global_size(1));
    (*(__global float *)((__global char *)(c) + DLA_ASTA_TILED(DL_TILE_ramp_c, dla_M_c, 8u, 0u, 4u))) = (float)(i - (get_global_offset(1) * (size_t)(DL_TILE_ramp_c))) / span;
    (*(__global float *)((__global char *)(c) + DLA_ASTA_TILED(DL_TILE_ramp_c, dla_M_c, 8u, 4u, 4u))) += (*(__global float *)((__global char *)(c) + DLA_ASTA_TILED(DL_TILE_ramp_c, dla_M_c, 8u, 0u, 4u)));

#else
#ifdef DL_GLOBAL_END_ramp
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_ramp);
#endif
const size_t dla_M_c = (size_t)((long)get_global_offset(0) + (long)get_global_size(0));

    size_t i = get_global_id(0);
    float span = (float)get_global_size(0);
    (*(__global float *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_ramp_c, dla_M_c, 8u, 0u, 4u))) = (float)(i - get_global_offset(0)) / span;
    (*(__global float *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_ramp_c, dla_M_c, 8u, 4u, 4u))) += (*(__global float *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_ramp_c, dla_M_c, 8u, 0u, 4u)));

#endif
#else

    size_t i = get_global_id(0);
    float span = (float)get_global_size(0);
    c[i].v = (float)(i - get_global_offset(0)) / span;
    c[i].w += c[i].v;

#endif
}
