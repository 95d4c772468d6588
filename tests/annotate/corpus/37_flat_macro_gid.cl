// dla-args: --layout asta --tile 8
// flat ASTA only: get_global_id(0) comes from a macro, whose text cannot
// be rewritten for the tiled range
struct q { float a, b; };
#define GID ((int)get_global_id(0))

__kernel void via_macro(__global struct q *p, int n)
{
    int i = GID;
    if (i < n)
        p[i].a += p[i].b;
}
