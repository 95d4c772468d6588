/* lattice.cl - kernel of dla-e2e-host's `cells` case (N = 9), written
 * as Parboil's LBM gives its sizes: `#define`s of the source, some
 * defined from others, not build options (its own code, not a copy).
 * dl-annotate must rewrite it as it is, with only the two count
 * annotations added before the kernel, and the runtime must read the
 * count TOTAL_PADDED_CELLS from these lines.  OMEGA still comes from
 * the build options; the host's -DNX, -DNY and -DNZ go unused. */
#define SIZE_X (12)
#define SIZE_Y (10)
#define SIZE_Z (9u)
#define MARGIN_Z (1 << 1) /* planes at each end */
#define PADDED_Z (SIZE_Z + 2 * MARGIN_Z)
#define TOTAL_PADDED_CELLS (SIZE_X * SIZE_Y * PADDED_Z)

typedef enum { C = 0, N, S, E, W, T, B, NE, NW, SE, SW, NT, NB, ST, SB,
               ET, EB, WT, WB, FLAGS, N_CELL_ENTRIES } CELL_ENTRIES;

#define OBSTACLE (1 << 0)
#define ACCEL (1 << 1)

#define CALC_INDEX(x, y, z, e) ( e + N_CELL_ENTRIES*\
                                 ((x) + (y)*SIZE_X + (z)*SIZE_X*SIZE_Y) )
#define MARGIN (CALC_INDEX(0, 0, MARGIN_Z, 0) - CALC_INDEX(0, 0, 0, 0))

#define SWEEP_VAR int sweep_x, sweep_y, sweep_z;
#define SWEEP_X sweep_x
#define SWEEP_Y sweep_y
#define SWEEP_Z sweep_z

#define LOCAL(g, e) (g[CALC_INDEX(SWEEP_X, SWEEP_Y, SWEEP_Z, e)])
#define NEIGHBOR(g, e, dx, dy, dz) \
    (g[CALC_INDEX(SWEEP_X + (dx), SWEEP_Y + (dy), SWEEP_Z + (dz), e)])

#define SRC_C(g) (LOCAL(g, C))
#define SRC_N(g) (LOCAL(g, N))
#define SRC_S(g) (LOCAL(g, S))
#define SRC_E(g) (LOCAL(g, E))
#define SRC_W(g) (LOCAL(g, W))
#define SRC_T(g) (LOCAL(g, T))
#define SRC_B(g) (LOCAL(g, B))
#define SRC_NE(g) (LOCAL(g, NE))
#define SRC_NW(g) (LOCAL(g, NW))
#define SRC_SE(g) (LOCAL(g, SE))
#define SRC_SW(g) (LOCAL(g, SW))
#define SRC_NT(g) (LOCAL(g, NT))
#define SRC_NB(g) (LOCAL(g, NB))
#define SRC_ST(g) (LOCAL(g, ST))
#define SRC_SB(g) (LOCAL(g, SB))
#define SRC_ET(g) (LOCAL(g, ET))
#define SRC_EB(g) (LOCAL(g, EB))
#define SRC_WT(g) (LOCAL(g, WT))
#define SRC_WB(g) (LOCAL(g, WB))

#define DST_C(g) (NEIGHBOR(g, C, 0, 0, 0))
#define DST_N(g) (NEIGHBOR(g, N, 0, +1, 0))
#define DST_S(g) (NEIGHBOR(g, S, 0, -1, 0))
#define DST_E(g) (NEIGHBOR(g, E, +1, 0, 0))
#define DST_W(g) (NEIGHBOR(g, W, -1, 0, 0))
#define DST_T(g) (NEIGHBOR(g, T, 0, 0, +1))
#define DST_B(g) (NEIGHBOR(g, B, 0, 0, -1))
#define DST_NE(g) (NEIGHBOR(g, NE, +1, +1, 0))
#define DST_NW(g) (NEIGHBOR(g, NW, -1, +1, 0))
#define DST_SE(g) (NEIGHBOR(g, SE, +1, -1, 0))
#define DST_SW(g) (NEIGHBOR(g, SW, -1, -1, 0))
#define DST_NT(g) (NEIGHBOR(g, NT, 0, +1, +1))
#define DST_NB(g) (NEIGHBOR(g, NB, 0, +1, -1))
#define DST_ST(g) (NEIGHBOR(g, ST, 0, -1, +1))
#define DST_SB(g) (NEIGHBOR(g, SB, 0, -1, -1))
#define DST_ET(g) (NEIGHBOR(g, ET, +1, 0, +1))
#define DST_EB(g) (NEIGHBOR(g, EB, +1, 0, -1))
#define DST_WT(g) (NEIGHBOR(g, WT, -1, 0, +1))
#define DST_WB(g) (NEIGHBOR(g, WB, -1, 0, -1))

