/* tail.cl - the tail split that lets the chunk transposes handle a count M
 * that is not a multiple of T (Q = M / T full tiles, R = M % T > 0).
 *
 * In DA(M) the part (us, k) of the record (k words from word us) is a
 * region of M*k words: [ F_s: Q*T*k words | t_s: R*k words ].  The split
 * (DL_INVERSE 0) rearranges the buffer in place into
 *   [ F_0 F_1 ... F_last | t_0 t_1 ... t_last ]
 * whose first Q*T*RW words are ready for the chunk transpose and whose last
 * R*RW words are exactly DA(R), the partial last tile of ASTA(T).  The merge
 * (DL_INVERSE 1) undoes it.  F_s moves by o_s = R*us words, at most
 * H = R*us_last (the halo), the tails move far.
 *
 * Two launches, race-free because no buffer word is read in a launch by a
 * work-group other than the one that writes it:
 *  1. dl_tail_gather copies every tail word and, for each group, the H
 *     words just beyond its range on the side its sources come from into
 *     `temp` (it writes nothing in the buffer).
 *  2. dl_tail_shift: group g owns destination words [a, b) of the buffer.
 *     A shifted word's source lies on one side of its destination (right
 *     for the split, left for the merge), so walking the range from that
 *     side in blocks, reading a block into registers before writing it,
 *     never overwrites a word still to be read; sources outside [a, b) and
 *     tail words come from `temp`.
 *
 * Specialisation: DL_T, DL_INVERSE, DL_L work-items, DL_BK words per
 * work-item per block, DL_US_LAST (first word of the record's last part).
 * temp = [ R*RW tail words, in DA(R) order | one halo slot per group ].
 *
 * That is the GPU form.  On CPUs the split needs no temporary at all
 * (dl_tail_rotate, dl_tail_fixup, at the end of this file): part by part,
 * the tails gathered so far swap places with the next full-tile part, one
 * rotation of [tails | F_s] each, walking up the buffer; a few work-groups
 * each do that in a range of their own, and one work-item then swaps the
 * short runs left at the ranges' ends into place.  The CPU form
 * (DL_TAIL_MAX_GROUPS defined) holds both directions, each kernel with an
 * `_inverse` twin, so a split and its merge build one program; it needs
 * no DL_INVERSE, DL_L, DL_BK or DL_US_LAST.
 */

#ifndef DL_TAIL_MAX_GROUPS /* the GPU form */
#define DL_B (DL_L * DL_BK) /* words per block */

/* Destination positions [lo, hi) share one rule: the source is p + delta,
 * in the buffer, or in the tail copy when from_temp. */
typedef struct dl_seg {
    ulong lo, hi;
    long delta;
    int from_temp;
} dl_seg;

inline dl_seg dl_tail_seg(ulong p, ulong count)
{
    const ulong qt = count - count % DL_T, rest = count % DL_T;
    dl_seg s;
#if !DL_INVERSE
    const ulong full_words = qt * DL_RW;
    if (p >= full_words) { /* the DA(R) tail: straight from the copy */
        s.lo = full_words;
        s.hi = count * DL_RW;
        s.delta = -(long)full_words;
        s.from_temp = 1;
        return s;
    }
    uint u = (uint)(p / qt);
    uint us = DL_PART_START(u), k = DL_PART_LEN(u);
    s.lo = us * qt;
    s.hi = (us + k) * qt;
    s.delta = (long)(rest * us);
    s.from_temp = 0;
#else
    uint u = (uint)(p / count);
    uint us = DL_PART_START(u), k = DL_PART_LEN(u);
    ulong base = us * count, full_end = base + qt * k;
    if (p < full_end) {
        s.lo = base;
        s.hi = full_end;
        s.delta = -(long)(rest * us);
        s.from_temp = 0;
    } else { /* t_s comes from the copy, at us*R + (p - full_end) */
        s.lo = full_end;
        s.hi = base + count * k;
        s.delta = (long)(rest * us) - (long)full_end;
        s.from_temp = 1;
    }
#endif
    return s;
}

