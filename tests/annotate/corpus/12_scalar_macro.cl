// dla-args: --layout asta --tile 32 -DQ=5
// dla-build: -DQ=5
// a scalar array indexed through a macro: IDX(c, 0) splits into record c
// and element 0, IDX(c, k) is divided by the stride
#define IDX(cell, k) ((cell) * 5 + (k))

//DL: AoS: f[m][5]
__kernel void collide(__global float *f, int m)
{
    int c = get_global_id(0);
    if (c >= m)
        return;
    float rho = 0.0f;
    for (int k = 0; k < Q; k++)
        rho += f[IDX(c, k)];
    f[IDX(c, 0)] = rho;
}
