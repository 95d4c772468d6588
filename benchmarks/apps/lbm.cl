/* lbm.cl - one D3Q19 lattice-Boltzmann time step, array-of-structures.
 *
 * Lattice: NX x NY x NZ cells, cell n = (z*NY + y)*NX + x.  Each cell is a
 * record of 20 floats (stride 20 in the buffer):
 *   [0]      C   rest            ( 0, 0, 0)
 *   [1..6]   E W N S T B         (+x, -x, +y, -y, +z, -z)
 *   [7..10]  NE NW SE SW         (+x+y, -x+y, +x-y, -x-y)
 *   [11..14] NT NB ST SB         (+y+z, +y-z, -y+z, -y-z)
 *   [15..18] ET EB WT WB         (+x+z, +x-z, -x+z, -x-z)
 *   [19]     flag: 0.0f fluid, 1.0f obstacle (copied unchanged)
 *
 * Pull scheme: the cell gathers f_q from its upstream neighbour n - c_q
 * (periodic wrap in all three directions), then a fluid cell relaxes the
 * gathered values towards equilibrium (BGK, relaxation rate OMEGA) and an
 * obstacle cell sends every gathered value back where it came from
 * (full-way bounce-back).  src and dst are the two ping-pong lattices.
 *
 * Build options: -DNX=.. -DNY=.. -DNZ=.. -DOMEGA=..f
 * lbm_da.cl is the same step on the direction-major (DA) layout and must
 * stay arithmetically identical to this file. */

__kernel void lbm_step(__global const float *restrict src,
                       __global float *restrict dst)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    const int z = get_global_id(2);
    if (x >= NX || y >= NY || z >= NZ)
        return;

    /* offsets from this cell to its neighbours, with periodic wrap */
    const int c = (z * NY + y) * NX + x;
    const int dxm = (x == 0) ? NX - 1 : -1;
    const int dxp = (x == NX - 1) ? 1 - NX : 1;
    const int dym = (y == 0) ? (NY - 1) * NX : -NX;
    const int dyp = (y == NY - 1) ? (1 - NY) * NX : NX;
    const int dzm = (z == 0) ? (NZ - 1) * NY * NX : -NY * NX;
    const int dzp = (z == NZ - 1) ? (1 - NZ) * NY * NX : NY * NX;
    const int n_xm = c + dxm;
    const int n_xp = c + dxp;
    const int n_ym = c + dym;
    const int n_yp = c + dyp;
    const int n_zm = c + dzm;
    const int n_zp = c + dzp;
    const int n_xm_ym = c + dxm + dym;
    const int n_xp_ym = c + dxp + dym;
    const int n_xm_yp = c + dxm + dyp;
    const int n_xp_yp = c + dxp + dyp;
    const int n_ym_zm = c + dym + dzm;
    const int n_ym_zp = c + dym + dzp;
    const int n_yp_zm = c + dyp + dzm;
    const int n_yp_zp = c + dyp + dzp;
    const int n_xm_zm = c + dxm + dzm;
    const int n_xm_zp = c + dxm + dzp;
    const int n_xp_zm = c + dxp + dzm;
    const int n_xp_zp = c + dxp + dzp;

    /* stream (pull) */
    const float fC  = src[c * 20 + 0];
    const float fE  = src[n_xm * 20 + 1];
    const float fW  = src[n_xp * 20 + 2];
    const float fN  = src[n_ym * 20 + 3];
    const float fS  = src[n_yp * 20 + 4];
    const float fT  = src[n_zm * 20 + 5];
    const float fB  = src[n_zp * 20 + 6];
    const float fNE = src[n_xm_ym * 20 + 7];
    const float fNW = src[n_xp_ym * 20 + 8];
    const float fSE = src[n_xm_yp * 20 + 9];
    const float fSW = src[n_xp_yp * 20 + 10];
    const float fNT = src[n_ym_zm * 20 + 11];
    const float fNB = src[n_ym_zp * 20 + 12];
    const float fST = src[n_yp_zm * 20 + 13];
    const float fSB = src[n_yp_zp * 20 + 14];
    const float fET = src[n_xm_zm * 20 + 15];
    const float fEB = src[n_xm_zp * 20 + 16];
    const float fWT = src[n_xp_zm * 20 + 17];
    const float fWB = src[n_xp_zp * 20 + 18];
    const float flag = src[c * 20 + 19];

    /* collide (BGK) */
    const float rho = fC + fE + fW + fN + fS + fT + fB + fNE + fNW + fSE +
                      fSW + fNT + fNB + fST + fSB + fET + fEB + fWT + fWB;
    const float inv_rho = 1.0f / rho;
    const float ux = (fE - fW + fNE - fNW + fSE - fSW + fET + fEB - fWT -
                      fWB) * inv_rho;
    const float uy = (fN - fS + fNE + fNW - fSE - fSW + fNT + fNB - fST -
                      fSB) * inv_rho;
    const float uz = (fT - fB + fNT - fNB + fST - fSB + fET - fEB + fWT -
                      fWB) * inv_rho;
    const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    const float w0 = OMEGA * rho * (1.0f / 3.0f);
    const float w1 = OMEGA * rho * (1.0f / 18.0f);
    const float w2 = OMEGA * rho * (1.0f / 36.0f);
    const float keep = 1.0f - OMEGA;

