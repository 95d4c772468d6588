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

// DL: AoS: srcGrid[NX * NY * (NZ + 2)][20]
// DL: AoS: dstGrid[NX * NY * (NZ + 2)][20]
__kernel void performStreamCollide(__global float *srcGrid,
                                   __global float *dstGrid)
{
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
}
