// dla-args: --layout asta --tile 8
// flat ASTA only: a barrier synchronises a work-group
struct q { float a, b; };

__kernel void sync_step(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a *= 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        p[i].b += p[i].a;
}
