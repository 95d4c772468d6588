/* pttwac_tiles.cl - in-place DA <-> ASTA(T) chunk transpose by cycle
 * following with atomic done bits (PTTWAC, DL paper §4.3), made race-free.
 *
 * Chunks: the first Q*T*RW words (Q = M / T) hold N = Q*RW chunks of T
 * words (tail.cl has moved the partial tile out of the way).  DA chunk
 * d = us*Q + q*k + j (chunk j of part (us, k) of tile q) belongs at ASTA
 * chunk a = q*RW + us + j; for one-word parts this is an RW x Q transpose
 * of T-word tiles.  A chunk is cut into DL_P pieces of at most DL_C words
 * (registers of one work-group); piece v = chunk*DL_P + p follows the
 * chunk's cycle, so the pieces are the units of the permutation.
 *
 * The paper's version lets a work-group read a tile after checking its done
 * bit, which another work-group may be overwriting at that moment.  Here a
 * work-group touches a piece only after it set that piece's done bit
 * itself with atomic_or, so within one launch every data word is read and
 * written by one work-group only:
 *  - a group claims a start s and reads it, then claims the successors
 *    and swaps its carried piece with each.  It claims up to DL_D moves
 *    before making them, so that their loads are in flight together (on a
 *    CPU a move is otherwise a DRAM latency, and x86 atomics wait for
 *    earlier loads);
 *  - if a successor n is already claimed, it is another walk's start (a
 *    step claim comes from the predecessor, which this walk owns): the
 *    carried piece, which belongs at n, is parked in s and the link s -> n
 *    recorded; dl_pttwac_resolve (one work-group, next launch) then rotates
 *    the parked pieces along the link cycles.
 * Every walk that may end in a link first reserves a slot of the bounded
 * link table; when none is left the group stops and marks its span for
 * rescanning, and the next round (walk + resolve) continues.  After a
 * round every cycle is either complete or untouched, so a final round with
 * a single work-group never collides and never needs a link.
 *
 * Specialisation: DL_T, DL_INVERSE (0: DA -> ASTA), DL_L work-items,
 * DL_C words per piece, DL_P pieces per chunk, DL_K = ceil(DL_C / DL_L),
 * DL_D moves claimed ahead, DL_SPAN done words per counter increment.
 * tmp = [ 4 control words | link table: cap x (start+1, target) ulongs |
 *         done bits, one per piece ].
 */

enum { CTL_NEXT, CTL_RESERVED, CTL_RESCAN, CTL_WORDS = 4 };

/* Piece v covers words [base, base + len) of the buffer. */
inline ulong dl_piece_base(ulong v)
{
    return (v / DL_P) * DL_T + (v % DL_P) * DL_C;
}

inline uint dl_piece_len(ulong v)
{
    uint first = (uint)(v % DL_P) * DL_C;
    return min((uint)DL_C, DL_T - first);
}

/* A CPU hint: piece v's done word (and data) will be written soon.  The
 * claims are serialising atomics, and on a done word last written by
 * another core each waits for a transfer; prefetching the next claims'
 * lines lets the transfers overlap.  Harmless on another group's piece: it
 * reads nothing.  Oclgrind's SPIR has no prefetch. */
inline void dl_prefetch(__global const uint *done,
                        __global const DL_WORD *buf, ulong v)
{
#if defined(__x86_64__) && __has_builtin(__builtin_prefetch)
    __builtin_prefetch((const __global void *)(done + v / 32), 1);
    __builtin_prefetch((const __global void *)(buf + dl_piece_base(v)), 1);
#else
    (void)done;
    (void)buf;
    (void)v;
#endif
}

/* Sets done bit v; nonzero if it was already set. */
inline uint dl_claim(__global uint *done, ulong v)
{
    uint bit = 1u << (v % 32);
    return atomic_or(&done[v / 32], bit) & bit;
}

/* Work-item 0 does all the bookkeeping alone and tells the work-group what
 * to do with the pieces next, so the barriers stay in one flat loop with a
 * single call site of the bookkeeping: POCL 3.1 miscompiles or rejects
 * barriers in nested loops with early exits, and duplicated inlined code
 * around a barrier.  Two alternating slots make one barrier per step
 * enough: slot i is rewritten two steps later, after everybody read it.
 *
 * An op is a list of up to DL_D moves of the carried piece: load it from a
 * piece, swap it with a piece, or store it into a piece.  One op may span
 * the end of a walk and the start of the next, so short cycles keep as
 * many loads in flight as long ones. */
enum { MOVE_LOAD, MOVE_SWAP, MOVE_STORE };

