// dla-args: --layout da -DNE=20
// dla-build: -DNE=20
// a scalar array of records of 20 floats indexed in the orders people
// write: k + S*A, S*A + k, K + N*(i) with N a build macro and K an enum,
// casts and parentheses; each splits into record and element
typedef enum { RHO = 0, UX, UY, UZ, FLAG = 19 } slot;


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
//DL: v1 aos: cells[n][20] -> da
__kernel void moments(__global float *cells, int n)
{
#ifdef DL_ACTIVE_moments
#ifdef DL_GLOBAL_END_moments
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_moments);
#endif
#ifndef DLA_PAD_moments_cells
#define DLA_PAD_moments_cells 0
#endif
const size_t dla_M_cells = (size_t)(long)(n) + DLA_PAD_moments_cells;

    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 1; k < 4; k++)
        s += (cells)[(size_t)(k) * dla_M_cells + (size_t)(i)];
    (cells)[0u * dla_M_cells + (size_t)(i)] = s;
    (cells)[1u * dla_M_cells + (size_t)((i))] = (cells)[2u * dla_M_cells + (size_t)((size_t)i)] * 0.5f;
    (cells)[3u * dla_M_cells + (size_t)((i))] = (cells)[19u * dla_M_cells + (size_t)(i)];

#else

    int i = get_global_id(0);
    if (i >= n)
        return;
    float s = 0.0f;
    for (int k = 1; k < 4; k++)
        s += cells[k + 20 * i];
    cells[20 * i + RHO] = s;
    cells[UX + NE * (i)] = cells[(size_t)i * 20 + UY] * 0.5f;
    cells[(UZ) + ((long)20 * (i))] = cells[FLAG + (i * NE)];

#endif
}
