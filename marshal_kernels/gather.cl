/* gather.cl - reordering with index redirection (docs/irregular.md):
 *
 *     A'[e] = A[P[e] + c]   for every e of a reference's index range,
 *
 * so that the kernel's variant reads A'[e], consecutive for consecutive
 * work-items, instead of A[P[e] + c] (the duplication of 000, section 3.1; 004, section 4).
 * Each work-item handles DL_RUN consecutive entries e of [first, first +
 * span): 1 on GPUs, so that a warp's lanes read neighbouring entries; a
 * long run on CPUs, in work-groups of one, so that each core walks its
 * run with scalar loads the prefetcher follows (POCL's vectorised gather
 * across work-items was 4-5x slower here).  A' has A's stride, and only
 * the bytes the reference reads (its field) are written.
 *
 * The runtime (runtime/irregular/gather.c) prepends, after common.cl's
 * names (DL_WORD, DL_RW, DL_UNIFORM 1):
 *   DL_WORD        the moved word: the widest of 1..16 bytes that divides
 *                  the element, the field's offset and its size
 *   DL_RW          words of the field: the words each work-item moves
 *   DL_ELEM_WORDS  words of one element (the stride of A and A')
 *   DL_FIELD_WORD  the field's first word inside the element
 *   DL_INDEX       int or long: P's entries
 *   DL_DENSE       1 when every e of the span is used (no membership test)
 *   DL_RUN         entries per work-item
 *
 * An entry whose element P[e] + c lies outside A (p_lo <= P[e] <= p_hi
 * fails; the host computes the bounds without overflow) is never read:
 * A'[e]'s field is set to zero bytes.  The original kernel would have read
 * out of bounds there, which OpenCL leaves undefined. */

#if !DL_DENSE
/* Whether r = t * s1 + j * s2 for some t < n1, j < n2: is entry base + r
 * one the work-items read?  n2 is the shorter dimension (the host swaps);
 * j starts where t * s1 can still reach r. */
inline bool dl_gather_used(ulong r, ulong n1, ulong s1, ulong n2, ulong s2)
{
    const ulong reach = (n1 - 1) * s1; /* within P: no overflow */
    ulong j = s2 && r > reach ? (r - reach + s2 - 1) / s2 : 0;
    for (; j < n2; j++) {
        if (j * s2 > r)
            return false;
        ulong rest = r - j * s2;
        if (s1 == 0 ? rest == 0 : rest % s1 == 0 && rest / s1 < n1)
            return true;
    }
    return false;
}
#endif

/* A'[e] = A[P[e] + c] for one entry e, or zero bytes outside A.  (No
 * `restrict` here: oclgrind cannot run the scope declarations that
 * inlining restrict parameters leaves.) */
inline void dl_gather_one(__global const DL_WORD *a,
                          __global const DL_INDEX *p,
                          __global DL_WORD *a_prime, const ulong e,
                          const long p_lo, const long p_hi, const long c)
{
    const long v = (long)p[e];
    __global DL_WORD *dst = a_prime + e * DL_ELEM_WORDS + DL_FIELD_WORD;
    if (v >= p_lo && v <= p_hi) {
        /* In two's complement the sum is the element, in [0, |A|). */
        const ulong i = (ulong)v + (ulong)c;
        __global const DL_WORD *src = a + i * DL_ELEM_WORDS + DL_FIELD_WORD;
        for (uint w = 0; w < DL_RW; w++)
            dst[w] = src[w];
    } else {
        for (uint w = 0; w < DL_RW; w++)
            dst[w] = (DL_WORD)(0);
    }
}

__kernel void dl_gather(__global const DL_WORD *restrict a,
                        __global const DL_INDEX *restrict p,
                        __global DL_WORD *restrict a_prime,
                        const ulong first, const ulong span,
                        const long p_lo, const long p_hi, const long c,
                        const ulong n1, const ulong s1, const ulong n2,
                        const ulong s2, const ulong base)
{
    const ulong g0 = get_global_id(0) * DL_RUN;
    for (ulong g = g0; g < g0 + DL_RUN && g < span; g++) {
        const ulong e = first + g;
#if !DL_DENSE
        if (!dl_gather_used(e - base, n1, s1, n2, s2))
            continue;
#endif
        dl_gather_one(a, p, a_prime, e, p_lo, p_hi, c);
    }
}
