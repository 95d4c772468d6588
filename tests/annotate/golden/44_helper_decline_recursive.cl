// dla-args:
// declined: the helper calls itself
struct node { float v; int next; };

static float chain(__global struct node *p, int i, int depth)
{
    if (depth == 0)
        return p[i].v;
    return p[i].v + chain(p, p[i].next, depth - 1);
}

__kernel void walk(__global struct node *p, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = p[i].v;
    if (i < n && out[i] > 1e30f)
        out[i] = chain(p, i, 0);
}
