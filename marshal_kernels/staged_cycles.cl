/* staged_cycles.cl - DA <-> ASTA(T) on CPUs (and stage 1 of the staged
 * route): the chunk transpose by cycle following without atomics.
 *
 * The chunk permutation is the same for every slice of a chunk: slice p of
 * chunk c belongs at slice p of chunk next(c).  So a work-item follows its
 * cycles for one slice alone; work-items touch disjoint words (another
 * slice, or other cycles) and need neither done bits nor synchronisation.
 * The host marks one leader per cycle of length > 1 in a bitmap and splits
 * the leaders into ranges of equal work, computed once per plan.  As in
 * pttwac_tiles.cl, the chunks are the first Q*T*RW words (tail.cl has
 * split off the partial tile).
 *
 * Specialisation (besides the record, see common.cl): DL_T (words per
 * chunk), DL_C words per slice, DL_S slices per chunk, DL_P = 1
 * (dl_chunk_next_dir's positions are whole chunks), DL_AHEAD moves to
 * prefetch ahead, DL_COMING chunks of the next cycle.  Both directions
 * are in every program (dl_staged_cycles: DA -> ASTA, and its _inverse),
 * so a marshal and its restore build one program between them.
 */

#define DL_INLINE inline __attribute__((always_inline))

/* The cycle's next loads are known in advance (no pointer chasing), so a
 * CPU can fetch them while the current move runs. */
DL_INLINE void dl_prefetch_piece(__global const DL_WORD *p, uint len)
{
#if defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__))
    const __global uchar *b = (const __global uchar *)p;
    for (uint o = 0; o < len * DL_W; o += 64)
        __builtin_prefetch(b + o, 1, 3);
#else
    (void)p; /* SPIR (oclgrind) lacks the builtin */
    (void)len;
#endif
}

/* Follows the cycle that starts at chunk `start`, for this slice, after
 * prefetching the first chunks of the cycle led by `coming` (none when
 * coming == start): short cycles (S = 16 at T = 256: four chunks) would
 * otherwise wait for their leader's load at every start. */
DL_INLINE void dl_follow(__global DL_WORD *piece, ulong start, uint len,
                         ulong q_tiles, DL_WORD *carry, ulong coming,
                         const int inv)
{
    ulong c = coming;
    for (uint k = 0; k < DL_COMING && coming != start; k++) {
        dl_prefetch_piece(piece + c * DL_T, len);
        c = dl_chunk_next_dir(c, q_tiles, inv);
        if (c == coming)
            break;
    }
    ulong next = dl_chunk_next_dir(start, q_tiles, inv), ahead = next;
    for (uint k = 0; k < DL_AHEAD && ahead != start; k++) {
        dl_prefetch_piece(piece + ahead * DL_T, len);
        ahead = dl_chunk_next_dir(ahead, q_tiles, inv);
    }
    __global DL_WORD *p = piece + start * DL_T;
    for (uint j = 0; j < len; j++)
        carry[j] = p[j];
    while (next != start) { /* carry belongs at next: swap it in */
        if (ahead != start) {
            dl_prefetch_piece(piece + ahead * DL_T, len);
            ahead = dl_chunk_next_dir(ahead, q_tiles, inv);
        }
        p = piece + next * DL_T;
        for (uint j = 0; j < len; j++) {
            DL_WORD t = p[j];
            p[j] = carry[j];
            carry[j] = t;
        }
        next = dl_chunk_next_dir(next, q_tiles, inv);
    }
    p = piece + start * DL_T;
    for (uint j = 0; j < len; j++)
        p[j] = carry[j];
}

/* Work-item id takes slice id % DL_S of the cycles whose leaders lie in
 * chunk range [ranges[g], ranges[g+1]), g = id / DL_S.  ctl = [ranges:
 * groups + 1 | map: one bit per chunk, set at the leader (smallest chunk)
 * of every cycle longer than one]; the host balances the ranges by cycle
 * length. */
DL_INLINE void dl_staged_cycles_run(__global DL_WORD *buf,
                                    __global const ulong *ctl, ulong q_tiles,
                                    uint groups, const int inv)
{
    __global const ulong *ranges = ctl;
    __global const uint *map = (__global const uint *)(ctl + groups + 1);
    const uint id = get_global_id(0);
    const uint off = (id % DL_S) * DL_C;
    const uint len = min((uint)DL_C, DL_T - off);
    const ulong g = id / DL_S, lo = ranges[g], hi = ranges[g + 1];
    DL_WORD carry[DL_C];
    ulong v = hi; /* the leaders one behind the scan: v, then coming */
    for (ulong w = lo / 32; w * 32 < hi; w++) {
        uint bits = map[w];
        while (bits) {
            const uint b = 31 - clz(bits & (0u - bits)); /* lowest set */
            bits &= bits - 1;
            const ulong coming = w * 32 + b;
            if (coming < lo || coming >= hi)
                continue;
            if (v < hi)
                dl_follow(buf + off, v, len, q_tiles, carry, coming, inv);
            v = coming;
        }
    }
    if (v < hi)
        dl_follow(buf + off, v, len, q_tiles, carry, v, inv);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_staged_cycles(__global DL_WORD *buf, __global const ulong *ctl,
                      ulong q_tiles, uint groups)
{
    dl_staged_cycles_run(buf, ctl, q_tiles, groups, 0);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_staged_cycles_inverse(__global DL_WORD *buf,
                              __global const ulong *ctl, ulong q_tiles,
                              uint groups)
{
    dl_staged_cycles_run(buf, ctl, q_tiles, groups, 1);
}
