/* bs.cl - in-place AoS <-> ASTA(T) by staging whole tiles (DL paper §4.2).
 *
 * A tile is read completely into private storage before any of its words
 * is written back, so nothing is overwritten before it has been read, and
 * tiles never share words, so tiles need no coordination.
 *
 * Specialisation (besides the record, see common.cl): DL_T (tile), DL_N =
 * DL_T*DL_RW words per tile and DL_BS_CPU, which picks one of two
 * schedules (below).  Both directions are in every program: each kernel
 * has an `_inverse` twin (ASTA -> AoS), so the restore after a marshal
 * builds nothing (a build from source costs POCL 30-60 ms even from its
 * cache).  The direction is a constant argument of inlined helpers, so
 * each kernel is as specialised as with a -D.
 *
 * DL_BS_CPU 0 (GPUs): the paper's scheme.  A work-group of DL_L items holds
 *   DL_G tiles in registers, DL_K words per item, waits at a barrier and
 *   stores; each item gathers the word that belongs at a coalesced
 *   destination.
 *
 * DL_BS_CPU 1 (CPUs, where a work-group runs as loops on one core): a
 *   work-item converts a run of batches of DL_G tiles (~4 KiB), one batch
 *   at a time, through private arrays; it alone touches its tiles, so no
 *   barrier is needed.  What is fast on a CPU is what LLVM's loop
 *   vectoriser turns into wide loads and shuffles (POCL's own
 *   vectorisation across work-items gave gathers and 0.1-0.2 of a copy),
 *   so uniform records move in "rows": a loop over the records of a tile
 *   whose body handles c <= 8 consecutive words (a chunk).  Vectorising it
 *   gives one c-way interleaved access plus c contiguous ones.  Records of
 *   more than 8 words are first split into chunks of 8 and one of the rest
 *   (DL_CHUNKED): interleaving more than 8 ways fell back to gathers and
 *   ran at a third of the speed.  Narrow tiles going to ASTA vectorise
 *   along the record instead (DL_BS_COLS).  Mixed records, and records too
 *   wide for a chunk list, use a plain gather (!DL_BS_ROWS).
 */

/* Where the word that belongs at position dest of a w-record tile comes
 * from: inv 0 (to ASTA) or 1 (back to AoS), a constant at every use. */
#define DL_SOURCE(inv, dest, w)                                               \
    ((inv) ? dl_tile_asta_pos((dest), (w)) : dl_tile_aos_pos((dest), (w)))

#define DL_INLINE inline __attribute__((always_inline))

#if DL_BS_CPU

#define DL_CAT2(a, b) a##b
#define DL_CAT(a, b) DL_CAT2(a, b)
/* DL_INLINE (above): the tile count is a constant only once the helpers
 * are inlined; LLVM kept the larger ones out of line, and with runtime
 * bounds vectorised them with gathers. */

#if DL_BS_ROWS
/* Chunk-major order of `nrec` records: word u0 + j of record i (chunk
 * (u0, c)) lives at cm[u0*nrec + i*c + j].  With a single chunk this is
 * the AoS order itself.  DL_CHUNKS(X) lists the chunks as X(u0, c) and
 * DL_PIECES(Y) their pieces as Y(u0, c, j0, k): words j0 .. j0+k-1 of
 * chunk (u0, c), moved with one vloadk/vstorek (k = 1: a plain word).
 * The explicit vectors also keep the vectoriser off these loops, which it
 * would otherwise turn into gathers.
 *
 * The helpers are defined once per pair of address spaces they are used
 * with (global or private source and destination): SQ and DQ. */
#define DL_MOVE1(src, dst) ((dst)[0] = (src)[0])
#define DL_MOVE2(src, dst) vstore2(vload2(0, (src)), 0, (dst))
#define DL_MOVE3(src, dst) vstore3(vload3(0, (src)), 0, (dst))
#define DL_MOVE4(src, dst) vstore4(vload4(0, (src)), 0, (dst))
#define DL_MOVE8(src, dst) vstore8(vload8(0, (src)), 0, (dst))

