/* permute.cl - the permutation layout (docs/irregular.md, "The
 * permutation as a buffer layout"): A'[pi[x]] = A[x] in place, by cycle
 * following, and the redirection of an index array's values, P'[i] =
 * map[P[i]].
 *
 * The host (runtime/irregular/permute.c) lists the cycles of pi one after
 * another in `order` (order[k + 1] = pi[order[k]] inside a cycle) and cuts
 * each into segments of at most a few hundred elements, so that a cycle
 * as long as A (a random permutation has one) is not walked by one
 * work-item.  A segment is (first, len, after): it moves the elements at
 * order[first .. first + len) one step along the cycle; the last of them
 * lands on order[after], the first element of the next segment (wrapping
 * to the cycle's start).  Two launches make the segments independent:
 *   dl_perm_save   saved[j] = A[order[first_j]], every segment's first
 *                  element, before anything moves;
 *   dl_perm_shift  each segment, from its end back to its start, moves
 *                  A[order[k]] to A[order[k + 1]], and its saved first
 *                  element to A[order[first + 1]].
 * Segment j writes order[first_j + 1 .. after_j] and reads only its own
 * order[first_j + 1 .. first_j + len) (before it overwrites them) and
 * saved[j]: no two work-items touch the same element.
 *
 * The runtime prepends, after common.cl's names (DL_WORD, DL_RW,
 * DL_UNIFORM 1):
 *   DL_WORD    the moved word: the widest of 1..16 bytes dividing the element
 *   DL_RW      words of one element
 *   DL_INDEX   int or long: P's entries (dl_perm_redirect)
 *   DL_RUN     entries of P per work-item (dl_perm_redirect) */

inline void dl_perm_copy(__global DL_WORD *dst, __global const DL_WORD *src)
{
    for (uint w = 0; w < DL_RW; w++)
        dst[w] = src[w];
}

__kernel void dl_perm_save(__global const DL_WORD *restrict a,
                           __global const uint *restrict order,
                           __global const uint *restrict seg,
                           __global DL_WORD *restrict saved,
                           const ulong segments)
{
    const ulong j = get_global_id(0);
    if (j >= segments)
        return;
    const ulong x = order[seg[3 * j]];
    dl_perm_copy(saved + j * DL_RW, a + x * DL_RW);
}

/* `a` is read and written by the same work-item only (see above). */
__kernel void dl_perm_shift(__global DL_WORD *a,
                            __global const uint *restrict order,
                            __global const uint *restrict seg,
                            __global const DL_WORD *restrict saved,
                            const ulong segments)
{
    const ulong j = get_global_id(0);
    if (j >= segments)
        return;
    const uint first = seg[3 * j], len = seg[3 * j + 1];
    const uint after = seg[3 * j + 2];
    ulong dst = order[after];
    for (uint k = len - 1; k > 0; k--) {
        const ulong src = order[first + k];
        dl_perm_copy(a + dst * DL_RW, a + src * DL_RW);
        dst = src;
    }
    dl_perm_copy(a + dst * DL_RW, saved + j * DL_RW);
}

/* P[i] = map[P[i]] for the entries whose value lies in [0, n); the others
 * (which the program's kernel would read out of A's bounds) stay as they
 * are, so that redirecting back restores them bit for bit. */
__kernel void dl_perm_redirect(__global DL_INDEX *restrict p,
                               __global const uint *restrict map,
                               const ulong count, const ulong n)
{
    const ulong g0 = get_global_id(0) * DL_RUN;
    for (ulong i = g0; i < g0 + DL_RUN && i < count; i++) {
        const long v = (long)p[i];
        if (v >= 0 && (ulong)v < n)
            p[i] = (DL_INDEX)map[v];
    }
}
