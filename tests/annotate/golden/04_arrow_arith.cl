// dla-args:
// (p + E)->f and p->f (record 0: not inferable, so annotated)
struct cell { int a; int b; };


//DL: v1 aos: c[n] record(size=8; 0:4, 4:4) -> da
__kernel void arrow(__global struct cell *c, int n)
{
#ifdef DL_ACTIVE_arrow
const size_t dla_M_c = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n && i > 0)
        ((__global int *)((__global char *)(c) + 0u * dla_M_c))[(size_t)(i)] = ((__global int *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(i)] + ((__global int *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(0)];

#else

    int i = get_global_id(0);
    if (i < n && i > 0)
        (c + i)->a = (c + i)->b + c->b;

#endif
}
