// dla-args: -DNE=4
// dla-build: -DNE=4
// counts that name macros the source defines (Parboil's sizes, when its
// layout_config.h is pasted in): the runtime reads the source's #define
// lines, so CELLS is fine, as is NE, given with -D; ROWS, defined in both
// branches of an #ifdef, is not: dl-annotate rewrites the kernel and warns
#define CELLS 64
#ifdef BIG
#define ROWS 128
#else
#define ROWS 64
#endif




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
#ifndef DLA_ASTA_TILED
/* dl-annotate: the same for the work-item's own record in the tiled range:
 * tile get_global_id(1), lane get_global_id(0). */
#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * (S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + get_global_id(0) * (z))
#endif
#ifndef DL_TILE_relax_f
#define DL_TILE_relax_f 32
#endif
#ifndef DL_TILE_relax_g
#define DL_TILE_relax_g 32
#endif
#ifndef DL_TILE_relax_h
#define DL_TILE_relax_h 32
#endif
//DL: v1 launch: tiled
//DL: v1 aos: f[CELLS][4] -> asta(auto)
//DL: v1 aos: g[NE * 16][4] -> asta(auto)
//DL: v1 aos: h[ROWS][4] -> asta(auto)
__kernel void relax(__global float *f, __global float *g, __global float *h)
{
#ifdef DL_ACTIVE_relax
#if DL_TILE_relax_f > 1 && DL_TILE_relax_f <= 1024 && DL_TILE_relax_g == DL_TILE_relax_f && DL_TILE_relax_h == DL_TILE_relax_f && !defined(DL_FLAT_relax)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_f = (size_t)(long)(CELLS);
const size_t dla_M_g = (size_t)((long)(NE) * 16L);
const size_t dla_M_h = (size_t)(long)(ROWS);

    int c = (get_global_id(1) * (size_t)(DL_TILE_relax_f) + get_global_id(0));
    (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_f, dla_M_f, 4u, 1u, 1u)] = (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_f, dla_M_f, 4u, 0u, 1u)] * 0.5f;
    (g)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_g, dla_M_g, 4u, 2u, 1u)] = (g)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_g, dla_M_g, 4u, 3u, 1u)];
    (h)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_h, dla_M_h, 4u, 0u, 1u)] = (h)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_h, dla_M_h, 4u, 1u, 1u)];

#else
#ifdef DL_GLOBAL_END_relax
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_relax);
#endif
const size_t dla_M_f = (size_t)(long)(CELLS);
const size_t dla_M_g = (size_t)((long)(NE) * 16L);
const size_t dla_M_h = (size_t)(long)(ROWS);

    int c = get_global_id(0);
    (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_f, dla_M_f, 4u, 1u, 1u)] = (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_f, dla_M_f, 4u, 0u, 1u)] * 0.5f;
    (g)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_g, dla_M_g, 4u, 2u, 1u)] = (g)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_g, dla_M_g, 4u, 3u, 1u)];
    (h)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_h, dla_M_h, 4u, 0u, 1u)] = (h)[DLA_ASTA_OFF((size_t)(c), DL_TILE_relax_h, dla_M_h, 4u, 1u, 1u)];

#endif
#else

    int c = get_global_id(0);
    f[4 * c + 1] = f[4 * c] * 0.5f;
    g[4 * c + 2] = g[c * 4 + 3];
    h[4 * c] = h[4 * c + 1];

#endif
}
