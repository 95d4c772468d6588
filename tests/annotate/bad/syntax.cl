struct foo { float a; };

__kernel void k(__global struct foo *p, int n)
{
    int i = get_global_id(0)
    if (i < n)
        p[i].a = 1.0f;
}
