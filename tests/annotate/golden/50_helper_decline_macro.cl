// dla-args:
// declined: the helper is called through a macro
struct rec { float a, b; };

static float get_a(__global const struct rec *q) { return q->a; }
#define GET_A(r) get_a(r)

__kernel void viamacro(__global struct rec *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].b = GET_A(&p[i]);
}
