// dla-args: --layout asta --tile 16
// accesses that function-like macros make from their arguments, in the
// style of Parboil's LBM: `SRC_W(g)` expands to ((g)[CALC(...)]), the
// invocation is rewritten and its index read as &(SRC_W(g)) - g; a
// constant element splits the index, another is divided by the stride
typedef enum { RHO = 0, MX, MY, WALL, N_SLOTS } slot;
#define CALC(cell, e) (e + N_SLOTS * (cell))
#define LOCAL(g, e) ((g)[CALC(me, e)])
#define AT(g, i) ((g)[i])
#define SRC_RHO(g) (LOCAL(g, RHO))
#define SRC_W(g) (LOCAL(g, MX))
#define DST_W(g) ((g)[CALC(me + 1, MX)])



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
#ifndef DL_TILE_push_src
#define DL_TILE_push_src 16
#endif
#ifndef DL_TILE_push_dst
#define DL_TILE_push_dst 16
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: src[n + 1][4] -> asta(16)
//DL: v1 aos: dst[n + 1][4] -> asta(16)
__kernel void push(__global const float *src, __global float *dst, int n)
{
#ifdef DL_ACTIVE_push
#if DL_TILE_push_src > 1 && DL_TILE_push_src <= 1024 && DL_TILE_push_dst == DL_TILE_push_src && !defined(DL_FLAT_push)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_src = (size_t)((long)(n) + 1L);
const size_t dla_M_dst = (size_t)((long)(n) + 1L);

    int me = (get_global_id(1) * (size_t)(DL_TILE_push_src) + get_global_id(0));
    if (me >= n)
        return;
    float rho = (src)[DLA_ASTA_OFF((size_t)(((&(SRC_RHO(src)) - (src)) - 0L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 0u, 1u)], w = (src)[DLA_ASTA_OFF((size_t)(((&(SRC_W(src)) - (src)) - 1L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 1u, 1u)];
    if (as_uint((src)[DLA_ASTA_OFF((size_t)(((&(LOCAL(src, WALL)) - (src)) - 3L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 3u, 1u)]) & 1u)
        w = -w;
    (dst)[DLA_ASTA_OFF((size_t)(((&(DST_W(dst)) - (dst)) - 1L) / 4L), DL_TILE_push_dst, dla_M_dst, 4u, 1u, 1u)] = w * rho;
    (dst)[DLA_ASTA_OFF((size_t)(((&(AT(dst, 4 * me + MY)) - (dst)) - 2L) / 4L), DL_TILE_push_dst, dla_M_dst, 4u, 2u, 1u)] = (src)[DLA_ASTA_OFF((((size_t)(&(AT(src, me * 4 + (int)(rho > 1.0f))) - (src))) / 4u), DL_TILE_push_src, dla_M_src, 4u, (((size_t)(&(AT(src, me * 4 + (int)(rho > 1.0f))) - (src))) % 4u), 1u)];

#else
#ifdef DL_GLOBAL_END_push
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_push);
#endif
const size_t dla_M_src = (size_t)((long)(n) + 1L);
const size_t dla_M_dst = (size_t)((long)(n) + 1L);

    int me = get_global_id(0);
    if (me >= n)
        return;
    float rho = (src)[DLA_ASTA_OFF((size_t)(((&(SRC_RHO(src)) - (src)) - 0L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 0u, 1u)], w = (src)[DLA_ASTA_OFF((size_t)(((&(SRC_W(src)) - (src)) - 1L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 1u, 1u)];
    if (as_uint((src)[DLA_ASTA_OFF((size_t)(((&(LOCAL(src, WALL)) - (src)) - 3L) / 4L), DL_TILE_push_src, dla_M_src, 4u, 3u, 1u)]) & 1u)
        w = -w;
    (dst)[DLA_ASTA_OFF((size_t)(((&(DST_W(dst)) - (dst)) - 1L) / 4L), DL_TILE_push_dst, dla_M_dst, 4u, 1u, 1u)] = w * rho;
    (dst)[DLA_ASTA_OFF((size_t)(((&(AT(dst, 4 * me + MY)) - (dst)) - 2L) / 4L), DL_TILE_push_dst, dla_M_dst, 4u, 2u, 1u)] = (src)[DLA_ASTA_OFF((((size_t)(&(AT(src, me * 4 + (int)(rho > 1.0f))) - (src))) / 4u), DL_TILE_push_src, dla_M_src, 4u, (((size_t)(&(AT(src, me * 4 + (int)(rho > 1.0f))) - (src))) % 4u), 1u)];

#endif
#else

    int me = get_global_id(0);
    if (me >= n)
        return;
    float rho = SRC_RHO(src), w = SRC_W(src);
    if (as_uint(LOCAL(src, WALL)) & 1u)
        w = -w;
    DST_W(dst) = w * rho;
    AT(dst, 4 * me + MY) = AT(src, me * 4 + (int)(rho > 1.0f));

#endif
}
