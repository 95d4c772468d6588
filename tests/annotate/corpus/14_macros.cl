// dla-args: -DSCALE=3.0f -D WIDTH=64
// dla-build: -DSCALE=3.0f -D WIDTH=64
// macros from -D in the body and in an index-free expression
struct px { float r, g, b; };
#define LUMA(p) (0.3f * (p).r + 0.6f * (p).g + 0.1f * (p).b)

__kernel void tone(__global struct px *img, __global float *luma, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        img[i].r = img[i].r * SCALE;
        luma[i] = (float)WIDTH * img[i].g;
    }
}