#define DL_PIECE_TO_CM(u0, c, j0, k)                                          \
    DL_CAT(DL_MOVE, k)(aos + i * DL_RW + (u0) + (j0),                         \
                       cm + (u0) * nrec + i * (c) + (j0));
#define DL_PIECE_TO_AOS(u0, c, j0, k)                                         \
    DL_CAT(DL_MOVE, k)(cm + (u0) * nrec + i * (c) + (j0),                     \
                       aos + i * DL_RW + (u0) + (j0));

#define DL_DEFINE_AOS_TO_CHUNKS(name, SQ, DQ)                                 \
DL_INLINE void name(SQ const DL_WORD *aos,                                    \
                    DQ DL_WORD *cm, const uint nrec)                          \
{                                                                             \
    for (uint i = 0; i < nrec; i++) {                                         \
        DL_PIECES(DL_PIECE_TO_CM)                                             \
    }                                                                         \
}

#define DL_DEFINE_CHUNKS_TO_AOS(name, SQ, DQ)                                 \
DL_INLINE void name(SQ const DL_WORD *cm,                                     \
                    DQ DL_WORD *aos, const uint nrec)                         \
{                                                                             \
    for (uint i = 0; i < nrec; i++) {                                         \
        DL_PIECES(DL_PIECE_TO_AOS)                                            \
    }                                                                         \
}

/* ntiles tiles: chunk-major records <-> ASTA rows.  The t loop is the one
 * the vectoriser widens; the j loop is unrolled into its body. */
#define DL_CHUNK_TO_ROWS(u0, c)                                               \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                asta[g * DL_N + ((u0) + j) * DL_T + t] =                      \
                    cm[(u0) * nrec + (g * DL_T + t) * (c) + j];               \
        }
#define DL_ROWS_TO_CHUNK(u0, c)                                               \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                cm[(u0) * nrec + (g * DL_T + t) * (c) + j] =                  \
                    asta[g * DL_N + ((u0) + j) * DL_T + t];                   \
        }

#define DL_DEFINE_CHUNKS_TO_ROWS(name, SQ, DQ)                                \
DL_INLINE void name(SQ const DL_WORD *cm,                                     \
                    DQ DL_WORD *asta, const uint ntiles)                      \
{                                                                             \
    const uint nrec = ntiles * DL_T;                                          \
    DL_CHUNKS(DL_CHUNK_TO_ROWS)                                               \
}

#define DL_DEFINE_ROWS_TO_CHUNKS(name, SQ, DQ)                                \
DL_INLINE void name(SQ const DL_WORD *asta,                                   \
                    DQ DL_WORD *cm, const uint ntiles)                        \
{                                                                             \
    const uint nrec = ntiles * DL_T;                                          \
    DL_CHUNKS(DL_ROWS_TO_CHUNK)                                               \
}

/* Narrow tiles (DL_BS_COLS, T <= 8), AoS -> ASTA: a rows loop would be at
 * most 8 iterations long, so vectorise along the record instead: the loop
 * runs over its words and the tile's T records are unrolled into the
 * body, which gives T contiguous loads and one T-way interleaved store. */
#define DL_DEFINE_AOS_TO_COLS(name, SQ, DQ)                                   \
DL_INLINE void name(SQ const DL_WORD *aos,                                    \
                    DQ DL_WORD *asta, const uint ntiles)                      \
{                                                                             \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint u = 0; u < DL_RW; u++) {                                    \
            _Pragma("unroll")                                                 \
            for (uint t = 0; t < DL_T; t++)                                   \
                asta[g * DL_N + u * DL_T + t] =                               \
                    aos[g * DL_N + t * DL_RW + u];                            \
        }                                                                     \
}

#define DL_PRIVATE /* no qualifier: private */

/* Converts ntiles consecutive full tiles at base (a constant at every
 * call site, so the loops get constant bounds).  The first step reads the
 * whole batch into private memory, and only the last one writes it back.
 * Keeping the plain copies apart from the shuffles mattered out of DRAM:
 * with them fused into one loop the forward conversion ran at ~0.7 of a
 * copy. */
