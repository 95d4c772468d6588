// dla-args: --layout da
// p[i].f, the count from the guard `if (i < n)`
struct particle { float x, y, z; float mass; };

__kernel void scale(__global struct particle *p, float s, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].x *= s;
        p[i].y *= s;
        p[i].z = p[i].z * s + p[i].mass;
    }
}
