// dla-args: --layout asta --tile 8
// flat ASTA only: a barrier synchronises a work-group
struct q { float a, b; };

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
#ifndef DL_TILE_sync_step_p
#define DL_TILE_sync_step_p 8
#endif
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> asta(8)
__kernel void sync_step(__global struct q *p, int n)
{
#ifdef DL_ACTIVE_sync_step
DLA_LAYOUT_CHECK(sizeof(*p) == 8u, dla_layout_p_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct q, a) == 0u, dla_layout_p_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct q *)0)->a) == 4u, dla_layout_p_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct q, b) == 4u, dla_layout_p_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct q *)0)->b) == 4u, dla_layout_p_b_size_4);
#ifdef DL_GLOBAL_END_sync_step
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_sync_step);
#endif
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 0u, 4u))) *= 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 4u, 4u))) += (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 0u, 4u)));

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].a *= 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        p[i].b += p[i].a;

#endif
}
