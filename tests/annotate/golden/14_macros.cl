// dla-args: -DSCALE=3.0f -D WIDTH=64
// dla-build: -DSCALE=3.0f -D WIDTH=64
// macros from -D in the body and in an index-free expression
struct px { float r, g, b; };
#define LUMA(p) (0.3f * (p).r + 0.6f * (p).g + 0.1f * (p).b)

//DL: v1 aos: img[n] record(size=12; 0:4, 4:4, 8:4) -> da
__kernel void tone(__global struct px *img, __global float *luma, int n)
{
#ifdef DL_ACTIVE_tone
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
