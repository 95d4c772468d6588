// dla-args:
// helpers of the source: a record pointer (&p[i], p + i, an alias) and
// the base pointer with an index; a copy per kernel and argument, the
// original helpers untouched (two kernels use them)
struct particle { float x, y, vx, vy, e; };

float energy(__global const struct particle *q) { return q->vx*q->vx + q->vy*q->vy; }
float energy_at(__global const struct particle *p, int i) { return p[i].vx; }

static inline void push(__global struct particle *q, float dt)
{
    q->x += q->vx * dt;
    q->y += q->vy * dt;
}

__kernel void k(__global struct particle *p, int n)
{
    int i = get_global_id(0);
    if (i < n) p[i].e = energy(&p[i]) + energy_at(p, i);
}

__kernel void move(__global struct particle *b, float dt, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        __global struct particle *me = &b[i];
        push(me, dt);
        b[i].e = energy(b + i) + me->x;
    }
}
