// dla-args:
// an index that reads another transformed record
struct node { int next; float val; };

//DL: AoS: nodes[n]
__kernel void hop(__global struct node *nodes, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = nodes[nodes[i].next].val;
}
