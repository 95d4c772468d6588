// dla-args:
// the kernel starts on the line that defines its record
struct cell { float v; float w; }; __kernel void k(__global struct cell *c, int n) { int i = get_global_id(0); if (i < n) c[i].v = c[i].w; }
