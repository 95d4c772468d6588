// dla-args: --layout asta --tile 8
// flat ASTA only: the record count names the work-group shape
struct q { float a, b; };

//DL: AoS: p[num_groups(0) * local_size(0)]
__kernel void grouped(__global struct q *p)
{
    size_t i = get_global_id(0);
    p[i].a = p[i].b;
}
