// dla-args: -DNX=1 -DNY=1 -DNZ=1 --layout asta --tile 8
// dla-build: -DNX=8 -DNY=4 -DNZ=4
// Parboil LBM's style as written, only the count annotations added: 20
// floats a cell, lattices moved past a margin, SRC_/DST_ macros over
// LOCAL/NEIGHBOR, CALC_INDEX's `e + N*(cell)`, flags through as_uint,
// counts that name the build's macros
typedef enum { C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB,
               ET, EB, WT, WB, FLAGS, N_CELL_ENTRIES } CELL_ENTRIES;
#define CALC_INDEX(x, y, z, e) ( e + N_CELL_ENTRIES*\
                                 ((x) + (y)*NX + (z)*NX*NY) )
#define MARGIN (CALC_INDEX(0, 0, 1, 0) - CALC_INDEX(0, 0, 0, 0))
#define LOCAL(g, e) ((g)[CALC_INDEX(x, y, z, e)])
#define NEIGHBOR(g, e, dx, dy, dz) \
    ((g)[CALC_INDEX(x + (dx), y + (dy), z + (dz), e)])
#define SRC_C(g) (LOCAL(g, C))
#define SRC_N(g) (LOCAL(g, N))
#define SRC_S(g) (LOCAL(g, S))
#define DST_C(g) (NEIGHBOR(g, C, 0, 0, 0))
#define DST_N(g) (NEIGHBOR(g, N, 0, +1, 0))
#define DST_S(g) (NEIGHBOR(g, S, 0, -1, 0))
#define OBSTACLE (1 << 0)



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
#ifndef DLA_FDIV
/* dl-annotate: an array moved by `p += C`: element k + C of record r is
 * record r + DLA_FDIV(k + C, K), element DLA_FMOD(k + C, K) (floor division). */
#define DLA_FDIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - 1) / (s)))
#define DLA_FMOD(x, s) ((x) - DLA_FDIV(x, s) * (s))
#endif
#ifndef DL_TILE_performStreamCollide_srcGrid
#define DL_TILE_performStreamCollide_srcGrid 8
#endif
#ifndef DL_TILE_performStreamCollide_dstGrid
#define DL_TILE_performStreamCollide_dstGrid 8
#endif
//DL: v1 aos: srcGrid[NX * NY * (NZ + 2)][20] -> asta(8)
//DL: v1 aos: dstGrid[NX * NY * (NZ + 2)][20] -> asta(8)
__kernel void performStreamCollide(__global float *srcGrid,
                                   __global float *dstGrid)
{
#ifdef DL_ACTIVE_performStreamCollide
#ifdef DL_GLOBAL_END_performStreamCollide
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_performStreamCollide);
#endif
const size_t dla_M_srcGrid = (size_t)(((long)(NX) * (long)(NY)) * ((long)(NZ) + 2L));
const size_t dla_M_dstGrid = (size_t)(((long)(NX) * (long)(NY)) * ((long)(NZ) + 2L));

    (void)0;
    (void)0;
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    float tempC = (srcGrid)[DLA_ASTA_OFF(((size_t)(((&(SRC_C(srcGrid)) - (srcGrid)) - 0L) / 20L) + (size_t)DLA_FDIV(((long)0u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_srcGrid, dla_M_srcGrid, 20u, (size_t)DLA_FMOD(((long)0u + (long)(MARGIN)), 20L), 1u)], tempN = (srcGrid)[DLA_ASTA_OFF(((size_t)(((&(SRC_N(srcGrid)) - (srcGrid)) - 1L) / 20L) + (size_t)DLA_FDIV(((long)1u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_srcGrid, dla_M_srcGrid, 20u, (size_t)DLA_FMOD(((long)1u + (long)(MARGIN)), 20L), 1u)],
          tempS = (srcGrid)[DLA_ASTA_OFF(((size_t)(((&(SRC_S(srcGrid)) - (srcGrid)) - 2L) / 20L) + (size_t)DLA_FDIV(((long)2u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_srcGrid, dla_M_srcGrid, 20u, (size_t)DLA_FMOD(((long)2u + (long)(MARGIN)), 20L), 1u)];
    if (as_uint((srcGrid)[DLA_ASTA_OFF(((size_t)(((&(LOCAL(srcGrid, FLAGS)) - (srcGrid)) - 19L) / 20L) + (size_t)DLA_FDIV(((long)19u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_srcGrid, dla_M_srcGrid, 20u, (size_t)DLA_FMOD(((long)19u + (long)(MARGIN)), 20L), 1u)]) & (OBSTACLE)) {
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_C(dstGrid)) - (dstGrid)) - 0L) / 20L) + (size_t)DLA_FDIV(((long)0u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)0u + (long)(MARGIN)), 20L), 1u)] = tempC;
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_S(dstGrid)) - (dstGrid)) - 2L) / 20L) + (size_t)DLA_FDIV(((long)2u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)2u + (long)(MARGIN)), 20L), 1u)] = tempN;
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_N(dstGrid)) - (dstGrid)) - 1L) / 20L) + (size_t)DLA_FDIV(((long)1u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)1u + (long)(MARGIN)), 20L), 1u)] = tempS;
    } else {
        float rho = tempC + tempN + tempS;
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_C(dstGrid)) - (dstGrid)) - 0L) / 20L) + (size_t)DLA_FDIV(((long)0u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)0u + (long)(MARGIN)), 20L), 1u)] = 0.5f * (tempC + rho / 3.0f);
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_N(dstGrid)) - (dstGrid)) - 1L) / 20L) + (size_t)DLA_FDIV(((long)1u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)1u + (long)(MARGIN)), 20L), 1u)] = 0.5f * (tempN + rho / 3.0f);
        (dstGrid)[DLA_ASTA_OFF(((size_t)(((&(DST_S(dstGrid)) - (dstGrid)) - 2L) / 20L) + (size_t)DLA_FDIV(((long)2u + (long)(MARGIN)), 20L)), DL_TILE_performStreamCollide_dstGrid, dla_M_dstGrid, 20u, (size_t)DLA_FMOD(((long)2u + (long)(MARGIN)), 20L), 1u)] = 0.5f * (tempS + rho / 3.0f);
    }

#else

    srcGrid += MARGIN;
    dstGrid += MARGIN;
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    float tempC = SRC_C(srcGrid), tempN = SRC_N(srcGrid),
          tempS = SRC_S(srcGrid);
    if (as_uint(LOCAL(srcGrid, FLAGS)) & (OBSTACLE)) {
        DST_C(dstGrid) = tempC;
        DST_S(dstGrid) = tempN;
        DST_N(dstGrid) = tempS;
    } else {
        float rho = tempC + tempN + tempS;
        DST_C(dstGrid) = 0.5f * (tempC + rho / 3.0f);
        DST_N(dstGrid) = 0.5f * (tempN + rho / 3.0f);
        DST_S(dstGrid) = 0.5f * (tempS + rho / 3.0f);
    }

#endif
}