typedef struct dl_op {
    uint exit, count;
    uint kind[DL_D];
    ulong at[DL_D];
} dl_op;

/* Whether work-item lid holds word k of a piece of len words; constant
 * when every piece is full and the items divide it evenly (no masks). */
#define DL_EVEN (DL_T % DL_C == 0 && DL_C == DL_K * DL_L)
#define DL_HOLDS(k, lid, len) (DL_EVEN || (k) * DL_L + (lid) < (len))

/* Every work-item moves its own words of the pieces, so the work-group
 * needs no barrier between the loads and the stores, and the loads of
 * different pieces do not wait for each other. */
inline void dl_apply(__global DL_WORD *buf, __local const dl_op *op,
                     DL_WORD *carry, uint lid)
{
    for (uint j = 0; j < op->count; j++) {
        const uint kind = op->kind[j];
        const uint len = dl_piece_len(op->at[j]);
        __global DL_WORD *p = buf + dl_piece_base(op->at[j]) + lid;
        if (kind == MOVE_SWAP) {
            for (uint k = 0; k < DL_K; k++)
                if (DL_HOLDS(k, lid, len)) {
                    DL_WORD t = p[k * DL_L];
                    p[k * DL_L] = carry[k];
                    carry[k] = t;
                }
        } else if (kind == MOVE_LOAD) {
            for (uint k = 0; k < DL_K; k++)
                if (DL_HOLDS(k, lid, len))
                    carry[k] = p[k * DL_L];
        } else {
            for (uint k = 0; k < DL_K; k++)
                if (DL_HOLDS(k, lid, len))
                    p[k * DL_L] = carry[k];
        }
    }
}

/* Work-item 0's state in dl_pttwac_walk. */
typedef struct dl_walker {
    __global const DL_WORD *buf;
    __global uint *ctl, *done;
    __global ulong *links;
    ulong n, q_tiles;
    uint words, spans, cap;
    uint word, span_end; /* done word being scanned, end of its span  */
    uint bit, seen;      /* next bit of it (32: next word), its value */
    uint res;            /* reserved link slot, cap if none           */
    uint walking, finished;
    ulong start, next;
} dl_walker;

/* The next start: a piece nobody claimed, scanning spans of DL_SPAN done
 * words taken from a shared counter (one atomic per span: on a CPU a
 * counter line that moves between cores costs microseconds).  Returns 0
 * when the group is done. */
inline uint dl_walk_start(dl_walker *w)
{
    while (!w->finished) {
        if (w->bit == 32) {
            if (++w->word >= w->span_end) {
                uint span = atomic_inc(&w->ctl[CTL_NEXT]);
                if (span >= w->spans)
                    break;
                w->word = span * DL_SPAN;
                w->span_end = min(w->word + DL_SPAN, w->words);
            }
            w->seen = atomic_or(&w->done[w->word], 0u);
            w->bit = 0;
        }
        ulong v = (ulong)w->word * 32 + w->bit;
        if (v >= w->n) {
            w->bit = 32;
            continue;
        }
        if (w->seen & (1u << w->bit)) {
            w->bit++;
            continue;
        }
        if (w->res == w->cap) { /* a walk may end in a link: reserve */
            uint r = atomic_inc(&w->ctl[CTL_RESERVED]);
            if (r >= w->cap) { /* table full: leave the rest to a round */
                atomic_max(&w->ctl[CTL_RESCAN], w->spans - w->word / DL_SPAN);
                break;
            }
            w->res = r;
        }
        w->bit++;
        if (dl_claim(w->done, v))
            continue;
        ulong next = dl_chunk_next(v, w->q_tiles);
        if (next == v)
            continue; /* a fixed point: claimed, nothing moves */
        w->start = v;
        w->next = next;
        w->walking = 1;
        return 1;
    }
    w->finished = 1;
    return 0;
}

/* Claims successors (and starts walks) until the op is full. */
inline void dl_walk_step(dl_walker *w, __local dl_op *op)
{
    uint n = 0;
    while (n + 2 <= DL_D) { /* a step adds at most two moves */
        if (!w->walking) {
            if (!dl_walk_start(w))
                break;
            op->kind[n] = MOVE_LOAD;
            op->at[n++] = w->start;
        } else if (dl_claim(w->done, w->next)) { /* another walk's start */
            w->links[2 * w->res] = w->start + 1;  /* park, link */
            w->links[2 * w->res + 1] = w->next;
            w->res = w->cap;
            w->walking = 0;
            op->kind[n] = MOVE_STORE;
            op->at[n++] = w->start;
        } else {
            op->kind[n] = MOVE_SWAP;
            op->at[n++] = w->next;
            w->next = dl_chunk_next(w->next, w->q_tiles);
            if (w->next == w->start) { /* the whole cycle was ours */
                w->walking = 0;
                op->kind[n] = MOVE_STORE;
                op->at[n++] = w->start;
            }
        }
    }
    op->count = n;
    op->exit = n == 0;
    ulong ahead = w->next; /* the claims of the next step */
    for (uint j = 0; w->walking && j < DL_D / 2 && ahead != w->start; j++) {
        dl_prefetch(w->done, w->buf, ahead);
        ahead = dl_chunk_next(ahead, w->q_tiles);
    }
}