/* Buffer position of tail word e (e < R*RW, in DA(R) order). */
inline ulong dl_tail_source(ulong e, ulong count)
{
    const ulong qt = count - count % DL_T, rest = count % DL_T;
#if !DL_INVERSE
    uint u = (uint)(e / rest);
    uint us = DL_PART_START(u), k = DL_PART_LEN(u);
    return us * count + qt * k + (e - us * rest);
#else
    return qt * DL_RW + e;
#endif
}

__kernel void dl_tail_gather(__global const DL_WORD *buf,
                             __global DL_WORD *temp, ulong count,
                             ulong range, uint groups)
{
    const ulong rest = count % DL_T, total = count * DL_RW;
    const ulong tail_words = rest * DL_RW, halo = rest * DL_US_LAST;
    const ulong n = tail_words + groups * halo;
    for (ulong e = get_global_id(0); e < n; e += get_global_size(0)) {
        ulong src;
        if (e < tail_words) {
            src = dl_tail_source(e, count);
        } else {
            ulong h = e - tail_words, g = h / halo, i = h % halo;
#if !DL_INVERSE
            ulong edge = (g + 1) * range; /* first word right of group g */
            if (edge + i >= total)
                continue;
            src = edge + i;
#else
            ulong edge = g * range; /* first word of group g */
            if (i >= edge || edge >= total)
                continue;
            src = edge - 1 - i;
#endif
        }
        temp[e] = buf[src];
    }
}

/* The word that belongs at destination p of the group owning [a, b). */
inline DL_WORD dl_tail_fetch(__global const DL_WORD *buf,
                             __global const DL_WORD *tails,
                             __global const DL_WORD *halo, ulong p, ulong a,
                             ulong b, ulong count)
{
    dl_seg seg = dl_tail_seg(p, count);
    ulong s = (ulong)((long)p + seg.delta);
    if (seg.from_temp)
        return tails[s];
#if !DL_INVERSE
    (void)a;
    return s < b ? buf[s] : halo[s - b];
#else
    (void)b;
    return s >= a ? buf[s] : halo[a - 1 - s];
#endif
}

/* Reads destination words [lo, hi) of the group's range [a, b) into v.
 * Almost every block lies in one segment and takes its words from one
 * contiguous source: a plain (vectorisable) copy; the rest goes word by
 * word. */
inline void dl_tail_read(__global const DL_WORD *buf,
                         __global const DL_WORD *tails,
                         __global const DL_WORD *halo, ulong lo, ulong hi,
                         ulong a, ulong b, ulong count, DL_WORD *v, uint lid)
{
    dl_seg seg = dl_tail_seg(lo, count);
    ulong first = (ulong)((long)lo + seg.delta);
#if !DL_INVERSE
    int own = (ulong)((long)(hi - 1) + seg.delta) < b; /* no halo word */
#else
    int own = first >= a;
#endif
    __global const DL_WORD *src = 0;
    if (hi <= seg.hi)
        src = seg.from_temp ? tails + first : own ? buf + first : 0;
    if (src && hi - lo == DL_B) {
        for (uint k = 0; k < DL_BK; k++)
            v[k] = src[k * DL_L + lid];
    } else if (src) {
        for (uint k = 0; k < DL_BK; k++)
            if (k * DL_L + lid < hi - lo)
                v[k] = src[k * DL_L + lid];
    } else {
        for (uint k = 0; k < DL_BK; k++)
            if (k * DL_L + lid < hi - lo)
                v[k] = dl_tail_fetch(buf, tails, halo, lo + k * DL_L + lid,
                                     a, b, count);
    }
}

