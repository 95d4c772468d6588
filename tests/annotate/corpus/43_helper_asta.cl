// dla-args: --layout asta --tile 8
// ASTA(T) through helpers: neighbours (q + 1)->f and q[1], an alias
// inside the helper, a whole-record copy; the count is annotated (the
// helper reads records next to the passed one)
typedef struct { float a; float b; int tag; } cell;

static float pair_sum(__global cell *q)
{
    __global cell *r = &q[1];
    return q->a + (q + 1)->b + r->a + q[1].b;
}

static void copy_to(__global cell *c, int from, int to)
{
    c[to] = c[from];
}

//DL: AoS: c[n + 1]
__kernel void smooth(__global cell *c, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        out[i] = pair_sum(&c[i]);
        if (c[i].tag == 7)
            copy_to(c, i + 1, i);
    }
}
