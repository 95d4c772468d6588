// dla-args: --layout asta --tile 16
// accesses that function-like macros make from their arguments, in the
// style of Parboil's LBM: `SRC_W(g)` expands to ((g)[CALC(...)]), the
// invocation is rewritten and its index read as &(SRC_W(g)) - g; a
// constant element splits the index, another is divided by the stride
typedef enum { RHO = 0, MX, MY, WALL, N_SLOTS } slot;
#define CALC(cell, e) (e + N_SLOTS * (cell))
#define LOCAL(g, e) ((g)[CALC(me, e)])
#define AT(g, i) ((g)[i])
#define SRC_RHO(g) (LOCAL(g, RHO))
#define SRC_W(g) (LOCAL(g, MX))
#define DST_W(g) ((g)[CALC(me + 1, MX)])

// DL: AoS: src[n + 1][4]
// DL: AoS: dst[n + 1][4]
__kernel void push(__global const float *src, __global float *dst, int n)
{
    int me = get_global_id(0);
    if (me >= n)
        return;
    float rho = SRC_RHO(src), w = SRC_W(src);
    if (as_uint(LOCAL(src, WALL)) & 1u)
        w = -w;
    DST_W(dst) = w * rho;
    AT(dst, 4 * me + MY) = AT(src, me * 4 + (int)(rho > 1.0f));
}
