// dla-args:
// declined: a neighbour index gives no count; an index with side effects
struct foo { float a, b; };

__kernel void shift(__global struct foo *p, int n)
{
    int i = get_global_id(0);
    if (i + 1 < n)
        p[i].a = p[i + 1].b;
}

//DL: AoS: q[n]
__kernel void bump(__global struct foo *q, int n)
{
    int i = get_global_id(0);
    if (i < n)
        q[i++].a = 1.0f;
}
