/* transpose_oop.cl - out-of-place conversion between any two layouts of
 * the family (a baseline for dl-bench, and the fallback when nothing in
 * place fits).  The runtime first copies the buffer to `src`; each
 * work-item then gathers one destination word.
 * Specialisation: DL_FROM_TILE and DL_TO_TILE (effective tiles).
 */
__kernel void dl_oop(__global DL_WORD *dst, __global const DL_WORD *src,
                     ulong count)
{
    /* One word per work-item: grid-stride loops were ~10x slower on POCL. */
    ulong d = get_global_id(0);
    if (d >= count * DL_RW)
        return;
    ulong i;
    uint u;
    dl_word_decode(d, DL_TO_TILE, count, &i, &u);
    dst[d] = src[dl_word_index(i, u, DL_FROM_TILE, count)];
}
