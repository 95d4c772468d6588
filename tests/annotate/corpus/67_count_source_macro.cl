// dla-args: -DNE=4
// dla-build: -DNE=4
// counts that name macros the source defines (Parboil's sizes, when its
// layout_config.h is pasted in): the runtime reads the source's #define
// lines, so CELLS is fine, as is NE, given with -D; ROWS, defined in both
// branches of an #ifdef, is not: dl-annotate rewrites the kernel and warns
#define CELLS 64
#ifdef BIG
#define ROWS 128
#else
#define ROWS 64
#endif

// DL: AoS: f[CELLS][4]
// DL: AoS: g[NE * 16][4]
// DL: AoS: h[ROWS][4]
__kernel void relax(__global float *f, __global float *g, __global float *h)
{
    int c = get_global_id(0);
    f[4 * c + 1] = f[4 * c] * 0.5f;
    g[4 * c + 2] = g[c * 4 + 3];
    h[4 * c] = h[4 * c + 1];
}