__kernel __attribute__((reqd_work_group_size(DL_L, 1, 1)))
void dl_tail_shift(__global DL_WORD *buf, __global const DL_WORD *temp,
                   ulong count, ulong range)
{
    const uint lid = get_local_id(0);
    const ulong g = get_group_id(0), total = count * DL_RW;
    const ulong rest = count % DL_T, halo_words = rest * DL_US_LAST;
    const ulong a = g * range;
    if (a >= total)
        return; /* the whole group: no barrier is skipped by a part of it */
    const ulong b = min(a + range, total);
    __global const DL_WORD *halo = temp + rest * DL_RW + g * halo_words;
    DL_WORD v[DL_BK];
    for (ulong done = 0; done < b - a; done += DL_B) {
#if !DL_INVERSE /* sources lie right: go up */
        ulong lo = a + done, hi = min(lo + DL_B, b);
#else /* sources lie left: go down */
        ulong hi = b - done, lo = hi - a > DL_B ? hi - DL_B : a;
#endif
        dl_tail_read(buf, temp, halo, lo, hi, a, b, count, v, lid);
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (hi - lo == DL_B)
            for (uint k = 0; k < DL_BK; k++)
                buf[lo + k * DL_L + lid] = v[k];
        else
            for (uint k = 0; k < DL_BK; k++)
                if (k * DL_L + lid < hi - lo)
                    buf[lo + k * DL_L + lid] = v[k];
        barrier(CLK_GLOBAL_MEM_FENCE);
    }
}

#endif /* the GPU form */

/* Swaps the disjoint runs [a, a+n) and [b, b+n). */
inline void dl_swap_runs(__global DL_WORD *buf, ulong a, ulong b, ulong n)
{
    for (ulong i = 0; i < n; i++) {
        DL_WORD t = buf[a + i];
        buf[a + i] = buf[b + i];
        buf[b + i] = t;
    }
}

/* Rotates [p - left, p + right) in place so that its right run comes
 * first, by block swaps (Gries and Mills) that always move up the buffer:
 * the shorter run is swapped with the start of the longer one, which puts
 * those words in their place, and moves on.  Every word of the longer run
 * moves once; the shorter run stays in cache.  (Streams walked downwards
 * measured about half as fast on the 2-core VM.) */
inline void dl_rotate(__global DL_WORD *buf, ulong p, ulong left,
                      ulong right)
{
    while (left && right) {
        if (left <= right) { /* [A B1 B2] -> [B1 A B2]: B1 is placed */
            dl_swap_runs(buf, p - left, p, left);
            p += left;
            right -= left;
        } else { /* [A1 A2 B] -> [B A2 A1]: B is placed */
            dl_swap_runs(buf, p - left, p, right);
            left -= right;
        }
    }
}

/* The split (or merge) with no temporary, by `groups` work-groups of
 * one work-item, each owning the range [c_g, c_(g+1)) of the buffer.
 * Done by one walk, the split would rotate, part after part, the tails
 * gathered so far (the carry, o(p) = R*us words just below the part's
 * full-tile words F_s) with F_s, walking up the buffer.  A group starts
 * that walk in the middle: it takes the first o(c_g) words of its range
 * (its head, F words that belong just below c_g) as its carry, so every
 * F word of its range that stays in it lands in its final place, and the
 * carry [head_g | tails of the range] ends at the top of the range, where
 * the heads of the next range belong.  dl_tail_fixup then swaps the
 * carries' short runs into place.  A cut c lies in the full-tile words
 * of its part with [c, c + o(c)) too, so a head is made of F words only,
 * and cuts lie at least a head apart, so a head fits its range. */

#ifdef DL_TAIL_MAX_GROUPS /* the CPU form */

/* Tail words below the cut c (all of them for c at the end). */
inline ulong dl_cut_carry(ulong c, ulong count)
{
    const ulong rest = count % DL_T;
    if (c >= count * DL_RW)
        return rest * DL_RW;
    return DL_PART_START((uint)(c / count)) * rest;
}

/* The first valid cut at or above c: c itself, or a later part's start. */
inline ulong dl_cut_snap(ulong c, ulong count)
{
    const ulong qt = count - count % DL_T, rest = count % DL_T;
    while (c < count * DL_RW) {
        uint us = DL_PART_START((uint)(c / count)), k = DL_PART_LEN(us);
        if (c + us * rest <= us * count + qt * k)
            return c;
        c = (us + k) * count;
    }
    return count * DL_RW;
}

