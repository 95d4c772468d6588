// dla-args: --layout asta --tile 8
// flat ASTA only: local ids, group ids and local sizes tie a work-item to
// its work-group, which a tiled launch changes
struct q { float a, b; };

__kernel void by_local(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = p[i].b + (float)get_local_id(0);
}

__kernel void by_group(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].b = (float)(get_group_id(0) * get_local_size(0));
}
