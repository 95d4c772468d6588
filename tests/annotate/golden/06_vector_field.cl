// dla-args: --layout asta --tile 4
// float4 fields and p[i].v.x
typedef struct { float4 pos; float4 vel; float w; } point_t;

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
#ifndef DL_TILE_move_p
#define DL_TILE_move_p 4
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: p[n] record(size=48; 0:16, 16:16, 32:4) -> asta(4)
__kernel void move(__global point_t *p, int n)
{
#ifdef DL_ACTIVE_move
DLA_LAYOUT_CHECK(sizeof(*p) == 48u, dla_layout_p_size_48);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(point_t, pos) == 0u, dla_layout_p_pos_at_0);
DLA_LAYOUT_CHECK(sizeof(((point_t *)0)->pos) == 16u, dla_layout_p_pos_size_16);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(point_t, vel) == 16u, dla_layout_p_vel_at_16);
DLA_LAYOUT_CHECK(sizeof(((point_t *)0)->vel) == 16u, dla_layout_p_vel_size_16);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(point_t, w) == 32u, dla_layout_p_w_at_32);
DLA_LAYOUT_CHECK(sizeof(((point_t *)0)->w) == 4u, dla_layout_p_w_size_4);
#if DL_TILE_move_p > 1 && DL_TILE_move_p <= 1024 && !defined(DL_FLAT_move)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_p = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_move_p) + get_global_id(0));
    if (i < n) {
        (*(__global float4 *)((__global char *)(p) + DLA_ASTA_TILED(DL_TILE_move_p, dla_M_p, 48u, 0u, 16u))) += (*(__global float4 *)((__global char *)(p) + DLA_ASTA_TILED(DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))) * (*(__global float *)((__global char *)(p) + DLA_ASTA_TILED(DL_TILE_move_p, dla_M_p, 48u, 32u, 4u)));
        (*(__global float4 *)((__global char *)(p) + DLA_ASTA_TILED(DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))).x = -(*(__global float4 *)((__global char *)(p) + DLA_ASTA_TILED(DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))).x;
    }

#else
#ifdef DL_GLOBAL_END_move
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_move);
#endif
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        (*(__global float4 *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_p, dla_M_p, 48u, 0u, 16u))) += (*(__global float4 *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))) * (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_p, dla_M_p, 48u, 32u, 4u)));
        (*(__global float4 *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))).x = -(*(__global float4 *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_p, dla_M_p, 48u, 16u, 16u))).x;
    }

#endif
#else

    int i = get_global_id(0);
    if (i < n) {
        p[i].pos += p[i].vel * p[i].w;
        p[i].vel.x = -p[i].vel.x;
    }

#endif
}