#define RELAX(f, w, cu) (keep * (f) + (w) * (1.0f + 3.0f * (cu) + \
                                            4.5f * (cu) * (cu) - u2))
    const float oC  = RELAX(fC, w0, 0.0f);
    const float oE  = RELAX(fE, w1, ux);
    const float oW  = RELAX(fW, w1, -ux);
    const float oN  = RELAX(fN, w1, uy);
    const float oS  = RELAX(fS, w1, -uy);
    const float oT  = RELAX(fT, w1, uz);
    const float oB  = RELAX(fB, w1, -uz);
    const float oNE = RELAX(fNE, w2, ux + uy);
    const float oNW = RELAX(fNW, w2, -ux + uy);
    const float oSE = RELAX(fSE, w2, ux - uy);
    const float oSW = RELAX(fSW, w2, -ux - uy);
    const float oNT = RELAX(fNT, w2, uy + uz);
    const float oNB = RELAX(fNB, w2, uy - uz);
    const float oST = RELAX(fST, w2, -uy + uz);
    const float oSB = RELAX(fSB, w2, -uy - uz);
    const float oET = RELAX(fET, w2, ux + uz);
    const float oEB = RELAX(fEB, w2, ux - uz);
    const float oWT = RELAX(fWT, w2, -ux + uz);
    const float oWB = RELAX(fWB, w2, -ux - uz);
#undef RELAX

    /* store: relaxed values in fluid cells, reversed ones in obstacles */
    const int solid = flag != 0.0f;
    dst[c * 20 + 0]  = solid ? fC : oC;
    dst[c * 20 + 1]  = solid ? fW : oE;
    dst[c * 20 + 2]  = solid ? fE : oW;
    dst[c * 20 + 3]  = solid ? fS : oN;
    dst[c * 20 + 4]  = solid ? fN : oS;
    dst[c * 20 + 5]  = solid ? fB : oT;
    dst[c * 20 + 6]  = solid ? fT : oB;
    dst[c * 20 + 7]  = solid ? fSW : oNE;
    dst[c * 20 + 8]  = solid ? fSE : oNW;
    dst[c * 20 + 9]  = solid ? fNW : oSE;
    dst[c * 20 + 10] = solid ? fNE : oSW;
    dst[c * 20 + 11] = solid ? fSB : oNT;
    dst[c * 20 + 12] = solid ? fST : oNB;
    dst[c * 20 + 13] = solid ? fNB : oST;
    dst[c * 20 + 14] = solid ? fNT : oSB;
    dst[c * 20 + 15] = solid ? fWB : oET;
    dst[c * 20 + 16] = solid ? fWT : oEB;
    dst[c * 20 + 17] = solid ? fEB : oWT;
    dst[c * 20 + 18] = solid ? fET : oWB;
    dst[c * 20 + 19] = flag;
}
