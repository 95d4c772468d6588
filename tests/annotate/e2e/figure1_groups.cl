/* figure1_groups.cl - the `figure1` kernel with its record index made of
 * the work-group and the local id, as Parboil's LBM makes its cell index:
 * dl-annotate writes no tiled launch for it, so its ASTA variant can only
 * use the flat index (under DL_POLICY=auto on a CPU device the runtime
 * keeps it as written, rt_decide.c). */
struct sample {
    float a, b, c, d, e, f, g, h;
};

__kernel void update(__global struct sample *p, float w, int n)
{
    size_t i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    float sum = p[i].a + p[i].b + p[i].c + p[i].d;
    p[i].a = sum * w;
    p[i].b += p[i].e * w;
    p[i].c -= p[i].f * w;
    p[i].d = p[i].g * p[i].h;
    p[i].h = sum - p[i].e + (float)(n & 1);
}