/* ASTA -> AoS */
DL_DEFINE_ROWS_TO_CHUNKS(dl_rows_to_chunks, __global, DL_PRIVATE)
#if DL_CHUNKED
DL_DEFINE_CHUNKS_TO_AOS(dl_chunks_to_aos, DL_PRIVATE, __global)
#endif
DL_INLINE void dl_convert_tiles_inv(__global DL_WORD *base, DL_WORD *a,
                                    DL_WORD *b, const uint ntiles)
{
    (void)a;
    dl_rows_to_chunks(base, b, ntiles);
#if DL_CHUNKED
    dl_chunks_to_aos(b, base, ntiles * DL_T);
#else
    for (uint i = 0; i < ntiles * DL_N; i++)
        base[i] = b[i];
#endif
}

/* AoS -> ASTA */
#if DL_BS_COLS
DL_DEFINE_AOS_TO_COLS(dl_aos_to_cols, __global, DL_PRIVATE)
#elif DL_CHUNKED
DL_DEFINE_AOS_TO_CHUNKS(dl_aos_to_chunks, __global, DL_PRIVATE)
DL_DEFINE_CHUNKS_TO_ROWS(dl_chunks_to_rows, DL_PRIVATE, __global)
#else
DL_DEFINE_CHUNKS_TO_ROWS(dl_chunks_to_rows, __global, DL_PRIVATE)
#endif
DL_INLINE void dl_convert_tiles_fwd(__global DL_WORD *base, DL_WORD *a,
                                    DL_WORD *b, const uint ntiles)
{
#if DL_BS_COLS
    dl_aos_to_cols(base, b, ntiles);
#elif DL_CHUNKED
    (void)b;
    dl_aos_to_chunks(base, a, ntiles * DL_T);
    dl_chunks_to_rows(a, base, ntiles);
    return;
#else
    (void)a;
    dl_chunks_to_rows(base, b, ntiles);
#endif
    for (uint i = 0; i < ntiles * DL_N; i++)
        base[i] = b[i];
}

#else /* !DL_BS_ROWS: mixed records, or wider than the chunk lists go */

DL_INLINE void dl_gather_tiles(__global DL_WORD *base, DL_WORD *a,
                               const uint ntiles, const int inv)
{
    for (uint i = 0; i < ntiles * DL_N; i++)
        a[i] = base[i];
    for (uint g = 0; g < ntiles; g++)
        for (uint p = 0; p < DL_N; p++)
            base[g * DL_N + p] = a[g * DL_N + DL_SOURCE(inv, p, DL_T)];
}
DL_INLINE void dl_convert_tiles_fwd(__global DL_WORD *base, DL_WORD *a,
                                    DL_WORD *b, const uint ntiles)
{
    (void)b;
    dl_gather_tiles(base, a, ntiles, 0);
}
DL_INLINE void dl_convert_tiles_inv(__global DL_WORD *base, DL_WORD *a,
                                    DL_WORD *b, const uint ntiles)
{
    (void)b;
    dl_gather_tiles(base, a, ntiles, 1);
}
#endif

DL_INLINE void dl_convert_tiles(__global DL_WORD *base, DL_WORD *a,
                                DL_WORD *b, const uint ntiles, const int inv)
{
    if (inv)
        dl_convert_tiles_inv(base, a, b, ntiles);
    else
        dl_convert_tiles_fwd(base, a, b, ntiles);
}

/* Asks for the batch at `batch` ahead of time.  The streaming copies of a
 * batch start and end with the data it needs, so without help a core
 * waits for DRAM at every batch: prefetching DL_PREFETCH batches (~16
 * KiB) ahead lifted DRAM-sized conversions from ~0.7 to ~1.0 of a copy. */
DL_INLINE void dl_prefetch_batch(const __global DL_WORD *buf, ulong batch)
{
    const __global uchar *p =
        (const __global uchar *)(buf + batch * (DL_G * DL_N));
    for (uint o = 0; o < DL_G * DL_N * DL_W; o += 64) {
#if defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__))
        __builtin_prefetch(p + o, 1, 3); /* for writing: it is updated */
#else
        prefetch(p + o, 64); /* a no-op on POCL; SPIR (oclgrind) lacks the
                              * builtin above */
#endif
    }
}

