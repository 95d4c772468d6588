// dla-args:
// &p[E] bound to a private pointer, then q->f
struct body { float px, py; float vx, vy; };

__kernel void step(__global struct body *b, float dt, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        __global struct body *q = &b[i];
        q->px += q->vx * dt;
        q->py += q->vy * dt;
    }
}
