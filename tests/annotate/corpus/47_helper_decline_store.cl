// dla-args:
// declined: the helper stores the pointer in a variable
struct rec { float a, b; };

static float keep(__global struct rec *q)
{
    __global struct rec *saved;
    saved = q;
    return saved->a;
}

__kernel void store(__global struct rec *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].b = keep(&p[i]);
}