/* cuts[0..groups], snapped to valid cuts: the words from the second part
 * on (the first part's full-tile words stay where they are) in about
 * equal ranges. */
inline void dl_cuts(ulong *cuts, uint groups, ulong count)
{
    const ulong total = count * DL_RW, still = DL_PART_LEN(0) * count;
    cuts[0] = 0;
    for (uint j = 1; j <= groups; j++) {
        ulong want = still + (total - still) * j / groups;
        ulong least = cuts[j - 1] + dl_cut_carry(cuts[j - 1], count);
        cuts[j] = dl_cut_snap(want > least ? want : least, count);
    }
}

/* The F words of part us in [lo, hi), the range [a, b) of its group. */
inline int dl_piece(uint us, uint first, ulong a, ulong b, ulong count,
                    ulong *lo, ulong *hi)
{
    const ulong qt = count - count % DL_T, rest = count % DL_T;
    *lo = us == first ? a + us * rest : us * count;
    *hi = min(us * count + qt * DL_PART_LEN(us), b);
    return *lo < *hi;
}

/* inv 0: the split; 1: the merge.  A constant at every call. */
inline __attribute__((always_inline)) void
dl_tail_rotate_run(__global DL_WORD *buf, ulong count, uint groups,
                   const int inv)
{
    const ulong rest = count % DL_T;
    const uint g = get_group_id(0);
    ulong cuts[DL_TAIL_MAX_GROUPS + 1];
    dl_cuts(cuts, groups, count);
    const ulong a = cuts[g], b = cuts[g + 1];
    if (a >= b)
        return;
    const uint first = DL_PART_START((uint)(a / count));
    ulong lo, hi;
    if (!inv) {
        for (uint us = first; us < DL_RW && us * count < b;
             us += DL_PART_LEN(us))
            if (dl_piece(us, first, a, b, count, &lo, &hi))
                dl_rotate(buf, lo, us * rest, hi - lo);
        return;
    }
    /* the merge: the same rotations undone, last first */
    for (uint us = DL_PART_START((uint)((b - 1) / count));;
         us = DL_PART_START(us - 1)) {
        if (dl_piece(us, first, a, b, count, &lo, &hi))
            dl_rotate(buf, hi - us * rest, hi - lo, us * rest);
        if (us == first)
            break;
    }
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_tail_rotate(__global DL_WORD *buf, ulong count, uint groups)
{
    dl_tail_rotate_run(buf, count, groups, 0);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_tail_rotate_inverse(__global DL_WORD *buf, ulong count, uint groups)
{
    dl_tail_rotate_run(buf, count, groups, 1);
}

/* After dl_tail_rotate's split, range i (cuts e_i < e_(i+1)) ends with its
 * carry [head_i | tails of range i]: swapping, range by range, the tails
 * gathered so far (at the top of range i) with the head of range i + 1
 * moves the heads home and the tails, in order, to the end: DA(R).  The
 * merge makes the same swaps in the reverse order, before the rotation. */
inline __attribute__((always_inline)) void
dl_tail_fixup_run(__global DL_WORD *buf, ulong count, uint groups,
                  const int inv)
{
    ulong cuts[DL_TAIL_MAX_GROUPS + 1];
    dl_cuts(cuts, groups, count);
    const ulong total = count * DL_RW;
    for (uint i = 1; i < groups; i++) {
        const uint j = inv ? groups - i : i;
        const ulong e = cuts[j];
        if (e == cuts[j - 1] || e >= total)
            continue; /* no range ends here */
        uint n = j + 1; /* the next range's end */
        while (cuts[n] == e)
            n++;
        const ulong carry = dl_cut_carry(e, count);
        dl_swap_runs(buf, e - carry, cuts[n] - dl_cut_carry(cuts[n], count),
                     carry);
    }
}
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_tail_fixup(__global DL_WORD *buf, ulong count, uint groups)
{
    dl_tail_fixup_run(buf, count, groups, 0);
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void dl_tail_fixup_inverse(__global DL_WORD *buf, ulong count, uint groups)
{
    dl_tail_fixup_run(buf, count, groups, 1);
}
#endif
