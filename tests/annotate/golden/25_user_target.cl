// dla-args:
// the user's annotation names the target: asta(16) wins over --layout

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
#ifndef DL_TILE_add_v
#define DL_TILE_add_v 16
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: v[n][4] -> asta(16)
__kernel void add(__global float *v, int n)
{
#ifdef DL_ACTIVE_add
#if DL_TILE_add_v > 1 && DL_TILE_add_v <= 1024 && !defined(DL_FLAT_add)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_v = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_add_v) + get_global_id(0));
    if (i < n)
        (v)[DLA_ASTA_OFF((size_t)(i), DL_TILE_add_v, dla_M_v, 4u, 0u, 1u)] += (v)[DLA_ASTA_OFF((size_t)(i), DL_TILE_add_v, dla_M_v, 4u, 3u, 1u)];

#else
#ifdef DL_GLOBAL_END_add
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_add);
#endif
const size_t dla_M_v = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        (v)[DLA_ASTA_OFF((size_t)(i), DL_TILE_add_v, dla_M_v, 4u, 0u, 1u)] += (v)[DLA_ASTA_OFF((size_t)(i), DL_TILE_add_v, dla_M_v, 4u, 3u, 1u)];

#endif
#else

    int i = get_global_id(0);
    if (i < n)
        v[i * 4 + 0] += v[i * 4 + 3];

#endif
}
