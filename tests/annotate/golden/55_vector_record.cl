// dla-args:
// a user record(...) on a float4 array, one field per float4 element:
// rewritten element by element

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
//DL: v1 aos: p[n][4] -> da
__kernel void k(__global float4 *p, int n)
{
#ifdef DL_ACTIVE_k
#ifdef DL_GLOBAL_END_k
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_k);
#endif
#ifndef DLA_PAD_k_p
#define DLA_PAD_k_p 0
#endif
const size_t dla_M_p = (size_t)(long)(n) + DLA_PAD_k_p;

    int i = get_global_id(0);
    if (i < n)
        (p)[1u * dla_M_p + (size_t)(i)] += (p)[3u * dla_M_p + (size_t)(i)];

#else

    int i = get_global_id(0);
    if (i < n)
        p[i * 4 + 1] += p[i * 4 + 3];

#endif
}
