// dla-args:
// a scalar array with record stride 20, declared by an annotation; a
// loop variable in [0, 20) splits the index, a stepped one does not

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
//DL: v1 aos: grid[n][20] -> da
__kernel void relax(__global float *grid, int n)
{
#ifdef DL_ACTIVE_relax
#ifdef DL_GLOBAL_END_relax
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_relax);
#endif
const size_t dla_M_grid = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += (grid)[(size_t)(k) * dla_M_grid + (size_t)(i)];
    for (int k = 0; k < 20; k += 2)
        sum += (grid)[((size_t)(i * 20 + k) % 20u) * dla_M_grid + ((size_t)(i * 20 + k) / 20u)];
    (grid)[19u * dla_M_grid + (size_t)(i)] = sum;
    (grid)[0u * dla_M_grid + (size_t)(i)] = (grid)[1u * dla_M_grid + (size_t)(i)] * 0.5f;

#else

    int i = get_global_id(0);
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < 19; k++)
        sum += grid[i * 20 + k];
    for (int k = 0; k < 20; k += 2)
        sum += grid[i * 20 + k];
    grid[i * 20 + 19] = sum;
    grid[i * 20 + 0] = grid[i * 20 + 1] * 0.5f;

#endif
}
