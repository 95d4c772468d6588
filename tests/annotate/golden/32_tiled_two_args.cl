// dla-args: --layout asta --tile 8
// tiled launch with two ASTA arguments: the variant needs equal tiles;
// a neighbour's record keeps the flat index (correct, not vectorised);
// a memory read before the guard makes padding unsafe: no bound
struct pt { float x, y; };


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
#ifndef DL_TILE_blend_a
#define DL_TILE_blend_a 8
#endif
#ifndef DL_TILE_blend_b
#define DL_TILE_blend_b 8
#endif
//DL: v1 launch: tiled
//DL: v1 aos: a[n] record(size=8; 0:4, 4:4) -> asta(8)
//DL: v1 aos: b[n] record(size=8; 0:4, 4:4) -> asta(8)
__kernel void blend(__global struct pt *a, __global struct pt *b,
                    __global const float *wts, int n)
{
#ifdef DL_ACTIVE_blend
DLA_LAYOUT_CHECK(sizeof(*a) == 8u, dla_layout_a_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pt, x) == 0u, dla_layout_a_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct pt *)0)->x) == 4u, dla_layout_a_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pt, y) == 4u, dla_layout_a_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct pt *)0)->y) == 4u, dla_layout_a_y_size_4);
DLA_LAYOUT_CHECK(sizeof(*b) == 8u, dla_layout_b_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pt, x) == 0u, dla_layout_b_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct pt *)0)->x) == 4u, dla_layout_b_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct pt, y) == 4u, dla_layout_b_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct pt *)0)->y) == 4u, dla_layout_b_y_size_4);
#if DL_TILE_blend_a > 1 && DL_TILE_blend_a <= 1024 && DL_TILE_blend_b == DL_TILE_blend_a && !defined(DL_FLAT_blend)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_a = (size_t)(long)(n);
const size_t dla_M_b = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_blend_a) + get_global_id(0));
    float w = wts[0];
    if (i < n) {
        (*(__global float *)((__global char *)(a) + DLA_ASTA_TILED(DL_TILE_blend_a, dla_M_a, 8u, 0u, 4u))) = w * (*(__global float *)((__global char *)(a) + DLA_ASTA_TILED(DL_TILE_blend_a, dla_M_a, 8u, 0u, 4u))) + (*(__global float *)((__global char *)(b) + DLA_ASTA_TILED(DL_TILE_blend_b, dla_M_b, 8u, 0u, 4u)));
        (*(__global float *)((__global char *)(a) + DLA_ASTA_TILED(DL_TILE_blend_a, dla_M_a, 8u, 4u, 4u))) = (*(__global float *)((__global char *)(b) + DLA_ASTA_TILED(DL_TILE_blend_b, dla_M_b, 8u, 4u, 4u))) + (i > 0 ? (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i - 1), DL_TILE_blend_b, dla_M_b, 8u, 4u, 4u))) : 0.0f);
    }

#else
#ifdef DL_GLOBAL_END_blend
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_blend);
#endif
const size_t dla_M_a = (size_t)(long)(n);
const size_t dla_M_b = (size_t)(long)(n);

    int i = get_global_id(0);
    float w = wts[0];
    if (i < n) {
        (*(__global float *)((__global char *)(a) + DLA_ASTA_OFF((size_t)(i), DL_TILE_blend_a, dla_M_a, 8u, 0u, 4u))) = w * (*(__global float *)((__global char *)(a) + DLA_ASTA_OFF((size_t)(i), DL_TILE_blend_a, dla_M_a, 8u, 0u, 4u))) + (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_blend_b, dla_M_b, 8u, 0u, 4u)));
        (*(__global float *)((__global char *)(a) + DLA_ASTA_OFF((size_t)(i), DL_TILE_blend_a, dla_M_a, 8u, 4u, 4u))) = (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_blend_b, dla_M_b, 8u, 4u, 4u))) + (i > 0 ? (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i - 1), DL_TILE_blend_b, dla_M_b, 8u, 4u, 4u))) : 0.0f);
    }

#endif
#else

    int i = get_global_id(0);
    float w = wts[0];
    if (i < n) {
        a[i].x = w * a[i].x + b[i].x;
        a[i].y = b[i].y + (i > 0 ? b[i - 1].y : 0.0f);
    }

#endif
}
