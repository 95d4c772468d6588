// dla-args: --layout asta --tile 8
// flat ASTA only: a required work-group size
struct q { float a, b; };

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void fixed(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a -= p[i].b;
}