__kernel void collide_stream(__global float *srcGrid, __global float *dstGrid)
{
    srcGrid += MARGIN;
    dstGrid += MARGIN;

    SWEEP_VAR
    SWEEP_X = get_global_id(0);
    SWEEP_Y = get_global_id(1);
    SWEEP_Z = get_global_id(2);

    float tC = SRC_C(srcGrid), tN = SRC_N(srcGrid), tS = SRC_S(srcGrid);
    float tE = SRC_E(srcGrid), tW = SRC_W(srcGrid), tT = SRC_T(srcGrid);
    float tB = SRC_B(srcGrid), tNE = SRC_NE(srcGrid), tNW = SRC_NW(srcGrid);
    float tSE = SRC_SE(srcGrid), tSW = SRC_SW(srcGrid);
    float tNT = SRC_NT(srcGrid), tNB = SRC_NB(srcGrid);
    float tST = SRC_ST(srcGrid), tSB = SRC_SB(srcGrid);
    float tET = SRC_ET(srcGrid), tEB = SRC_EB(srcGrid);
    float tWT = SRC_WT(srcGrid), tWB = SRC_WB(srcGrid);

    if (as_uint(LOCAL(srcGrid, FLAGS)) & (OBSTACLE)) {
        /* bounce back */
        DST_C(dstGrid) = tC;
        DST_S(dstGrid) = tN;
        DST_N(dstGrid) = tS;
        DST_W(dstGrid) = tE;
        DST_E(dstGrid) = tW;
        DST_B(dstGrid) = tT;
        DST_T(dstGrid) = tB;
        DST_SW(dstGrid) = tNE;
        DST_SE(dstGrid) = tNW;
        DST_NW(dstGrid) = tSE;
        DST_NE(dstGrid) = tSW;
        DST_SB(dstGrid) = tNT;
        DST_ST(dstGrid) = tNB;
        DST_NB(dstGrid) = tST;
        DST_NT(dstGrid) = tSB;
        DST_WB(dstGrid) = tET;
        DST_WT(dstGrid) = tEB;
        DST_EB(dstGrid) = tWT;
        DST_ET(dstGrid) = tWB;
        return;
    }
    float rho = tC + tN + tS + tE + tW + tT + tB + tNE + tNW + tSE + tSW +
                tNT + tNB + tST + tSB + tET + tEB + tWT + tWB;
    float ux = tE - tW + tNE - tNW + tSE - tSW + tET + tEB - tWT - tWB;
    float uy = tN - tS + tNE + tNW - tSE - tSW + tNT + tNB - tST - tSB;
    float uz = tT - tB + tNT - tNB + tST - tSB + tET - tEB + tWT - tWB;
    if (as_uint(LOCAL(srcGrid, FLAGS)) & (ACCEL)) {
        ux = 0.005f * rho;
        uy = 0.002f * rho;
        uz = 0.0f;
    }
    float u2 = 1.5f * (ux * ux + uy * uy + uz * uz) / (rho * rho);
    float w0 = rho / 3.0f, w1 = rho / 18.0f, w2 = rho / 36.0f;
    float inv = 1.0f / rho;
    ux *= inv;
    uy *= inv;
    uz *= inv;
#define RELAX(t, w, u) ((1.0f - OMEGA) * (t) + \
    OMEGA * (w) * (1.0f + 3.0f * (u) + 4.5f * (u) * (u) - u2))
    DST_C(dstGrid) = RELAX(tC, w0, 0.0f);
    DST_N(dstGrid) = RELAX(tN, w1, uy);
    DST_S(dstGrid) = RELAX(tS, w1, -uy);
    DST_E(dstGrid) = RELAX(tE, w1, ux);
    DST_W(dstGrid) = RELAX(tW, w1, -ux);
    DST_T(dstGrid) = RELAX(tT, w1, uz);
    DST_B(dstGrid) = RELAX(tB, w1, -uz);
    DST_NE(dstGrid) = RELAX(tNE, w2, ux + uy);
    DST_NW(dstGrid) = RELAX(tNW, w2, -ux + uy);
    DST_SE(dstGrid) = RELAX(tSE, w2, ux - uy);
    DST_SW(dstGrid) = RELAX(tSW, w2, -ux - uy);
    DST_NT(dstGrid) = RELAX(tNT, w2, uy + uz);
    DST_NB(dstGrid) = RELAX(tNB, w2, uy - uz);
    DST_ST(dstGrid) = RELAX(tST, w2, -uy + uz);
    DST_SB(dstGrid) = RELAX(tSB, w2, -uy - uz);
    DST_ET(dstGrid) = RELAX(tET, w2, ux + uz);
    DST_EB(dstGrid) = RELAX(tEB, w2, ux - uz);
    DST_WT(dstGrid) = RELAX(tWT, w2, -ux + uz);
    DST_WB(dstGrid) = RELAX(tWB, w2, -ux - uz);
}
