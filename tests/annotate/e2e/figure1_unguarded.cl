/* figure1_unguarded.cl - the `figure1` kernel without a guard: the record
 * count is the range itself, so a range that is no multiple of the tile
 * cannot be padded and the runtime runs the flat ASTA form instead. */
struct sample {
    float a, b, c, d, e, f, g, h;
};

__kernel void update(__global struct sample *p, float w, int n)
{
    size_t i = get_global_id(0);
    float sum = p[i].a + p[i].b + p[i].c + p[i].d;
    p[i].a = sum * w;
    p[i].b += p[i].e * w;
    p[i].c -= p[i].f * w;
    p[i].d = p[i].g * p[i].h;
    p[i].h = sum - p[i].e + (float)(n & 1);
}
