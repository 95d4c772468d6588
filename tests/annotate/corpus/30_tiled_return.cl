// dla-args: --layout asta --tile 8
// tiled launch: an early `if (i >= n) return;` after a declaration that
// reads no memory makes padding safe, so the flag is tiled(n)
struct body { float x, y, z, m; };

__kernel void drift(__global struct body *b, float dt, int n)
{
    int i = get_global_id(0);
    float step = dt * 0.5f;
    if (i >= n)
        return;
    b[i].x += b[i].m * step;
    b[i].y -= step;
}
