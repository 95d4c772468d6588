/* figure1.cl - kernel of dla-e2e-host's `figure1` case: the DL paper's
 * Figure 1 pattern, records of S = 8 floats where each work-item reads
 * and writes only its own record.  The guard makes padding safe, so
 * dl-annotate marks it `launch: tiled(n)` and the runtime may pad a range
 * that is no multiple of the tile. */
struct sample {
    float a, b, c, d, e, f, g, h;
};

__kernel void update(__global struct sample *p, float w, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float sum = p[i].a + p[i].b + p[i].c + p[i].d;
        p[i].a = sum * w;
        p[i].b += p[i].e * w;
        p[i].c -= p[i].f * w;
        p[i].d = p[i].g * p[i].h;
        p[i].h = sum - p[i].e;
    }
}
