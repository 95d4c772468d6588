/* staged.cl - the second stage of the staged DA <-> ASTA(T) conversion
 * (Sung et al., PPoPP'14 style): a "regroup" of every block of DL_T1
 * records between DA and ASTA(T), where DL_T1 is a multiple of DL_T.
 *
 * DA(M) -> ASTA(T) transposes an RW x Q matrix of T-record chunks.  With
 * Q = B1 * b it splits into
 *   stage 1: DA(M) -> ASTA(T1), T1 = b*T: staged_cycles.cl moves chunks of
 *            T1 records (b times longer runs, b times fewer done bits);
 *   stage 2: inside each ASTA(T1) tile, i.e. a DA of T1 records,
 *            DA(T1) -> ASTA(T): this kernel.
 * ASTA -> DA runs stage 2 inverse, then stage 1 inverse.  The last, partial
 * ASTA(T1) tile of R1 = M % T1 records is a DA(R1); as ASTA(T) it is R1/T
 * full tiles of T and the ASTA(M % T) tail, which is what regrouping a
 * block of width R1 gives (T divides T1), so the tail needs no other rule.
 *
 * A block (at most 64 KiB) is regrouped by one work-item (CPU schedule,
 * like bs.cl): read whole into a private array, then written back in runs
 * of T*k words, one per part and tile.  A work-item touches only its own
 * blocks, so no synchronisation is needed.  (A two-level variant with
 * larger blocks, cycle following inside each in cache, measured slower:
 * stage 1 gains nothing from runs longer than 8 KiB.)
 *
 * Specialisation (besides the record, see common.cl): DL_T, DL_T1,
 * DL_N1 = DL_T1 * DL_RW, DL_INVERSE (0: DA -> ASTA(T), 1: ASTA(T) -> DA).
 */

#define DL_INLINE inline __attribute__((always_inline))

/* Copies n words.  A loop LLVM turns into wide moves. */
DL_INLINE void dl_run_copy(__global DL_WORD *dst, const DL_WORD *src,
                           const uint n)
{
    for (uint i = 0; i < n; i++)
        dst[i] = src[i];
}

DL_INLINE void dl_run_fetch(DL_WORD *dst, __global const DL_WORD *src,
                            const uint n)
{
    for (uint i = 0; i < n; i++)
        dst[i] = src[i];
}

/* Regroups one block of w records at base through the private array a.
 * DA(w) keeps word j of part (us, k) of record i at us*w + i*k + j;
 * ASTA(T) keeps it at (i/T)*T*RW + us*tw + (i%T)*k + j with tw the width
 * of i's tile, so each part of each tile is one run of tw*k words. */
DL_INLINE void dl_regroup_block(__global DL_WORD *base, const uint w,
                                DL_WORD *a)
{
    const uint full = w / DL_T, rest = w % DL_T;
    dl_run_fetch(a, base, w * DL_RW);
    for (uint u = 0; u < DL_RW; u++) {
        if (DL_PART_START(u) != u)
            continue; /* not the first word of its part */
        const uint k = DL_PART_LEN(u);
        for (uint q = 0; q <= full; q++) {
            const uint tw = q < full ? DL_T : rest;
            const uint asta = q * DL_T * DL_RW + u * tw;
            const uint da = u * w + q * DL_T * k;
#if !DL_INVERSE
            if (tw == DL_T)
                dl_run_copy(base + asta, a + da, DL_T * k);
            else
                dl_run_copy(base + asta, a + da, tw * k);
#else
            if (tw == DL_T)
                dl_run_copy(base + da, a + asta, DL_T * k);
            else
                dl_run_copy(base + da, a + asta, tw * k);
#endif
        }
    }
}

/* Asks for a block ahead of time (see bs.cl: without it a core waits for
 * DRAM at the start of every block). */
DL_INLINE void dl_prefetch_words(__global const DL_WORD *from, uint words)
{
    const __global uchar *p = (const __global uchar *)from;
    for (uint o = 0; o < words * DL_W; o += 64) {
#if defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__))
        __builtin_prefetch(p + o, 1, 3);
#else
        prefetch(p + o, 64); /* SPIR (oclgrind) lacks the builtin above */
#endif
    }
}

/* Work-item id < items regroups full blocks [id*per_item, (id+1)*per_item);
 * work-item `items`, if launched, the partial last block of M % T1
 * records (nothing moves when it holds at most one tile). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_regroup(__global DL_WORD *buf, ulong count, uint per_item,
                uint items)
{
    DL_WORD a[DL_N1];
    const ulong blocks = count / DL_T1;
    const uint id = get_global_id(0);
    if (id == items) {
        const uint w = (uint)(count % DL_T1);
        if (w > DL_T)
            dl_regroup_block(buf + blocks * DL_N1, w, a);
        return;
    }
    const ulong first = (ulong)id * per_item;
    const ulong end = min(first + per_item, blocks);
    for (ulong b = first; b < end; b++) {
        if (b == first)
            dl_prefetch_words(buf + b * DL_N1, DL_N1);
        if (b + 1 < end)
            dl_prefetch_words(buf + (b + 1) * DL_N1, DL_N1);
        dl_regroup_block(buf + b * DL_N1, DL_T1, a);
    }
}
