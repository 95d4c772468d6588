/* bs.cl - in-place AoS <-> ASTA(T) by staging whole tiles (DL paper §4.2).
 *
 * A tile is read completely into private storage before any of its words
 * is written back, so nothing is overwritten before it has been read, and
 * tiles never share words, so tiles need no coordination.
 *
 * Specialisation (besides the record, see common.cl): DL_T (tile), DL_N =
 * DL_T*DL_RW words per tile, DL_INVERSE (0: AoS -> ASTA, 1: ASTA -> AoS)
 * and DL_BS_CPU, which picks one of two schedules:
 *
 * DL_BS_CPU 0 (GPUs): the paper's scheme.  A work-group of DL_L items holds
 *   DL_G tiles in registers, DL_K words per item, waits at a barrier and
 *   stores; each item gathers the word that belongs at a coalesced
 *   destination.
 *
 * DL_BS_CPU 1 (CPUs, where a work-group runs as loops on one core): a
 *   work-item converts a run of batches of DL_G tiles, one batch at a time,
 *   through a private array; it alone touches its tiles, so no barrier is
 *   needed.  What is fast on a CPU is what the loop vectoriser turns into
 *   wide loads and shuffles, so uniform records move in "rows": a loop over
 *   the records of a tile whose body handles c <= 8 consecutive words
 *   (DL_CHUNKS lists them as X(first word, c)).  Vectorising that loop
 *   gives one c-way interleaved access plus c contiguous ones.  Wider
 *   records are first staged chunk by chunk (DL_CHUNKED: chunks of 8 and
 *   one of the rest), because interleaving more than 8 ways fell back to
 *   gathers and ran at a third of the speed.
 */

#if DL_INVERSE
#define DL_SOURCE(dest, w) dl_tile_asta_pos((dest), (w))
#else
#define DL_SOURCE(dest, w) dl_tile_aos_pos((dest), (w))
#endif

#if DL_BS_CPU

#define DL_CAT2(a, b) a##b
#define DL_CAT(a, b) DL_CAT2(a, b)
/* The tile count is a constant only once the helpers are inlined; LLVM
 * kept the larger ones out of line, and with runtime bounds vectorised
 * them with gathers. */
#define DL_INLINE inline __attribute__((always_inline))

#if DL_BS_ROWS
/* Chunk-major order of `nrec` records: word u0 + j of record i (chunk
 * (u0, c)) lives at cm[u0*nrec + i*c + j].  With a single chunk this is
 * the AoS order itself.  DL_PIECES lists Y(u0, c, j0, k): words j0 .. j0+k-1
 * of chunk (u0, c), moved with one vloadk/vstorek (k = 1: a plain word).
 * The explicit vectors also keep the vectoriser off these loops, which it
 * would otherwise turn into gathers. */
#define DL_MOVE1(src, dst) ((dst)[0] = (src)[0])
#define DL_MOVE2(src, dst) vstore2(vload2(0, (src)), 0, (dst))
#define DL_MOVE3(src, dst) vstore3(vload3(0, (src)), 0, (dst))
#define DL_MOVE4(src, dst) vstore4(vload4(0, (src)), 0, (dst))
#define DL_MOVE8(src, dst) vstore8(vload8(0, (src)), 0, (dst))

#if DL_CHUNKED
DL_INLINE void dl_aos_to_chunks(const DL_WORD *restrict aos,
                                DL_WORD *restrict cm, const uint nrec)
{
    for (uint i = 0; i < nrec; i++) {
#define Y(u0, c, j0, k)                                                       \
        DL_CAT(DL_MOVE, k)(aos + i * DL_RW + (u0) + (j0),                     \
                           cm + (u0) * nrec + i * (c) + (j0));
        DL_PIECES
#undef Y
    }
}

DL_INLINE void dl_chunks_to_aos(const DL_WORD *restrict cm,
                                DL_WORD *restrict aos, const uint nrec)
{
    for (uint i = 0; i < nrec; i++) {
#define Y(u0, c, j0, k)                                                       \
        DL_CAT(DL_MOVE, k)(cm + (u0) * nrec + i * (c) + (j0),                 \
                           aos + i * DL_RW + (u0) + (j0));
        DL_PIECES
#undef Y
    }
}
#endif

/* ntiles tiles: chunk-major records <-> ASTA rows.  The t loop is the one
 * the vectoriser widens; the j loop is unrolled into its body. */
DL_INLINE void dl_chunks_to_rows(const DL_WORD *restrict cm,
                                 DL_WORD *restrict asta, const uint ntiles)
{
    const uint nrec = ntiles * DL_T;
#define X(u0, c)                                                              \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                asta[g * DL_N + ((u0) + j) * DL_T + t] =                      \
                    cm[(u0) * nrec + (g * DL_T + t) * (c) + j];               \
        }
    DL_CHUNKS
#undef X
}

DL_INLINE void dl_rows_to_chunks(const DL_WORD *restrict asta,
                                 DL_WORD *restrict cm, const uint ntiles)
{
    const uint nrec = ntiles * DL_T;
#define X(u0, c)                                                              \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                cm[(u0) * nrec + (g * DL_T + t) * (c) + j] =                  \
                    asta[g * DL_N + ((u0) + j) * DL_T + t];                   \
        }
    DL_CHUNKS
