// dla-args: --layout asta --tile 8
// tiled launch with two ASTA arguments: the variant needs equal tiles;
// a neighbour's record keeps the flat index (correct, not vectorised);
// a memory read before the guard makes padding unsafe: no bound
struct pt { float x, y; };

//DL: AoS: b[n]
__kernel void blend(__global struct pt *a, __global struct pt *b,
                    __global const float *wts, int n)
{
    int i = get_global_id(0);
    float w = wts[0];
    if (i < n) {
        a[i].x = w * a[i].x + b[i].x;
        a[i].y = b[i].y + (i > 0 ? b[i - 1].y : 0.0f);
    }
}
