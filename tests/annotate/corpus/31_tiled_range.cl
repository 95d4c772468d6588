// dla-args: --layout asta --tile 4
// tiled launch without padding: no guard (the count is the range), and
// get_global_size(0) / get_global_offset(0) read from the 2-D range
struct cell { float v; float w; };

__kernel void ramp(__global struct cell *c)
{
    size_t i = get_global_id(0);
    float span = (float)get_global_size(0);
    c[i].v = (float)(i - get_global_offset(0)) / span;
    c[i].w += c[i].v;
}
