// dla-args:
// two kernels and a helper: one rewritten, one declined, one untouched
struct s { float a; float b; };

static float twice(float x) { return 2.0f * x; }

__kernel void good(__global struct s *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = twice(p[i].b);
}

__kernel void bad(__global struct s *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i + 1].a = 0.0f;
}

__kernel void plain(__global float *x)
{
    x[get_global_id(0)] = 0.0f;
}
