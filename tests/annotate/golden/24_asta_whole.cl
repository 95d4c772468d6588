// dla-args: --layout asta --tile 4
// whole records in ASTA(4) (tail tiles included) and a user target
struct pair { float a; int b; short c; };

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
#ifndef DL_TILE_copy_src
#define DL_TILE_copy_src 4
#endif
#ifndef DL_TILE_copy_dst
#define DL_TILE_copy_dst 4
#endif
#ifdef DL_ACTIVE_copy
static struct pair dla_load_copy_src(__global char *p, size_t i, size_t M)
{
    struct pair r;
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[0u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_src, M, 12u, 0u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[1u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_src, M, 12u, 4u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private ushort *)&r)[4u + b] = ((__global ushort *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_src, M, 12u, 8u, 2u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private ushort *)&r)[5u + b] = ((__global ushort *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_src, M, 12u, 10u, 2u)))[b];
    return r;
}
static void dla_store_copy_dst(__global char *p, size_t i, size_t M, struct pair r)
{
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_dst, M, 12u, 0u, 4u)))[b] = ((__private uint *)&r)[0u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_dst, M, 12u, 4u, 4u)))[b] = ((__private uint *)&r)[1u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global ushort *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_dst, M, 12u, 8u, 2u)))[b] = ((__private ushort *)&r)[4u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global ushort *)(p + DLA_ASTA_OFF(i, DL_TILE_copy_dst, M, 12u, 10u, 2u)))[b] = ((__private ushort *)&r)[5u + b];
}
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: src[n] record(size=12; 0:4, 4:4, 8:2) -> asta(4)
//DL: v1 aos: dst[n] record(size=12; 0:4, 4:4, 8:2) -> asta(4)
__kernel void copy(__global struct pair *src, __global struct pair *dst,
                   int n)
{
#ifdef DL_ACTIVE_copy
DLA_LAYOUT_CHECK(sizeof(*src) == 12u, dla_layout_src_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, a) == 0u, dla_layout_src_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->a) == 4u, dla_layout_src_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, b) == 4u, dla_layout_src_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->b) == 4u, dla_layout_src_b_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, c) == 8u, dla_layout_src_c_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->c) == 2u, dla_layout_src_c_size_2);
DLA_LAYOUT_CHECK(sizeof(*dst) == 12u, dla_layout_dst_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, a) == 0u, dla_layout_dst_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->a) == 4u, dla_layout_dst_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, b) == 4u, dla_layout_dst_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->b) == 4u, dla_layout_dst_b_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pair, c) == 8u, dla_layout_dst_c_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct pair *)0)->c) == 2u, dla_layout_dst_c_size_2);
#if DL_TILE_copy_src > 1 && DL_TILE_copy_src <= 1024 && DL_TILE_copy_dst == DL_TILE_copy_src && !defined(DL_FLAT_copy)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_src = (size_t)(long)(n);
const size_t dla_M_dst = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_copy_src) + get_global_id(0));
    if (i < n)
        dla_store_copy_dst((__global char *)(dst), (size_t)(i), dla_M_dst, (dla_load_copy_src((__global char *)(src), (size_t)(i), dla_M_src)));

#else
#ifdef DL_GLOBAL_END_copy
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_copy);
#endif
const size_t dla_M_src = (size_t)(long)(n);
const size_t dla_M_dst = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        dla_store_copy_dst((__global char *)(dst), (size_t)(i), dla_M_dst, (dla_load_copy_src((__global char *)(src), (size_t)(i), dla_M_src)));

#endif
#else

    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];

#endif
}
