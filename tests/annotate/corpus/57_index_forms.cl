// dla-args: --layout da -DNE=20
// dla-build: -DNE=20
// a scalar array of records of 20 floats indexed in the orders people
// write: k + S*A, S*A + k, K + N*(i) with N a build macro and K an enum,
// casts and parentheses; each splits into record and element
typedef enum { RHO = 0, UX, UY, UZ, FLAG = 19 } slot;

// DL: AoS: cells[n][20]
__kernel void moments(__global float *cells, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 1; k < 4; k++)
        s += cells[k + 20 * i];
    cells[20 * i + RHO] = s;
    cells[UX + NE * (i)] = cells[(size_t)i * 20 + UY] * 0.5f;
    cells[(UZ) + ((long)20 * (i))] = cells[FLAG + (i * NE)];
}
