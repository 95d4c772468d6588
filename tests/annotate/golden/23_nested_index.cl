// dla-args:
// an index that reads another transformed record
struct node { int next; float val; };


//DL: v1 aos: nodes[n] record(size=8; 0:4, 4:4) -> da
__kernel void hop(__global struct node *nodes, __global float *out, int n)
{
#ifdef DL_ACTIVE_hop
const size_t dla_M_nodes = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        out[i] = ((__global float *)((__global char *)(nodes) + 4u * dla_M_nodes))[(size_t)(((__global int *)((__global char *)(nodes) + 0u * dla_M_nodes))[(size_t)(i)])];

#else

    int i = get_global_id(0);
    if (i < n)
        out[i] = nodes[nodes[i].next].val;

#endif
}
