/* lbm_da.cl - one D3Q19 lattice-Boltzmann time step, hand-written for the
 * direction-major "DA" (structure-of-arrays) layout.
 *
 * The same step as lbm.cl, written for the layout a data-layout
 * transformation of lbm.cl produces: the 20 floats of cell n are not
 * consecutive but spread over 20 planes of NCELLS floats each,
 *   element k of cell n   at   buffer[k * NCELLS + n],
 * with the same element numbering (0 = rest, 1..18 = moving directions,
 * 19 = obstacle flag).  dl-app-lbm --layout da converts its AoS input to
 * this layout before the upload and back after the read-back, so its
 * output bytes equal those of --layout aos.  This kernel is the reference
 * point for what a layout change alone is worth on a device: apart from
 * the index expressions it is token for token lbm.cl (keep it that way,
 * so both compute bit-identical results).
 *
 * Build options: -DNX=.. -DNY=.. -DNZ=.. -DOMEGA=..f
 * (NCELLS = NX*NY*NZ, defined below unless given). */

#ifndef NCELLS
#define NCELLS (NX * NY * NZ)
#endif

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
    const float fC  = src[0 * NCELLS + c];
    const float fE  = src[1 * NCELLS + n_xm];
    const float fW  = src[2 * NCELLS + n_xp];
    const float fN  = src[3 * NCELLS + n_ym];
    const float fS  = src[4 * NCELLS + n_yp];
    const float fT  = src[5 * NCELLS + n_zm];
    const float fB  = src[6 * NCELLS + n_zp];
    const float fNE = src[7 * NCELLS + n_xm_ym];
    const float fNW = src[8 * NCELLS + n_xp_ym];
    const float fSE = src[9 * NCELLS + n_xm_yp];
    const float fSW = src[10 * NCELLS + n_xp_yp];
    const float fNT = src[11 * NCELLS + n_ym_zm];
    const float fNB = src[12 * NCELLS + n_ym_zp];
    const float fST = src[13 * NCELLS + n_yp_zm];
    const float fSB = src[14 * NCELLS + n_yp_zp];
    const float fET = src[15 * NCELLS + n_xm_zm];
    const float fEB = src[16 * NCELLS + n_xm_zp];
    const float fWT = src[17 * NCELLS + n_xp_zm];
    const float fWB = src[18 * NCELLS + n_xp_zp];
    const float flag = src[19 * NCELLS + c];

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
    dst[0 * NCELLS + c]  = solid ? fC : oC;
    dst[1 * NCELLS + c]  = solid ? fW : oE;
    dst[2 * NCELLS + c]  = solid ? fE : oW;
    dst[3 * NCELLS + c]  = solid ? fS : oN;
    dst[4 * NCELLS + c]  = solid ? fN : oS;
    dst[5 * NCELLS + c]  = solid ? fB : oT;
    dst[6 * NCELLS + c]  = solid ? fT : oB;
    dst[7 * NCELLS + c]  = solid ? fSW : oNE;
    dst[8 * NCELLS + c]  = solid ? fSE : oNW;
    dst[9 * NCELLS + c]  = solid ? fNW : oSE;
    dst[10 * NCELLS + c] = solid ? fNE : oSW;
    dst[11 * NCELLS + c] = solid ? fSB : oNT;
    dst[12 * NCELLS + c] = solid ? fST : oNB;
    dst[13 * NCELLS + c] = solid ? fNB : oST;
    dst[14 * NCELLS + c] = solid ? fNT : oSB;
    dst[15 * NCELLS + c] = solid ? fWB : oET;
    dst[16 * NCELLS + c] = solid ? fWT : oEB;
    dst[17 * NCELLS + c] = solid ? fEB : oWT;
    dst[18 * NCELLS + c] = solid ? fET : oWB;
    dst[19 * NCELLS + c] = flag;
}
