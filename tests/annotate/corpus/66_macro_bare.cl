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

// DL: AoS: src[n + 1][4]
// DL: AoS: dst[n + 1][4]
// DL: AoS: bad[n][4]
__kernel void stream(__global const float *src, __global float *dst,
                     __global float *bad, int n)
{
    int cell = get_global_id(0);
    if (cell >= n || (as_uint(LOCAL(src, FLAGS)) & 1u))
        return;
    DST_N(dst) = SRC_C(src) + BARE(src, 4 * cell + S);
    bad[4 * cell] = SCALED(bad, 4 * cell + 1);
}
