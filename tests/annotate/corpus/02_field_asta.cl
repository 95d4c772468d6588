// dla-args: --layout asta --tile 8
// p[i].f rewritten for ASTA(8): per-tile index with the tail width
struct particle { float x, y, z; float mass; };

__kernel void scale(__global struct particle *p, float s, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].x *= s;
        p[i].mass = p[i].y + p[i].z;
    }
}
