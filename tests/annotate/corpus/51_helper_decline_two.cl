// dla-args:
// declined: one call passes two record pointers; the helper is defined
// after the kernel (a prototype before it)
struct rec { float a, b; };

static float dist(__global const struct rec *x, __global const struct rec *y)
{
    return x->a - y->a;
}
float later(__global const struct rec *q);

__kernel void two(__global struct rec *p, __global struct rec *o, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].b = dist(&p[i], &p[0]);
        o[i].b = later(&o[i]);
    }
}

float later(__global const struct rec *q) { return q->a; }
