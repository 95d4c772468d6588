// dla-args: -DNE=4
// dla-build: -DNE=4
// a count that names a macro the source defines (Parboil's sizes live in
// layout_config.h): the runtime reads only the build options' macros, so
// dl-annotate rewrites the kernel and warns; NE, given with -D, is fine
#define CELLS 64

// DL: AoS: f[CELLS][4]
// DL: AoS: g[NE * 16][4]
__kernel void relax(__global float *f, __global float *g)
{
    int c = get_global_id(0);
    f[4 * c + 1] = f[4 * c] * 0.5f;
    g[4 * c + 2] = g[c * 4 + 3];
}
