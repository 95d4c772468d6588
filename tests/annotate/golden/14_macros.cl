// dla-args: -DSCALE=3.0f -D WIDTH=64
// dla-build: -DSCALE=3.0f -D WIDTH=64
// macros from -D in the body and in an index-free expression
struct px { float r, g, b; };
#define LUMA(p) (0.3f * (p).r + 0.6f * (p).g + 0.1f * (p).b)

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
//DL: v1 aos: img[n] record(size=12; 0:4, 4:4, 8:4) -> da
__kernel void tone(__global struct px *img, __global float *luma, int n)
{
#ifdef DL_ACTIVE_tone
#ifdef DL_GLOBAL_END_tone
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_tone);
#endif
const size_t dla_M_img = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        ((__global float *)((__global char *)(img) + 0u * dla_M_img))[(size_t)(i)] = ((__global float *)((__global char *)(img) + 0u * dla_M_img))[(size_t)(i)] * SCALE;
        luma[i] = (float)WIDTH * ((__global float *)((__global char *)(img) + 4u * dla_M_img))[(size_t)(i)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        img[i].r = img[i].r * SCALE;
        luma[i] = (float)WIDTH * img[i].g;
    }

#endif
}
