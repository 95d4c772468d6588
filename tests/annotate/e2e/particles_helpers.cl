/* particles_helpers.cl - the `particles` case of dla-e2e-host with its
 * record accessed through helper functions of the source: a record
 * pointer (&p[i], p + i), the base pointer with an index, a whole-record
 * copy inside a helper, and an alias inside a helper.  dl-annotate gives
 * the transformed branch a copy of each helper. */
struct particle {
    float4 pos;
    float4 vel;
    float mass;
    int id;
    char tag; /* 7 bytes of padding follow */
};

static void drift(__global struct particle *q, float dt)
{
    q->pos += q->vel * dt;
}

static float weight(__global const struct particle *q)
{
    return q->mass * 9.8f;
}

static void retag(__global struct particle *p, int i)
{
    struct particle r = p[i];
    r.id += (int)r.tag;
    r.tag = (char)(r.id & 0x3f);
    p[i] = r;
}

static void fall(__global struct particle *base, int i, float dt)
{
    __global struct particle *q = &base[i];
    q->vel.y -= dt * q->mass * 9.8f;
}

__kernel void advance(__global struct particle *p, float dt, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        drift(&p[i], dt);
        fall(p, i, dt * 0.5f);
        p[i].vel.x += dt * weight(p + i) * 0.001f;
        retag(p, i);
    }
}
