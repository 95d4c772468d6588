// dla-args: --layout da -I include
// dla-build: -I include -DCELLS=64
// the macros that make the accesses come from a header (-I), as
// Parboil's lbm_macros.h; the count names a build-option macro
#include "lattice.h"



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
#ifndef DLA_FDIV
/* dl-annotate: an array moved by `p += C`: element k + C of record r is
 * record r + DLA_FDIV(k + C, K), element DLA_FMOD(k + C, K) (floor division). */
#define DLA_FDIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - 1) / (s)))
#define DLA_FMOD(x, s) ((x) - DLA_FDIV(x, s) * (s))
#endif
//DL: v1 aos: src[CELLS + 4][4] -> da
//DL: v1 aos: dst[CELLS + 4][4] -> da
__kernel void stream(__global const float *src, __global float *dst)
{
#ifdef DL_ACTIVE_stream
#ifdef DL_GLOBAL_END_stream
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_stream);
#endif
#ifndef DLA_PAD_stream_src
#define DLA_PAD_stream_src 0
#endif
const size_t dla_M_src = (size_t)((long)(CELLS) + 4L) + DLA_PAD_stream_src;
#ifndef DLA_PAD_stream_dst
#define DLA_PAD_stream_dst 0
#endif
const size_t dla_M_dst = (size_t)((long)(CELLS) + 4L) + DLA_PAD_stream_dst;

    (void)0;
    (void)0;
    int cell = get_global_id(0);
    if (as_uint((src)[(size_t)DLA_FMOD(((long)3u + (long)(MARGIN)), 4L) * dla_M_src + ((size_t)(((&(LOCAL(src, FLAGS)) - (src)) - 3L) / 4L) + (size_t)DLA_FDIV(((long)3u + (long)(MARGIN)), 4L))]) & 1u)
        return;
    (dst)[(size_t)DLA_FMOD(((long)1u + (long)(MARGIN)), 4L) * dla_M_dst + ((size_t)(((&(DST_N(dst)) - (dst)) - 1L) / 4L) + (size_t)DLA_FDIV(((long)1u + (long)(MARGIN)), 4L))] = (src)[(size_t)DLA_FMOD(((long)1u + (long)(MARGIN)), 4L) * dla_M_src + ((size_t)(((&(SRC_N(src)) - (src)) - 1L) / 4L) + (size_t)DLA_FDIV(((long)1u + (long)(MARGIN)), 4L))];
    (dst)[(size_t)DLA_FMOD(((long)0u + (long)(MARGIN)), 4L) * dla_M_dst + ((size_t)(((&(DST_C(dst)) - (dst)) - 0L) / 4L) + (size_t)DLA_FDIV(((long)0u + (long)(MARGIN)), 4L))] = (src)[(size_t)DLA_FMOD(((long)0u + (long)(MARGIN)), 4L) * dla_M_src + ((size_t)(((&(SRC_C(src)) - (src)) - 0L) / 4L) + (size_t)DLA_FDIV(((long)0u + (long)(MARGIN)), 4L))];

#else

    src += MARGIN;
    dst += MARGIN;
    int cell = get_global_id(0);
    if (as_uint(LOCAL(src, FLAGS)) & 1u)
        return;
    DST_N(dst) = SRC_N(src);
    DST_C(dst) = SRC_C(src);

#endif
}
