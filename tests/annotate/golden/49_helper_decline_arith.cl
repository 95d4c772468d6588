// dla-args:
// declined: pointer arithmetic in the helper that is not (q + E)->f
struct rec { float a, b; };

static float walk2(__global struct rec *q)
{
    float s = 0.0f;
    for (int k = 0; k < 2; k++)
        s += (q + k)[0].a;
    return s;
}

__kernel void arith(__global struct rec *p, int n)
{
    int i = get_global_id(0);
    if (i + 1 < n)
        p[i].b = walk2(&p[i]);
}
