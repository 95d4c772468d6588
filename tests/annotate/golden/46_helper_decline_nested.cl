// dla-args:
// declined: the helper passes the pointer on to another helper
struct rec { float a, b; };

static float first(__global const struct rec *q) { return q->a; }
static float both(__global const struct rec *q) { return first(q) + q->b; }

__kernel void nest(__global struct rec *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].b = both(&p[i]);
}
