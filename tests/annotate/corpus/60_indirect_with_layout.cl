// dla-args: --layout da
// a kernel whose record argument is rewritten (DA) and which also reads
// another array through an index buffer: both annotations, the indirect
// one after the layout's
struct particle { float x, y, z; float mass; };

__kernel void pull(__global struct particle *p, __global const float *f,
                   __global const int *nbr, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].x += f[nbr[i]] * p[i].mass;
}
