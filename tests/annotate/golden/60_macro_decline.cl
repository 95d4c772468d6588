// dla-args:
// a macro whose expansion holds more than the access: its invocation
// cannot be rewritten as the access, the array keeps its layout
#define SCALED(g, i) ((g)[i] * 2.0f)

// DL: AoS: f[n][2]
__kernel void scale(__global float *f, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    f[2 * i + 1] = SCALED(f, 2 * i);
}
