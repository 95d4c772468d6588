/* pipt.cl - P-IPT: the DA <-> ASTA(T) chunk transpose with one work-group
 * per cycle (DL paper §4.3), a baseline for dl-bench.
 *
 * Same chunk map and pieces as pttwac_tiles.cl (DA chunk d = us*Q + q*k + j
 * belongs at ASTA chunk a = q*RW + us + j; a chunk is DL_P pieces of at
 * most DL_C words).  A work-group considering piece v first walks v's cycle
 * by index only; it rotates the cycle if v is the smallest index on it.
 * Each cycle thus has exactly one owner and work-groups share no data; a
 * work-item only ever touches its own word offsets of a piece, so no
 * barrier is needed either.  Long cycles make the load imbalanced, which is
 * what PTTWAC fixes.
 *
 * Specialisation: DL_T, DL_INVERSE (0: DA -> ASTA), DL_L work-items,
 * DL_C words per piece, DL_P pieces per chunk, DL_K = ceil(DL_C / DL_L).
 */

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_pipt(__global DL_WORD *buf, ulong q_tiles)
{
    const uint lid = get_local_id(0);
    const ulong n = q_tiles * DL_RW * DL_P;
    for (ulong v = get_group_id(0); v < n; v += get_num_groups(0)) {
        ulong next = dl_chunk_next(v, q_tiles);
        while (next > v)
            next = dl_chunk_next(next, q_tiles);
        if (next < v || dl_chunk_next(v, q_tiles) == v)
            continue; /* not the cycle's leader, or a fixed point */
        DL_WORD carry[DL_K];
        const uint piece = (uint)(v % DL_P) * DL_C;
        const uint len = min((uint)DL_C, DL_T - piece);
        ulong at = v;
        for (uint k = 0; k < DL_K; k++)
            if (k * DL_L + lid < len)
                carry[k] = buf[(at / DL_P) * DL_T + piece + k * DL_L + lid];
        do {
            at = dl_chunk_next(at, q_tiles);
            __global DL_WORD *p = buf + (at / DL_P) * DL_T + piece;
            for (uint k = 0; k < DL_K; k++)
                if (k * DL_L + lid < len) {
                    DL_WORD t = p[k * DL_L + lid];
                    p[k * DL_L + lid] = carry[k];
                    carry[k] = t;
                }
        } while (at != v);
    }
}