#undef X
}

/* Narrow tiles (DL_BS_COLS, T <= 8), AoS -> ASTA: a rows loop would be at
 * most 8 iterations long, so vectorise along the record instead: the loop
 * runs over its words and the tile's T records are unrolled into the
 * body, which gives T contiguous loads and one T-way interleaved store. */
DL_INLINE void dl_aos_to_cols(const DL_WORD *restrict aos,
                              DL_WORD *restrict asta, const uint ntiles)
{
    for (uint g = 0; g < ntiles; g++)
        for (uint u = 0; u < DL_RW; u++) {
            _Pragma("unroll")
            for (uint t = 0; t < DL_T; t++)
                asta[g * DL_N + u * DL_T + t] = aos[g * DL_N + t * DL_RW + u];
        }
}

/* Transposes ntiles staged tiles from `a`; returns the array (a or b)
 * that holds the result. */
DL_INLINE DL_WORD *dl_transpose(DL_WORD *restrict a, DL_WORD *restrict b,
                                const uint ntiles)
{
#if DL_INVERSE && DL_CHUNKED
    dl_rows_to_chunks(a, b, ntiles);
    dl_chunks_to_aos(b, a, ntiles * DL_T);
    return a;
#elif DL_INVERSE
    dl_rows_to_chunks(a, b, ntiles);
    return b;
#elif DL_BS_COLS
    dl_aos_to_cols(a, b, ntiles);
    return b;
#elif DL_CHUNKED
    dl_aos_to_chunks(a, b, ntiles * DL_T);
    dl_chunks_to_rows(b, a, ntiles);
    return a;
#else
    dl_chunks_to_rows(a, b, ntiles);
    return b;
#endif
}

#else /* !DL_BS_ROWS: mixed records, or wider than the chunk lists go */

DL_INLINE DL_WORD *dl_transpose(DL_WORD *restrict a, DL_WORD *restrict b,
                                const uint ntiles)
{
    for (uint g = 0; g < ntiles; g++)
        for (uint p = 0; p < DL_N; p++)
            b[g * DL_N + p] = a[g * DL_N + DL_SOURCE(p, DL_T)];
    return b;
}
#endif

/* Converts ntiles consecutive full tiles at base (a constant at every
 * call site, so the loops above get constant bounds).  Global memory is
 * only read and written by plain streaming copies: with the shuffles in
 * the same loops the conversion ran at 0.65-0.75 of a copy out of DRAM,
 * with them apart at ~1.0. */
DL_INLINE void dl_convert_tiles(__global DL_WORD *base, DL_WORD *a,
                                DL_WORD *b, const uint ntiles)
{
    for (uint i = 0; i < ntiles * DL_N; i++)
        a[i] = base[i];
    const DL_WORD *out = dl_transpose(a, b, ntiles);
    for (uint i = 0; i < ntiles * DL_N; i++)
        base[i] = out[i];
}

/* Whole batches: work-item w converts batches [w*per_item, (w+1)*per_item)
 * of DL_G tiles each (per_item depends on the count, so it is an argument
 * to keep one program per record and tile). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_batch(__global DL_WORD *buf, ulong batches, uint per_item)
{
    DL_WORD a[DL_G * DL_N], b[DL_G * DL_N];
    const ulong first = (ulong)get_global_id(0) * per_item;
    for (uint k = 0; k < per_item && first + k < batches; k++) {
#ifdef DLX_PREFETCH
        if (first + k + DLX_PREFETCH < batches) {
            const __global char *nx = (const __global char *)(buf + (first + k + DLX_PREFETCH) * (DL_G * DL_N));
            for (uint o = 0; o < DL_G * DL_N * DL_W; o += 64)
                __builtin_prefetch(nx + o, 1, 3);
        }
#endif
        dl_convert_tiles(buf + (first + k) * (DL_G * DL_N), a, b, DL_G);
    }
}

/* The full tiles after the last whole batch, one per work-item. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_single(__global DL_WORD *buf, ulong first_tile)
{
    DL_WORD a[DL_N], b[DL_N];
    dl_convert_tiles(buf + (first_tile + get_global_id(0)) * DL_N, a, b, 1);
}

/* The partial last tile: R = count % DL_T records, stored as ASTA(R). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_tail(__global DL_WORD *buf, ulong count)
{
    const uint w = (uint)(count % DL_T);
    __global DL_WORD *base = buf + (count / DL_T) * DL_N;
    DL_WORD tmp[DL_N];
    for (uint a = 0; a < w * DL_RW; a++)
        tmp[a] = base[a];
    for (uint a = 0; a < w * DL_RW; a++)
        base[a] = tmp[DL_SOURCE(a, w)];
}

#else /* GPU schedule */

/* Full tiles: group g converts tiles [g*DL_G, g*DL_G + DL_G). */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_bs_group(__global DL_WORD *buf, ulong full_tiles)
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

#endif
