// dla-args: --layout asta --tile 8
// flat ASTA only: a function of the source could use the range
struct q { float a, b; };

static float lane_weight(void) { return (float)get_local_id(0); }

__kernel void weigh(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = p[i].b * lane_weight();
}
