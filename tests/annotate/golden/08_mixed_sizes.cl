// dla-args: --layout asta --tile 16
// fields of mixed sizes with padding gaps
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
struct rec { char tag; double value; short count; int id; };

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
#ifndef DL_TILE_bump_r
#define DL_TILE_bump_r 16
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: r[n] record(size=24; 0:1, 8:8, 16:2, 20:4) -> asta(16)
__kernel void bump(__global struct rec *r, int n)
{
#ifdef DL_ACTIVE_bump
DLA_LAYOUT_CHECK(sizeof(*r) == 24u, dla_layout_r_size_24);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct rec, tag) == 0u, dla_layout_r_tag_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct rec *)0)->tag) == 1u, dla_layout_r_tag_size_1);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct rec, value) == 8u, dla_layout_r_value_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct rec *)0)->value) == 8u, dla_layout_r_value_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct rec, count) == 16u, dla_layout_r_count_at_16);
DLA_LAYOUT_CHECK(sizeof(((struct rec *)0)->count) == 2u, dla_layout_r_count_size_2);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct rec, id) == 20u, dla_layout_r_id_at_20);
DLA_LAYOUT_CHECK(sizeof(((struct rec *)0)->id) == 4u, dla_layout_r_id_size_4);
#if DL_TILE_bump_r > 1 && DL_TILE_bump_r <= 1024 && !defined(DL_FLAT_bump)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_r = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_bump_r) + get_global_id(0));
    if (i < n) {
        (*(__global double *)((__global char *)(r) + DLA_ASTA_TILED(DL_TILE_bump_r, dla_M_r, 24u, 8u, 8u))) += (double)(*(__global short *)((__global char *)(r) + DLA_ASTA_TILED(DL_TILE_bump_r, dla_M_r, 24u, 16u, 2u)));
        (*(__global char *)((__global char *)(r) + DLA_ASTA_TILED(DL_TILE_bump_r, dla_M_r, 24u, 0u, 1u))) = (char)((*(__global int *)((__global char *)(r) + DLA_ASTA_TILED(DL_TILE_bump_r, dla_M_r, 24u, 20u, 4u))) & 0x7f);
    }

#else
#ifdef DL_GLOBAL_END_bump
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_bump);
#endif
const size_t dla_M_r = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        (*(__global double *)((__global char *)(r) + DLA_ASTA_OFF((size_t)(i), DL_TILE_bump_r, dla_M_r, 24u, 8u, 8u))) += (double)(*(__global short *)((__global char *)(r) + DLA_ASTA_OFF((size_t)(i), DL_TILE_bump_r, dla_M_r, 24u, 16u, 2u)));
        (*(__global char *)((__global char *)(r) + DLA_ASTA_OFF((size_t)(i), DL_TILE_bump_r, dla_M_r, 24u, 0u, 1u))) = (char)((*(__global int *)((__global char *)(r) + DLA_ASTA_OFF((size_t)(i), DL_TILE_bump_r, dla_M_r, 24u, 20u, 4u))) & 0x7f);
    }

#endif
#else

    int i = get_global_id(0);
    if (i < n) {
        r[i].value += (double)r[i].count;
        r[i].tag = (char)(r[i].id & 0x7f);
    }

#endif
}
