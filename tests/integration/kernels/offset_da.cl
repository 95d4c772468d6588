/* offset_da.cl - dl-annotate --layout da output of an LBM-like cell of 20
 * floats; each launch relaxes every field towards its neighbour's. */
struct cell {
    float f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19;
};


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
//DL: v1 aos: c[n] record(size=80; 0:4, 4:4, 8:4, 12:4, 16:4, 20:4, 24:4, 28:4, 32:4, 36:4, 40:4, 44:4, 48:4, 52:4, 56:4, 60:4, 64:4, 68:4, 72:4, 76:4) -> da
__kernel void relax(__global struct cell *c, int n)
{
#ifdef DL_ACTIVE_relax
DLA_LAYOUT_CHECK(sizeof(*c) == 80u, dla_layout_c_size_80);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f0) == 0u, dla_layout_c_f0_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f0) == 4u, dla_layout_c_f0_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f1) == 4u, dla_layout_c_f1_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f1) == 4u, dla_layout_c_f1_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f2) == 8u, dla_layout_c_f2_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f2) == 4u, dla_layout_c_f2_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f3) == 12u, dla_layout_c_f3_at_12);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f3) == 4u, dla_layout_c_f3_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f4) == 16u, dla_layout_c_f4_at_16);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f4) == 4u, dla_layout_c_f4_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f5) == 20u, dla_layout_c_f5_at_20);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f5) == 4u, dla_layout_c_f5_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f6) == 24u, dla_layout_c_f6_at_24);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f6) == 4u, dla_layout_c_f6_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f7) == 28u, dla_layout_c_f7_at_28);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f7) == 4u, dla_layout_c_f7_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f8) == 32u, dla_layout_c_f8_at_32);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f8) == 4u, dla_layout_c_f8_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f9) == 36u, dla_layout_c_f9_at_36);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f9) == 4u, dla_layout_c_f9_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f10) == 40u, dla_layout_c_f10_at_40);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f10) == 4u, dla_layout_c_f10_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f11) == 44u, dla_layout_c_f11_at_44);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f11) == 4u, dla_layout_c_f11_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f12) == 48u, dla_layout_c_f12_at_48);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f12) == 4u, dla_layout_c_f12_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f13) == 52u, dla_layout_c_f13_at_52);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f13) == 4u, dla_layout_c_f13_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f14) == 56u, dla_layout_c_f14_at_56);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f14) == 4u, dla_layout_c_f14_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f15) == 60u, dla_layout_c_f15_at_60);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f15) == 4u, dla_layout_c_f15_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f16) == 64u, dla_layout_c_f16_at_64);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f16) == 4u, dla_layout_c_f16_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f17) == 68u, dla_layout_c_f17_at_68);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f17) == 4u, dla_layout_c_f17_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f18) == 72u, dla_layout_c_f18_at_72);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f18) == 4u, dla_layout_c_f18_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct cell, f19) == 76u, dla_layout_c_f19_at_76);
DLA_LAYOUT_CHECK(sizeof(((struct cell *)0)->f19) == 4u, dla_layout_c_f19_size_4);
#ifdef DL_GLOBAL_END_relax
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_relax);
#endif
#ifndef DLA_PAD_relax_c
#define DLA_PAD_relax_c 0
#endif
const size_t dla_M_c = (size_t)(long)(n) + DLA_PAD_relax_c;

    int i = get_global_id(0);
    if (i < n) {
        ((__global float *)((__global char *)(c) + 0u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 0u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 4u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 8u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 8u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 8u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 12u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 12u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 12u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 16u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 16u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 16u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 20u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 20u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 20u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 24u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 24u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 24u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 28u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 28u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 28u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 32u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 32u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 32u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 36u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 36u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 36u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 40u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 40u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 40u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 44u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 44u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 44u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 48u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 48u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 48u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 52u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 52u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 52u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 56u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 56u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 56u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 60u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 60u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 60u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 64u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 64u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 64u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 68u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 68u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 68u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 72u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 72u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 72u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 76u * dla_M_c))[(size_t)(i)] * 0.25f;
        ((__global float *)((__global char *)(c) + 76u * dla_M_c))[(size_t)(i)] = ((__global float *)((__global char *)(c) + 76u * dla_M_c))[(size_t)(i)] * 0.75f + ((__global float *)((__global char *)(c) + 0u * dla_M_c))[(size_t)(i)] * 0.25f;
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        c[i].f0 = c[i].f0 * 0.75f + c[i].f1 * 0.25f;
        c[i].f1 = c[i].f1 * 0.75f + c[i].f2 * 0.25f;
        c[i].f2 = c[i].f2 * 0.75f + c[i].f3 * 0.25f;
        c[i].f3 = c[i].f3 * 0.75f + c[i].f4 * 0.25f;
        c[i].f4 = c[i].f4 * 0.75f + c[i].f5 * 0.25f;
        c[i].f5 = c[i].f5 * 0.75f + c[i].f6 * 0.25f;
        c[i].f6 = c[i].f6 * 0.75f + c[i].f7 * 0.25f;
        c[i].f7 = c[i].f7 * 0.75f + c[i].f8 * 0.25f;
        c[i].f8 = c[i].f8 * 0.75f + c[i].f9 * 0.25f;
        c[i].f9 = c[i].f9 * 0.75f + c[i].f10 * 0.25f;
        c[i].f10 = c[i].f10 * 0.75f + c[i].f11 * 0.25f;
        c[i].f11 = c[i].f11 * 0.75f + c[i].f12 * 0.25f;
        c[i].f12 = c[i].f12 * 0.75f + c[i].f13 * 0.25f;
        c[i].f13 = c[i].f13 * 0.75f + c[i].f14 * 0.25f;
        c[i].f14 = c[i].f14 * 0.75f + c[i].f15 * 0.25f;
        c[i].f15 = c[i].f15 * 0.75f + c[i].f16 * 0.25f;
        c[i].f16 = c[i].f16 * 0.75f + c[i].f17 * 0.25f;
        c[i].f17 = c[i].f17 * 0.75f + c[i].f18 * 0.25f;
        c[i].f18 = c[i].f18 * 0.75f + c[i].f19 * 0.25f;
        c[i].f19 = c[i].f19 * 0.75f + c[i].f0 * 0.25f;
    }

#endif
}
