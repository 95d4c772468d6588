// dla-args: --layout da
// pointers moved once past a margin, first thing, by a constant: the
// records of a struct and the elements of an array (a move that is no
// multiple of the record: element k + C of record r is split again)
#define MARGIN 16

struct cell { float a; float b; };



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
#ifndef DLA_FDIV
/* dl-annotate: an array moved by `p += C`: element k + C of record r is
 * record r + DLA_FDIV(k + C, K), element DLA_FMOD(k + C, K) (floor division). */
#define DLA_FDIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - 1) / (s)))
#define DLA_FMOD(x, s) ((x) - DLA_FDIV(x, s) * (s))
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
//DL: v1 aos: c[n + 16] record(size=8; 0:4, 4:4) -> da
//DL: v1 aos: g[n + 1][8] -> da
__kernel void shift(__global struct cell *c, __global float *g, int n)
{
#ifdef DL_ACTIVE_shift
DLA_LAYOUT_CHECK(sizeof(*c) == 8u, dla_layout_c_size_8);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, a) == 0u, dla_layout_c_a_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->a) == 4u, dla_layout_c_a_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, b) == 4u, dla_layout_c_b_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->b) == 4u, dla_layout_c_b_size_4);
#ifdef DL_GLOBAL_END_shift
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_shift);
#endif
#ifndef DLA_PAD_shift_c
#define DLA_PAD_shift_c 0
#endif
const size_t dla_M_c = (size_t)((long)(n) + 16L) + DLA_PAD_shift_c;
#ifndef DLA_PAD_shift_g
#define DLA_PAD_shift_g 0
#endif
const size_t dla_M_g = (size_t)((long)(n) + 1L) + DLA_PAD_shift_g;

    (void)0;
    (void)0;
    int i = get_global_id(0);
    if (i >= n)
        return;
    ((__global float *)((__global char *)(c) + 0u * dla_M_c))[((size_t)(i) + (size_t)(long)(MARGIN))] = ((__global float *)((__global char *)(c) + 4u * dla_M_c))[((size_t)(i - 1) + (size_t)(long)(MARGIN))] + ((__global float *)((__global char *)(c) + 0u * dla_M_c))[((size_t)(0) + (size_t)(long)(MARGIN))];
    for (int k = 0; k < 4; k++)
        (g)[(size_t)DLA_FMOD(((long)(size_t)(k) + -(long)(-3)), 8L) * dla_M_g + ((size_t)(i) + (size_t)DLA_FDIV(((long)(size_t)(k) + -(long)(-3)), 8L))] = (g)[(((size_t)(8 * i + k + 4) + (size_t)-(long)(-3)) % 8u) * dla_M_g + (((size_t)(8 * i + k + 4) + (size_t)-(long)(-3)) / 8u)] + (g)[(((size_t)(i) + (size_t)-(long)(-3)) % 8u) * dla_M_g + (((size_t)(i) + (size_t)-(long)(-3)) / 8u)];

#else

    c += MARGIN;
    g -= -3;
    int i = get_global_id(0);
    if (i >= n)
        return;
    c[i].a = c[i - 1].b + c->a;
    for (int k = 0; k < 4; k++)
        g[8 * i + k] = g[8 * i + k + 4] + g[i];

#endif
}
