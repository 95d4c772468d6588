// dla-args:
// (p + E)->f and p->f (record 0: not inferable, so annotated)
struct cell { int a; int b; };


#ifndef DLA_ASTA_OFF
/* dl-annotate: offset of part o (size z) of record i in ASTA(T) of M records
 * of S units; the tail tile of M%T records has width M%T (docs/layouts.md). */
#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + (o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + (i) % (T) * (z))
#endif
#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards.
 * The ids are bounded as ints (as in `int x = get_global_id(0)`): with an
 * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, which POCL's
 * vectoriser turns into gathers and scatters. */
#ifdef __clang__
#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && (int)get_global_id(d) >= (int)(e))
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) __builtin_unreachable()
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
#ifndef DLA_ASTA_TILED
/* dl-annotate: the same for the work-item's own record in the tiled range:
 * tile get_global_id(1), lane get_global_id(0). */
#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * (S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + get_global_id(0) * (z))
#endif
#ifndef DL_TILE_arrow_c
#define DL_TILE_arrow_c 32
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: c[n] record(size=8; 0:4, 4:4) -> asta(auto)
__kernel void arrow(__global struct cell *c, int n)
{
#ifdef DL_ACTIVE_arrow
DLA_LAYOUT_CHECK(sizeof(*c) == 8u, dla_layout_c_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, a) == 0u, dla_layout_c_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->a) == 4u, dla_layout_c_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, b) == 4u, dla_layout_c_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->b) == 4u, dla_layout_c_b_size_4);
#if DL_TILE_arrow_c > 1 && DL_TILE_arrow_c <= 1024 && !defined(DL_FLAT_arrow)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_c = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_arrow_c) + get_global_id(0));
    if (i < n && i > 0)
        (*(__global int *)((__global char *)(c) + DLA_ASTA_TILED(DL_TILE_arrow_c, dla_M_c, 8u, 0u, 4u))) = (*(__global int *)((__global char *)(c) + DLA_ASTA_TILED(DL_TILE_arrow_c, dla_M_c, 8u, 4u, 4u))) + (*(__global int *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(0), DL_TILE_arrow_c, dla_M_c, 8u, 4u, 4u)));

#else
#ifdef DL_GLOBAL_END_arrow
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_arrow);
#endif
const size_t dla_M_c = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n && i > 0)
        (*(__global int *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_arrow_c, dla_M_c, 8u, 0u, 4u))) = (*(__global int *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_arrow_c, dla_M_c, 8u, 4u, 4u))) + (*(__global int *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(0), DL_TILE_arrow_c, dla_M_c, 8u, 4u, 4u)));

#endif
#else

    int i = get_global_id(0);
    if (i < n && i > 0)
        (c + i)->a = (c + i)->b + c->b;

#endif
}
