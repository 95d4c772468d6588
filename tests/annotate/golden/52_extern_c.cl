// dla-args:
// lavaMD style: the kernels sit in an `extern "C" {` block under
// #ifdef __cplusplus, which OpenCL C never compiles; the annotations
// written inside it must still reach the runtime
#ifdef __cplusplus
extern "C" {
#endif

typedef struct { float x, y, z, v; } box4;

#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards. */
#ifdef __clang__
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) >= (e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
//DL: v1 aos: b[n] record(size=16; 0:4, 4:4, 8:4, 12:4) -> da
__kernel void shift(__global box4 *b, float d, int n)
{
#ifdef DL_ACTIVE_shift
#ifdef DL_GLOBAL_END_shift
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_shift);
#endif
const size_t dla_M_b = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        ((__global float *)((__global char *)(b) + 0u * dla_M_b))[(size_t)(i)] += d;
        ((__global float *)((__global char *)(b) + 12u * dla_M_b))[(size_t)(i)] = ((__global float *)((__global char *)(b) + 4u * dla_M_b))[(size_t)(i)] * ((__global float *)((__global char *)(b) + 8u * dla_M_b))[(size_t)(i)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        b[i].x += d;
        b[i].v = b[i].y * b[i].z;
    }

#endif
}

#ifdef __cplusplus
}
#endif
