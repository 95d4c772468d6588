// dla-args:
// declined: records and raw words (a cast)
struct foo { float a, b; };

__kernel void k(__global struct foo *p, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].a = 1.0f;
        ((__global float *)p)[2 * i + 1] = 2.0f;
    }
}
