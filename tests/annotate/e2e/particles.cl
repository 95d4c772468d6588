/* particles.cl - kernel of dla-e2e-host's `particles` case: a record with
 * vector fields, mixed sizes and padding, accessed through a private
 * pointer, as fields, and as whole records. */
struct particle {
    float4 pos;
    float4 vel;
    float mass;
    int id;
    char tag; /* 7 bytes of padding follow */
};

__kernel void advance(__global struct particle *p, float dt, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        __global struct particle *q = &p[i];
        q->pos += q->vel * dt;
        p[i].vel.y -= 9.8f * dt * p[i].mass;
        struct particle r = p[i];
        r.id += (int)r.tag;
        r.tag = (char)(r.id & 0x3f);
        p[i] = r;
    }
}
