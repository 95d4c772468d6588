// dla-args:
// accesses written inside macros' arguments, as published kernels do:
// as_uint(g[...]) (as_uint is a macro of clang's opencl-c-base.h) and a
// macro of the source around a field, an index macro in as_uint's
// argument; the argument's text is rewritten
#define HALF(x) ((x) * 0.5f)
#define IDX(i, k) ((i) * 4 + (k))
#define IS_SET(w, bit) (((w) >> (bit)) & 1u)

struct body { float m; float v; uint flags; };


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
#ifndef DL_TILE_weigh_w
#define DL_TILE_weigh_w 32
#endif
#ifndef DL_TILE_weigh_b
#define DL_TILE_weigh_b 32
#endif
//DL: v1 launch: tiled(n)
//DL: v1 aos: w[n][4] -> asta(auto)
//DL: v1 aos: b[n] record(size=12; 0:4, 4:4, 8:4) -> asta(auto)
__kernel void weigh(__global float *w, __global struct body *b, int n)
{
#ifdef DL_ACTIVE_weigh
DLA_LAYOUT_CHECK(sizeof(*b) == 12u, dla_layout_b_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct body, m) == 0u, dla_layout_b_m_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct body *)0)->m) == 4u, dla_layout_b_m_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct body, v) == 4u, dla_layout_b_v_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct body *)0)->v) == 4u, dla_layout_b_v_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct body, flags) == 8u, dla_layout_b_flags_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct body *)0)->flags) == 4u, dla_layout_b_flags_size_4);
#if DL_TILE_weigh_w > 1 && DL_TILE_weigh_w <= 1024 && DL_TILE_weigh_b == DL_TILE_weigh_w && !defined(DL_FLAT_weigh)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_w = (size_t)(long)(n);
const size_t dla_M_b = (size_t)(long)(n);

    int i = (get_global_id(1) * (size_t)(DL_TILE_weigh_w) + get_global_id(0));
    if (i >= n)
        return;
    uint word = as_uint((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 3u, 1u)]);
    word ^= as_uint((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 2u, 1u)]);
    if (IS_SET(as_uint((*(__global uint *)((__global char *)(b) + DLA_ASTA_TILED(DL_TILE_weigh_b, dla_M_b, 12u, 8u, 4u)))), 2))
        (w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 0u, 1u)] = HALF((*(__global float *)((__global char *)(b) + DLA_ASTA_TILED(DL_TILE_weigh_b, dla_M_b, 12u, 0u, 4u)))) + HALF((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 1u, 1u)]);
    (*(__global float *)((__global char *)(b) + DLA_ASTA_TILED(DL_TILE_weigh_b, dla_M_b, 12u, 4u, 4u))) = HALF(as_float(word));

#else
#ifdef DL_GLOBAL_END_weigh
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_weigh);
#endif
const size_t dla_M_w = (size_t)(long)(n);
const size_t dla_M_b = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i >= n)
        return;
    uint word = as_uint((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 3u, 1u)]);
    word ^= as_uint((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 2u, 1u)]);
    if (IS_SET(as_uint((*(__global uint *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_b, dla_M_b, 12u, 8u, 4u)))), 2))
        (w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 0u, 1u)] = HALF((*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_b, dla_M_b, 12u, 0u, 4u)))) + HALF((w)[DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_w, dla_M_w, 4u, 1u, 1u)]);
    (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_weigh_b, dla_M_b, 12u, 4u, 4u))) = HALF(as_float(word));

#endif
#else

    int i = get_global_id(0);
    if (i >= n)
        return;
    uint word = as_uint(w[4 * i + 3]);
    word ^= as_uint(w[IDX(i, 2)]);
    if (IS_SET(as_uint(b[i].flags), 2))
        w[4 * i] = HALF(b[i].m) + HALF(w[i * 4 + 1]);
    b[i].v = HALF(as_float(word));

#endif
}
