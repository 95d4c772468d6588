// dla-args: --layout da
// pointers moved once past a margin, first thing, by a constant: the
// records of a struct and the elements of an array (a move that is no
// multiple of the record: element k + C of record r is split again)
#define MARGIN 16

struct cell { float a; float b; };

// DL: AoS: c[n + 16]
// DL: AoS: g[n + 1][8]
__kernel void shift(__global struct cell *c, __global float *g, int n)
{
    c += MARGIN;
    g -= -3;
    int i = get_global_id(0);
    if (i >= n)
        return;
    c[i].a = c[i - 1].b + c->a;
    for (int k = 0; k < 4; k++)
        g[8 * i + k] = g[8 * i + k + 4] + g[i];
}
