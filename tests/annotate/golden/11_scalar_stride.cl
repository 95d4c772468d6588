// dla-args:
// a scalar array with record stride 20, declared by an annotation; a
// loop variable in [0, 20) splits the index, a stepped one does not

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
#ifndef DL_TILE_relax_grid
#define DL_TILE_relax_grid 32
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: grid[n][20] -> asta(auto)
__kernel void relax(__global float *grid, int n)
{
#ifdef DL_ACTIVE_relax
#if DL_TILE_relax_grid > 1 && DL_TILE_relax_grid <= 1024 && !defined(DL_FLAT_relax)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_grid = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_relax_grid) + get_global_id(0));
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, (size_t)(k), 1u)];
    for (int k = 0; k < 20; k += 2)
        sum += (grid)[DLA_ASTA_OFF(((size_t)(i * 20 + k) / 20u), DL_TILE_relax_grid, dla_M_grid, 20u, ((size_t)(i * 20 + k) % 20u), 1u)];
    (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 19u, 1u)] = sum;
    (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 0u, 1u)] = (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 1u, 1u)] * 0.5f;

#else
#ifdef DL_GLOBAL_END_relax
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_relax);
#endif
const size_t dla_M_grid = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, (size_t)(k), 1u)];
    for (int k = 0; k < 20; k += 2)
        sum += (grid)[DLA_ASTA_OFF(((size_t)(i * 20 + k) / 20u), DL_TILE_relax_grid, dla_M_grid, 20u, ((size_t)(i * 20 + k) % 20u), 1u)];
    (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 19u, 1u)] = sum;
    (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 0u, 1u)] = (grid)[DLA_ASTA_OFF((size_t)(i), DL_TILE_relax_grid, dla_M_grid, 20u, 1u, 1u)] * 0.5f;

#endif
#else

    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += grid[i * 20 + k];
    for (int k = 0; k < 20; k += 2)
        sum += grid[i * 20 + k];
    grid[i * 20 + 19] = sum;
    grid[i * 20 + 0] = grid[i * 20 + 1] * 0.5f;

#endif
}
