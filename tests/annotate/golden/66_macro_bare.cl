// dla-args: --layout da
// access macros that do not parenthesize their pointer argument, as
// Parboil's LOCAL(g,e) (g[CALC_INDEX(...)]): the access begins in the
// argument; a bare `g[i]` body; and one that scales the access, whose
// expansion holds more than the access (declined, no garbage text)
typedef enum { C = 0, N, S, FLAGS, N_CELL_ENTRIES } CELL_ENTRIES;
#define CALC_INDEX(x, e) ( e + N_CELL_ENTRIES*\
                           (x) )
#define LOCAL(g, e) (g[CALC_INDEX(cell, e)])
#define NEIGHBOR(g, e, d) (g[CALC_INDEX(cell + (d), e)])
#define SRC_C(g) (LOCAL(g, C))
#define DST_N(g) (NEIGHBOR(g, N, +1))
#define BARE(g, i) g[i]
#define SCALED(g, i) (g[i] * 2.0f)



// DL: AoS: bad[n][4]
#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards.
 * The ids are bounded as ints (as in `int x = get_global_id(0)`): with an
 * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, which POCL's
 * vectoriser turns into gathers and scatters. */
#ifdef __clang__
#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && (int)get_global_id(d) >= (int)(e))
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
//DL: v1 aos: src[n + 1][4] -> da
//DL: v1 aos: dst[n + 1][4] -> da
__kernel void stream(__global const float *src, __global float *dst,
                     __global float *bad, int n)
{
#ifdef DL_ACTIVE_stream
#ifdef DL_GLOBAL_END_stream
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_stream);
#endif
#ifndef DLA_PAD_stream_src
#define DLA_PAD_stream_src 0
#endif
const size_t dla_M_src = (size_t)((long)(n) + 1L) + DLA_PAD_stream_src;
#ifndef DLA_PAD_stream_dst
#define DLA_PAD_stream_dst 0
#endif
const size_t dla_M_dst = (size_t)((long)(n) + 1L) + DLA_PAD_stream_dst;

    int cell = get_global_id(0);
    if (cell >= n || (as_uint((src)[3u * dla_M_src + (size_t)(((&(LOCAL(src, FLAGS)) - (src)) - 3L) / 4L)]) & 1u))
        return;
    (dst)[1u * dla_M_dst + (size_t)(((&(DST_N(dst)) - (dst)) - 1L) / 4L)] = (src)[0u * dla_M_src + (size_t)(((&(SRC_C(src)) - (src)) - 0L) / 4L)] + (src)[2u * dla_M_src + (size_t)(((&(BARE(src, 4 * cell + S)) - (src)) - 2L) / 4L)];
    bad[4 * cell] = SCALED(bad, 4 * cell + 1);

#else

    int cell = get_global_id(0);
    if (cell >= n || (as_uint(LOCAL(src, FLAGS)) & 1u))
        return;
    DST_N(dst) = SRC_C(src) + BARE(src, 4 * cell + S);
    bad[4 * cell] = SCALED(bad, 4 * cell + 1);

#endif
}
