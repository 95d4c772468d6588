// dla-args: --layout da
// a kernel file wrapped whole in an include guard, the sizes defined
// inside it: the guard is always entered by the program's one build, so
// the runtime reads BLOCKS and SLOTS as if they stood at the top level
#ifndef SWEEP_KERNEL_CL
#define SWEEP_KERNEL_CL

#define BLOCKS 48
#define SLOTS  (BLOCKS * 2 + 1)

// DL: AoS: w[SLOTS][4]
__kernel void sweep(__global float *w, float gain)
{
    int s = get_global_id(0);
    w[4 * s + 2] = w[4 * s] * gain + w[4 * s + 3];
}

#endif /* SWEEP_KERNEL_CL */
