// dla-args: --layout asta --tile 4
// float4 fields and p[i].v.x
typedef struct { float4 pos; float4 vel; float w; } point_t;

__kernel void move(__global point_t *p, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].pos += p[i].vel * p[i].w;
        p[i].vel.x = -p[i].vel.x;
    }
}
