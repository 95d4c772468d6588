// dla-args: --layout asta --tile 8
// ASTA(T) through helpers: neighbours (q + 1)->f and q[1], an alias
// inside the helper, a whole-record copy; the count is annotated (the
// helper reads records next to the passed one)
typedef struct { float a; float b; int tag; } cell;

static float pair_sum(__global cell *q)
{
    __global cell *r = &q[1];
    return q->a + (q + 1)->b + r->a + q[1].b;
}

static void copy_to(__global cell *c, int from, int to)
{
    c[to] = c[from];
}


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
#ifndef DL_TILE_smooth_c
#define DL_TILE_smooth_c 8
#endif
#ifdef DL_ACTIVE_smooth
static cell dla_load_smooth_c(__global char *p, size_t i, size_t M)
{
    cell r;
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[0u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 0u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[1u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 4u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[2u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 8u, 4u)))[b];
    return r;
}
static void dla_store_smooth_c(__global char *p, size_t i, size_t M, cell r)
{
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 0u, 4u)))[b] = ((__private uint *)&r)[0u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 4u, 4u)))[b] = ((__private uint *)&r)[1u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_smooth_c, M, 12u, 8u, 4u)))[b] = ((__private uint *)&r)[2u + b];
}
static float dla_smooth_c_pair_sum(__global cell *q, size_t dla_x_q, size_t dla_M_c)
{
    const size_t dla_i_r = (dla_x_q + (size_t)(1));
    return (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_smooth_c, dla_M_c, 12u, 0u, 4u))) + (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((dla_x_q + (size_t)(1)), DL_TILE_smooth_c, dla_M_c, 12u, 4u, 4u))) + (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_i_r), DL_TILE_smooth_c, dla_M_c, 12u, 0u, 4u))) + (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((dla_x_q + (size_t)(1)), DL_TILE_smooth_c, dla_M_c, 12u, 4u, 4u)));
}
static void dla_smooth_c_copy_to(__global cell *c, size_t dla_x_c, size_t dla_M_c, int from, int to)
{
    dla_store_smooth_c((__global char *)(c), (dla_x_c + (size_t)(to)), dla_M_c, (dla_load_smooth_c((__global char *)(c), (dla_x_c + (size_t)(from)), dla_M_c)));
}
#endif
//DL: v1 aos: c[n + 1] record(size=12; 0:4, 4:4, 8:4) -> asta(8)
__kernel void smooth(__global cell *c, __global float *out, int n)
{
#ifdef DL_ACTIVE_smooth
DLA_LAYOUT_CHECK(sizeof(*c) == 12u, dla_layout_c_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(cell, a) == 0u, dla_layout_c_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((cell *)0)->a) == 4u, dla_layout_c_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(cell, b) == 4u, dla_layout_c_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((cell *)0)->b) == 4u, dla_layout_c_b_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(cell, tag) == 8u, dla_layout_c_tag_at_8);
DLA_LAYOUT_CHECK(sizeof(((cell *)0)->tag) == 4u, dla_layout_c_tag_size_4);
#ifdef DL_GLOBAL_END_smooth
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_smooth);
#endif
const size_t dla_M_c = (size_t)((long)(n) + 1L);

    int i = get_global_id(0);
    if (i < n) {
        out[i] = dla_smooth_c_pair_sum(c, (size_t)(i), dla_M_c);
        if ((*(__global int *)((__global char *)(c) + DLA_ASTA_OFF((size_t)(i), DL_TILE_smooth_c, dla_M_c, 12u, 8u, 4u))) == 7)
            dla_smooth_c_copy_to(c, (size_t)(0), dla_M_c, i + 1, i);
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        out[i] = pair_sum(&c[i]);
        if (c[i].tag == 7)
            copy_to(c, i + 1, i);
    }

#endif
}
