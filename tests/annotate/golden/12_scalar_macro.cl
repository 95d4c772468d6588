// dla-args: --layout asta --tile 32 -DQ=5
// dla-build: -DQ=5
// a scalar array indexed through a macro: IDX(c, 0) splits into record c
// and element 0, IDX(c, k) is divided by the stride
#define IDX(cell, k) ((cell) * 5 + (k))


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
#ifndef DL_TILE_collide_f
#define DL_TILE_collide_f 32
#endif
//DL: v1 launch: tiled(m)
//DL: v1 aos: f[m][5] -> asta(32)
__kernel void collide(__global float *f, int m)
{
#ifdef DL_ACTIVE_collide
#if DL_TILE_collide_f > 1 && DL_TILE_collide_f <= 1024 && !defined(DL_FLAT_collide)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_f = (size_t)(long)(m);

    int c = (get_global_id(1) * (size_t)(DL_TILE_collide_f) + get_global_id(0));
    if (c >= m)
        return;
    float rho = 0.0f;
    for (int k = 0; k < Q; k++)
        rho += (f)[DLA_ASTA_OFF(((size_t)(IDX(c, k)) / 5u), DL_TILE_collide_f, dla_M_f, 5u, ((size_t)(IDX(c, k)) % 5u), 1u)];
    (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_collide_f, dla_M_f, 5u, 0u, 1u)] = rho;

#else
#ifdef DL_GLOBAL_END_collide
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_collide);
#endif
const size_t dla_M_f = (size_t)(long)(m);

    int c = get_global_id(0);
    if (c >= m)
        return;
    float rho = 0.0f;
    for (int k = 0; k < Q; k++)
        rho += (f)[DLA_ASTA_OFF(((size_t)(IDX(c, k)) / 5u), DL_TILE_collide_f, dla_M_f, 5u, ((size_t)(IDX(c, k)) % 5u), 1u)];
    (f)[DLA_ASTA_OFF((size_t)(c), DL_TILE_collide_f, dla_M_f, 5u, 0u, 1u)] = rho;

#endif
#else

    int c = get_global_id(0);
    if (c >= m)
        return;
    float rho = 0.0f;
    for (int k = 0; k < Q; k++)
        rho += f[IDX(c, k)];
    f[IDX(c, 0)] = rho;

#endif
}
