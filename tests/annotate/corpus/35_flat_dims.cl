// dla-args: --layout asta --tile 8
// flat ASTA only: dimension 1 of the range, and get_work_dim()
struct q { float a, b; };

__kernel void rows(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = (float)get_global_id(1);
}

__kernel void dims(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].b = (float)get_work_dim();
}
