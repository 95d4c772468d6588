// dla-args:
// (p + E)->f and p->f (record 0: not inferable, so annotated)
struct cell { int a; int b; };


#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards. */
#ifdef __clang__
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) >= (e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
//DL: v1 aos: c[n] record(size=8; 0:4, 4:4) -> da
__kernel void arrow(__global struct cell *c, int n)
{
#ifdef DL_ACTIVE_arrow
#ifdef DL_GLOBAL_END_arrow
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_arrow);
#endif
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
