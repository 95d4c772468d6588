// dla-args:
// accesses written inside macros' arguments, as published kernels do:
// as_uint(g[...]) (as_uint is a macro of clang's opencl-c-base.h) and a
// macro of the source around a field, an index macro in as_uint's
// argument; the argument's text is rewritten
#define HALF(x) ((x) * 0.5f)
#define IDX(i, k) ((i) * 4 + (k))
#define IS_SET(w, bit) (((w) >> (bit)) & 1u)

struct body { float m; float v; uint flags; };

// DL: AoS: w[n][4]
__kernel void weigh(__global float *w, __global struct body *b, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    uint word = as_uint(w[4 * i + 3]);
    word ^= as_uint(w[IDX(i, 2)]);
    if (IS_SET(as_uint(b[i].flags), 2))
        w[4 * i] = HALF(b[i].m) + HALF(w[i * 4 + 1]);
    b[i].v = HALF(as_float(word));
}
