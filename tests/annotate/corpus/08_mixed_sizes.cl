// dla-args: --layout asta --tile 16
// fields of mixed sizes with padding gaps
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
struct rec { char tag; double value; short count; int id; };

__kernel void bump(__global struct rec *r, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        r[i].value += (double)r[i].count;
        r[i].tag = (char)(r[i].id & 0x7f);
    }
}
