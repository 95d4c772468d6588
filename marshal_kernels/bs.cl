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
 *   records are first staged chunk by chunk (DL_CHUNKED), because
 *   interleaving more than 8 ways fell back to gathers and ran at a third
 *   of the speed.
 */

#if DL_INVERSE
#define DL_SOURCE(dest, w) dl_tile_asta_pos((dest), (w))
#else
#define DL_SOURCE(dest, w) dl_tile_aos_pos((dest), (w))
#endif

#if DL_BS_CPU

#define DL_CAT2(a, b) a##b
#define DL_CAT(a, b) DL_CAT2(a, b)

#if DL_BS_ROWS
/* Chunk-major staging of `nrec` records: word u0 + j of record i (chunk
 * (u0, c)) lives at tmp[u0*nrec + i*c + j].  With a single chunk this is
 * the AoS order itself. */
inline void dl_stage_aos(const __global DL_WORD *aos, DL_WORD *tmp,
                         const uint nrec)
{
#if DL_CHUNKED
    for (uint i = 0; i < nrec; i++) {
#define X(u0, c)                                                              \
        DL_CAT(vstore, c)(DL_CAT(vload, c)(0, aos + i * DL_RW + (u0)), i,      \
                          tmp + (u0) * nrec);
        DL_CHUNKS
#undef X
    }
#else
    for (uint a = 0; a < nrec * DL_RW; a++)
        tmp[a] = aos[a];
#endif
}

inline void dl_unstage_aos(__global DL_WORD *aos, const DL_WORD *tmp,
                           const uint nrec)
{
#if DL_CHUNKED
    for (uint i = 0; i < nrec; i++) {
#define X(u0, c)                                                              \
        DL_CAT(vstore, c)(DL_CAT(vload, c)(i, tmp + (u0) * nrec), 0,           \
                          aos + i * DL_RW + (u0));
        DL_CHUNKS
#undef X
    }
#else
    for (uint a = 0; a < nrec * DL_RW; a++)
        aos[a] = tmp[a];
#endif
}

/* ntiles tiles: staged chunks <-> ASTA rows.  The t loop is the one the
 * vectoriser widens; the j loop is unrolled into its body. */
inline void dl_rows_to_asta(__global DL_WORD *asta, const DL_WORD *tmp,
                            const uint ntiles)
{
    const uint nrec = ntiles * DL_T;
#define X(u0, c)                                                              \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                asta[g * DL_N + ((u0) + j) * DL_T + t] =                      \
                    tmp[(u0) * nrec + (g * DL_T + t) * (c) + j];              \
        }
    DL_CHUNKS
#undef X
}

inline void dl_rows_from_asta(const __global DL_WORD *asta, DL_WORD *tmp,
                              const uint ntiles)
{
    const uint nrec = ntiles * DL_T;
#define X(u0, c)                                                              \
    for (uint g = 0; g < ntiles; g++)                                         \
        for (uint t = 0; t < DL_T; t++) {                                     \
            DL_ROW_UNROLL                                                     \
            for (uint j = 0; j < (c); j++)                                    \
                tmp[(u0) * nrec + (g * DL_T + t) * (c) + j] =                 \
                    asta[g * DL_N + ((u0) + j) * DL_T + t];                   \
        }
    DL_CHUNKS
#undef X
}

/* Converts ntiles consecutive full tiles at base (ntiles is a constant at
 * every call site, so the loops above get constant bounds). */
inline void dl_convert_tiles(__global DL_WORD *base, DL_WORD *tmp,
                             const uint ntiles)
{
#if DL_INVERSE
    dl_rows_from_asta(base, tmp, ntiles);
    dl_unstage_aos(base, tmp, ntiles * DL_T);
#else
    dl_stage_aos(base, tmp, ntiles * DL_T);
    dl_rows_to_asta(base, tmp, ntiles);
#endif
}

#else /* !DL_BS_ROWS: mixed records or very wide ones */

inline void dl_convert_tiles(__global DL_WORD *base, DL_WORD *tmp,
                             const uint ntiles)
{
    for (uint g = 0; g < ntiles; g++) {
        __global DL_WORD *tile = base + g * DL_N;
        for (uint a = 0; a < DL_N; a++)
            tmp[a] = tile[a];
        for (uint a = 0; a < DL_N; a++)
            tile[a] = tmp[DL_SOURCE(a, DL_T)];
    }
}
#endif

/* Whole batches: work-item w converts batches [w*per_item, (w+1)*per_item)
 * of DL_G tiles each (per_item depends on the count, so it is an argument
 * to keep one program per record and tile). */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_batch(__global DL_WORD *buf, ulong batches, uint per_item)
{
    DL_WORD tmp[DL_G * DL_N];
    const ulong first = (ulong)get_global_id(0) * per_item;
    for (uint k = 0; k < per_item && first + k < batches; k++)
        dl_convert_tiles(buf + (first + k) * (DL_G * DL_N), tmp, DL_G);
}

/* The full tiles after the last whole batch, one per work-item. */
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_bs_single(__global DL_WORD *buf, ulong first_tile)
{
    DL_WORD tmp[DL_N];
    dl_convert_tiles(buf + (first_tile + get_global_id(0)) * DL_N, tmp, 1);
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
