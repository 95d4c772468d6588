/* bs.cl - barrier-synchronised in-place AoS <-> ASTA(T) (DL paper §4.2).
 *
 * A work-group loads DL_G whole tiles into private registers, waits at a
 * barrier, then stores every word at its transposed position.  Each
 * work-item gathers the word that belongs at a coalesced destination.
 * Specialisation: DL_T (tile), DL_N = DL_T*DL_RW, DL_G tiles per group,
 * DL_L work-items, DL_K = ceil(DL_G*DL_N / DL_L) words per work-item,
 * DL_INVERSE (0: AoS -> ASTA, 1: ASTA -> AoS).
 */
#if DL_INVERSE
#define DL_SOURCE(dest, w) dl_tile_asta_pos((dest), (w))
#else
#define DL_SOURCE(dest, w) dl_tile_aos_pos((dest), (w))
#endif

/* Full tiles: group g converts tiles [g*DL_G, g*DL_G + DL_G). */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs(__global DL_WORD *buf, ulong full_tiles)
{
    const uint lid = get_local_id(0);
    const ulong first = (ulong)get_group_id(0) * DL_G;
    __global DL_WORD *base = buf + first * DL_N;
    const ulong left = full_tiles - first;
    const uint limit = (left < DL_G ? (uint)left : DL_G) * DL_N;
    DL_WORD v[DL_K];
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit) {
            uint tile = p / DL_N, a = p % DL_N;
            v[k] = base[tile * DL_N + DL_SOURCE(a, DL_T)];
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            base[p] = v[k];
    }
}

/* The partial last tile: R = count % DL_T records, stored as ASTA(R). */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_tail(__global DL_WORD *buf, ulong count)
{
    const uint lid = get_local_id(0);
    const uint w = (uint)(count % DL_T);
    __global DL_WORD *base = buf + (count / DL_T) * DL_N;
    const uint limit = w * DL_RW;
    DL_WORD v[DL_K];
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            v[k] = base[DL_SOURCE(p, w)];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            base[p] = v[k];
    }
}
