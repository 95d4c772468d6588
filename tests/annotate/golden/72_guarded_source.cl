// dla-args: --layout da
// a kernel file wrapped whole in an include guard, the sizes defined
// inside it: the guard is always entered by the program's one build, so
// the runtime reads BLOCKS and SLOTS as if they stood at the top level
#ifndef SWEEP_KERNEL_CL
#define SWEEP_KERNEL_CL

#define BLOCKS 48
#define SLOTS  (BLOCKS * 2 + 1)


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
//DL: v1 aos: w[SLOTS][4] -> da
__kernel void sweep(__global float *w, float gain)
{
#ifdef DL_ACTIVE_sweep
#ifdef DL_GLOBAL_END_sweep
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_sweep);
#endif
#ifndef DLA_PAD_sweep_w
#define DLA_PAD_sweep_w 0
#endif
const size_t dla_M_w = (size_t)(long)(SLOTS) + DLA_PAD_sweep_w;

    int s = get_global_id(0);
    (w)[2u * dla_M_w + (size_t)(s)] = (w)[0u * dla_M_w + (size_t)(s)] * gain + (w)[3u * dla_M_w + (size_t)(s)];

#else

    int s = get_global_id(0);
    w[4 * s + 2] = w[4 * s] * gain + w[4 * s + 3];

#endif
}

#endif /* SWEEP_KERNEL_CL */
