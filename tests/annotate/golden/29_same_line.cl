// dla-args:
// the kernel starts on the line that defines its record
struct cell { float v; float w; }; 
//DL: v1 aos: c[n] record(size=8; 0:4, 4:4) -> da
__kernel void k(__global struct cell *c, int n) {
#ifdef DL_ACTIVE_k
const size_t dla_M_c = (size_t)(long)(n);
 int i = get_global_id(0); if (i < n) ((__global float *)((__global char *)(c) + 0u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(i)]; 
#else
 int i = get_global_id(0); if (i < n) c[i].v = c[i].w; 
#endif
}