/* Persistent work-groups take spans of done words from a shared counter
 * and start a walk at every piece nobody has claimed. */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_pttwac_walk(__global DL_WORD *buf, __global uint *tmp, ulong q_tiles,
                    uint cap)
{
    const uint lid = get_local_id(0);
    __local dl_op ops[2];
    dl_walker w;
    w.buf = buf;
    w.ctl = tmp;
    w.links = (__global ulong *)(tmp + CTL_WORDS);
    w.done = tmp + CTL_WORDS + 4 * cap;
    w.n = q_tiles * DL_RW * DL_P;
    w.q_tiles = q_tiles;
    w.words = (uint)((w.n + 31) / 32);
    w.spans = (w.words + DL_SPAN - 1) / DL_SPAN;
    w.cap = w.res = cap;
    w.word = w.span_end = 0;
    w.bit = 32;
    w.walking = w.finished = 0;
    DL_WORD carry[DL_K];
    for (uint i = 0;; i ^= 1) {
        if (lid == 0)
            dl_walk_step(&w, &ops[i]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (ops[i].exit)
            break;
        dl_apply(buf, &ops[i], carry, lid);
    }
}

/* Work-item 0's state in dl_pttwac_resolve. */
typedef struct dl_resolver {
    __global uint *ctl;
    __global ulong *links;
    uint n, e, cur, in_cycle;
    ulong start;
} dl_resolver;

/* The piece parked at s belongs at link(s): rotate each link cycle once,
 * zeroing its entries; at the end reset the table and rewind the span
 * counter to the first span a group gave up. */
inline void dl_resolve_step(dl_resolver *r, uint spans, __local dl_op *op)
{
    uint n = 0;
    while (n < DL_D) {
        if (r->in_cycle) {
            ulong target = r->links[2 * r->cur + 1];
            r->links[2 * r->cur] = 0;
            op->kind[n] = MOVE_SWAP;
            op->at[n++] = target;
            r->in_cycle = target != r->start;
            for (uint f = 0; r->in_cycle && f < r->n; f++)
                if (r->links[2 * f] == target + 1) /* targets are starts */
                    r->cur = f;
        } else if (r->e < r->n) {
            ulong s = r->links[2 * r->e];
            if (s) { /* else an unused reservation, or rotated already */
                r->start = s - 1;
                r->cur = r->e;
                r->in_cycle = 1;
                op->kind[n] = MOVE_LOAD;
                op->at[n++] = r->start;
            }
            r->e++;
        } else {
            break;
        }
    }
    op->count = n;
    op->exit = n == 0;
    if (n == 0) {
        uint rescan = r->ctl[CTL_RESCAN];
        if (rescan)
            r->ctl[CTL_NEXT] = min(r->ctl[CTL_NEXT], spans - rescan);
        r->ctl[CTL_RESCAN] = 0;
        r->ctl[CTL_RESERVED] = 0;
    }
}

/* One work-group, after every walk of a round has ended. */
__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_pttwac_resolve(__global DL_WORD *buf, __global uint *tmp,
                       ulong q_tiles, uint cap)
{
    const uint lid = get_local_id(0);
    const uint words = (uint)((q_tiles * DL_RW * DL_P + 31) / 32);
    const uint spans = (words + DL_SPAN - 1) / DL_SPAN;
    __local dl_op ops[2];
    dl_resolver r;
    r.ctl = tmp;
    r.links = (__global ulong *)(tmp + CTL_WORDS);
    r.e = r.in_cycle = 0;
    r.start = 0;
    r.n = lid ? 0 : min(r.ctl[CTL_RESERVED], cap);
    DL_WORD carry[DL_K];
    for (uint i = 0;; i ^= 1) {
        if (lid == 0)
            dl_resolve_step(&r, spans, &ops[i]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (ops[i].exit)
            break;
        dl_apply(buf, &ops[i], carry, lid);
    }
}