/* The partial last tile (R = count % DL_T records, stored as ASTA(R)),
 * through the private array a. */
DL_INLINE void dl_convert_tail(__global DL_WORD *buf, ulong count,
                               DL_WORD *a, const int inv)
{
    const uint w = (uint)(count % DL_T);
    __global DL_WORD *base = buf + (count / DL_T) * DL_N;
    for (uint i = 0; i < w * DL_RW; i++)
        a[i] = base[i];
    for (uint i = 0; i < w * DL_RW; i++)
        base[i] = a[DL_SOURCE(inv, i, w)];
}

/* One launch does everything (on POCL each launch costs tens of
 * microseconds, a fifth of a 2 MiB conversion): work-item w < items
 * converts whole batches [w*per_item, (w+1)*per_item) of DL_G tiles; work-
 * item `items`, if launched, converts the full tiles after the last whole
 * batch one by one and then the partial last tile.  per_item and items
 * depend on the count, so they are arguments: one program serves every
 * count. */
DL_INLINE void dl_bs_batch_run(__global DL_WORD *buf, ulong count,
                               uint per_item, uint items, const int inv)
{
    DL_WORD a[DL_G * DL_N], b[DL_G * DL_N];
    const ulong full = count / DL_T, batches = full / DL_G;
    const uint id = get_global_id(0);
    if (id == items) {
        for (ulong q = batches * DL_G; q < full; q++)
            dl_convert_tiles(buf + q * DL_N, a, b, 1, inv);
        if (count % DL_T > 1) /* one record is already in place */
            dl_convert_tail(buf, count, a, inv);
        return;
    }
    const ulong first = (ulong)id * per_item;
    const ulong end = min(first + per_item, batches);
    for (ulong k = first; k < first + DL_PREFETCH && k < end; k++)
        dl_prefetch_batch(buf, k);
    for (ulong k = first; k < end; k++) {
        if (k + DL_PREFETCH < end)
            dl_prefetch_batch(buf, k + DL_PREFETCH);
        dl_convert_tiles(buf + k * (DL_G * DL_N), a, b, DL_G, inv);
    }
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_batch(__global DL_WORD *buf, ulong count, uint per_item,
                 uint items)
{
    dl_bs_batch_run(buf, count, per_item, items, 0);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_batch_inverse(__global DL_WORD *buf, ulong count, uint per_item,
                         uint items)
{
    dl_bs_batch_run(buf, count, per_item, items, 1);
}

#else /* GPU schedule */

/* Full tiles: group g converts tiles [g*DL_G, g*DL_G + DL_G). */
DL_INLINE void dl_bs_group_run(__global DL_WORD *buf, ulong full_tiles,
                               const int inv)
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
            v[k] = base[tile * DL_N + DL_SOURCE(inv, a, DL_T)];
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            base[p] = v[k];
    }
}

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_group(__global DL_WORD *buf, ulong full_tiles)
{
    dl_bs_group_run(buf, full_tiles, 0);
}

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_group_inverse(__global DL_WORD *buf, ulong full_tiles)
{
    dl_bs_group_run(buf, full_tiles, 1);
}

/* The partial last tile: R = count % DL_T records, stored as ASTA(R). */
DL_INLINE void dl_bs_tail_run(__global DL_WORD *buf, ulong count,
                              const int inv)
{
    const uint lid = get_local_id(0);
    const uint w = (uint)(count % DL_T);
    __global DL_WORD *base = buf + (count / DL_T) * DL_N;
    const uint limit = w * DL_RW;
    DL_WORD v[DL_K];
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            v[k] = base[DL_SOURCE(inv, p, w)];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint k = 0; k < DL_K; k++) {
        uint p = k * DL_L + lid;
        if (p < limit)
            base[p] = v[k];
    }
}

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_tail(__global DL_WORD *buf, ulong count)
{
    dl_bs_tail_run(buf, count, 0);
}

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_tail_inverse(__global DL_WORD *buf, ulong count)
{
    dl_bs_tail_run(buf, count, 1);
}

#endif
