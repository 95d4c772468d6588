// dla-args:
// two kernels and a helper: one rewritten, one declined, one untouched
struct s { float a; float b; };

static float twice(float x) { return 2.0f * x; }

//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> da
__kernel void good(__global struct s *p, int n)
{
#ifdef DL_ACTIVE_good
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(size_t)(i)] = twice(((__global float *)((__global char *)(p) + 4u * dla_M_p))[(size_t)(i)]);

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].a = twice(p[i].b);

#endif
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
