// dla-args:
// lavaMD style: the kernels sit in an `extern "C" {` block under
// #ifdef __cplusplus, which OpenCL C never compiles; the annotations
// written inside it must still reach the runtime
#ifdef __cplusplus
extern "C" {
#endif

typedef struct { float x, y, z, v; } box4;

__kernel void shift(__global box4 *b, float d, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        b[i].x += d;
        b[i].v = b[i].y * b[i].z;
    }
}

#ifdef __cplusplus
}
#endif
