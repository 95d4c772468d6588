/* common.cl - position maps shared by every marshal kernel.
 *
 * The runtime prepends a specialisation that defines:
 *   DL_WORD     the moved word type (W = 1, 2, 4, 8 or 16 bytes)
 *   DL_RW       words per record
 *   DL_UNIFORM  1 if every field (and padding gap) is exactly one word;
 *               otherwise the tables dl_unit_start[] / dl_unit_len[] give,
 *               for each word u of a record, the first word and the length
 *               (in words) of the part it belongs to.
 *
 * Inside a tile of width w (T, or R for the partial last tile) the record
 * at slot t keeps word j of part s (starting at word us, k words long) at
 *   AoS:  t*DL_RW + us + j
 *   ASTA: us*w + t*k + j      (each part becomes a w-element array)
 */

/* AoS position -> ASTA position inside one tile of width w. */
inline uint dl_tile_asta_pos(uint p, uint w)
{
    uint t = p / DL_RW, u = p % DL_RW;
#if DL_UNIFORM
    return u * w + t;
#else
    uint us = dl_unit_start[u], k = dl_unit_len[u];
    return us * w + t * k + (u - us);
#endif
}

/* ASTA position -> AoS position inside one tile of width w. */
inline uint dl_tile_aos_pos(uint a, uint w)
{
#if DL_UNIFORM
    return (a % w) * DL_RW + a / w;
#else
    uint u0 = a / w; /* part s covers [us*w, (us+k)*w) */
    uint us = dl_unit_start[u0], k = dl_unit_len[u0];
    uint rem = a - us * w;
    return (rem / k) * DL_RW + us + rem % k;
#endif
}

/* Word index of word u of record i in ASTA(tile) over count records. */
inline ulong dl_word_index(ulong i, uint u, ulong tile, ulong count)
{
    ulong q = i / tile, t = i % tile;
    ulong w = q < count / tile ? tile : count % tile;
#if DL_UNIFORM
    return q * tile * DL_RW + u * w + t;
#else
    uint us = dl_unit_start[u], k = dl_unit_len[u];
    return q * tile * DL_RW + us * w + t * k + (u - us);
#endif
}

/* Inverse of dl_word_index: which record and word live at word d. */
inline void dl_word_decode(ulong d, ulong tile, ulong count, ulong *i,
                           uint *u)
{
    ulong q = d / (tile * DL_RW);
    ulong a = d - q * tile * DL_RW;
    ulong w = q < count / tile ? tile : count % tile;
    uint u0 = (uint)(a / w);
#if DL_UNIFORM
    *i = q * tile + a % w;
    *u = u0;
#else
    uint us = dl_unit_start[u0], k = dl_unit_len[u0];
    ulong rem = a - us * w;
    *i = q * tile + rem / k;
    *u = us + (uint)(rem % k);
#endif
}

/* First word and length (in words) of the part that word u belongs to. */
#if DL_UNIFORM
#define DL_PART_START(u) (u)
#define DL_PART_LEN(u) 1u
#else
#define DL_PART_START(u) dl_unit_start[u]
#define DL_PART_LEN(u) dl_unit_len[u]
#endif

/* 32-bit division when it suffices: several times faster on CPUs. */
inline ulong dl_div(ulong a, ulong b)
{
    return (a | b) >> 32 ? a / b : (ulong)((uint)a / (uint)b);
}

#ifdef DL_P
/* Chunk kernels (pttwac_tiles.cl, pipt.cl, staged_cycles.cl): where the
 * piece at chunk position v (of Q*RW*DL_P) belongs.  DA chunk d = us*Q +
 * q*k + j holds the chunk that belongs at ASTA chunk a = q*RW + us + j.
 * inv 0: DA d -> ASTA a; 1: back.  A constant at every call. */
inline __attribute__((always_inline)) ulong
dl_chunk_next_dir(ulong v, ulong q_tiles, const int inv)
{
    ulong c = v / DL_P, piece = v % DL_P, to;
    if (!inv) { /* DA d -> ASTA a */
        uint u = (uint)dl_div(c, q_tiles); /* part (us, k): us <= u < us+k */
        uint us = DL_PART_START(u), k = DL_PART_LEN(u);
        ulong rem = c - us * q_tiles;
        to = (rem / k) * DL_RW + us + rem % k;
    } else { /* ASTA a -> DA d */
        ulong q = c / DL_RW;
        uint u = (uint)(c % DL_RW);
        uint us = DL_PART_START(u), k = DL_PART_LEN(u);
        to = us * q_tiles + q * k + (u - us);
    }
    return to * DL_P + piece;
}

#ifdef DL_INVERSE /* kernels built for one direction */
inline ulong dl_chunk_next(ulong v, ulong q_tiles)
{
    return dl_chunk_next_dir(v, q_tiles, DL_INVERSE);
}
#endif
#endif
