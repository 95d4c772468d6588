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
#ifndef DLA_LAYOUT_CHECK
/* dl-annotate: the transformed branch checks that the record is laid out as
 * when the file was annotated (a -D option may change it): a mismatch fails
 * the activated build, and the runtime runs the program as written. */
#define DLA_LAYOUT_CHECK(c, name) typedef char name[(c) ? 1 : -1]
#if defined(__clang__) || defined(__GNUC__)
#define DLA_OFFSETOF(T, f) __builtin_offsetof(T, f)
#else
#define DLA_OFFSETOF(T, f) ((size_t) & ((T *)0)->f)
#endif
#endif
//DL: v1 aos: c[n] record(size=8; 0:4, 4:4) -> da
__kernel void arrow(__global struct cell *c, int n)
{
#ifdef DL_ACTIVE_arrow
DLA_LAYOUT_CHECK(sizeof(*c) == 8u, dla_layout_c_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, a) == 0u, dla_layout_c_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->a) == 4u, dla_layout_c_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, b) == 4u, dla_layout_c_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->b) == 4u, dla_layout_c_b_size_4);
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
