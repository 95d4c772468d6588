/* pttwac_instance.cl - in-place AoS <-> ASTA(T) for tiles too large to
 * stage (DL paper §4.4): one work-group per tile follows the cycles of the
 * tile's permutation, with one done bit per word in __local memory.
 *
 * Specialisation (besides the record): DL_T, DL_N = DL_T*DL_RW, DL_L
 * work-items, DL_STARTS starts per work-item and round, DL_DONE_WORDS =
 * ceil(DL_N/32), DL_INVERSE (0: AoS -> ASTA, 1: ASTA -> AoS).
 *
 * Why it is race-free (each global word is read and written by a single
 * work-item, or by two with a barrier between the read and the write):
 *  - A word belongs to whoever sets its done bit (atomic_or; bits are
 *    never read any other way once cleared, unless DL_L is 1).
 *  - A walk claims a start s and reads it, then repeatedly claims the
 *    destination d of the value it carries, reads d and writes the value
 *    into it.  Only the claimer touches such a d, exactly once each way.
 *  - When d is already claimed, d is the start of a walk (the value for d
 *    comes only from its predecessor, which this walker owns, so nobody
 *    else can have claimed d in passing), possibly this walker's own.
 *    The walker keeps (value, d) in private memory and stores it after the
 *    round's barrier.  d was claimed, hence read by its owner, before that
 *    barrier; nothing touches d afterwards.
 *  - Rounds: in round r every work-item tries DL_STARTS starts of its
 *    stripe; the trip count is the same for the whole group, so every
 *    item meets every barrier.
 * Fixed points (d == s) are left alone.  Every word is claimed by the end:
 * position s is tried as a start by item s % DL_L in its round.
 */

#if DL_INVERSE
#define DL_DEST(p, w) dl_tile_aos_pos((p), (w))
#else
#define DL_DEST(p, w) dl_tile_asta_pos((p), (w))
#endif

/* Nonzero if this work-item set bit p (it now owns word p).  A group of
 * one work-item shares its bits with nobody: a plain update is exact. */
inline int dl_claim(__local uint *done, uint p)
{
    const uint bit = 1u << (p % 32u);
#if DL_L == 1
    const uint old = done[p / 32u];
    done[p / 32u] = old | bit;
    return (old & bit) == 0;
#else
    return (atomic_or(&done[p / 32u], bit) & bit) == 0;
#endif
}

/* Permutes the tile of width w (w records) at `tile` in place. */
inline void dl_cycles(__global DL_WORD *tile, __local uint *done,
                      const uint w)
{
    const uint n = w * DL_RW, lid = get_local_id(0);
    for (uint i = lid; i < DL_DONE_WORDS; i += DL_L)
        done[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint rounds = (n + DL_STARTS * DL_L - 1) / (DL_STARTS * DL_L);
    for (uint r = 0; r < rounds; r++) {
        DL_WORD held[DL_STARTS];
        uint at[DL_STARTS];
        uint nheld = 0;
        for (uint q = 0; q < DL_STARTS; q++) {
            const uint s = (r * DL_STARTS + q) * DL_L + lid;
            if (s >= n)
                break;
            uint d = DL_DEST(s, w);
            if (d == s || !dl_claim(done, s))
                continue;
            DL_WORD carry = tile[s];
            while (dl_claim(done, d)) {
                DL_WORD next = tile[d];
                tile[d] = carry;
                carry = next;
                d = DL_DEST(d, w);
            }
            held[nheld] = carry;
            at[nheld] = d;
            nheld++;
        }
        /* Every start claimed so far has been read by its owner. */
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (uint q = 0; q < nheld; q++)
            tile[at[q]] = held[q];
    }
}

/* Full tiles: one work-group each (the width is a compile-time constant,
 * so the position maps divide by constants). */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_pttwac_instance(__global DL_WORD *buf)
{
    __local uint done[DL_DONE_WORDS];
    dl_cycles(buf + (ulong)get_group_id(0) * DL_N, done, DL_T);
}

/* The partial last tile: R = count % DL_T records, stored as ASTA(R). */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_pttwac_instance_tail(__global DL_WORD *buf, ulong count)
{
    __local uint done[DL_DONE_WORDS];
    dl_cycles(buf + (count / DL_T) * DL_N, done, (uint)(count % DL_T));
}
