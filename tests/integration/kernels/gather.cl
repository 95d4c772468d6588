/* gather.cl - gathers through index buffers, annotated as indirect
 * references only (docs/annotations.md, "Indirect references"): dlayout
 * converts nothing here, and with DL_COALESCING counts their memory
 * transactions.  K comes from the build options. */

/* ELL SpMV: K entries per row, column-major (entry j of row r at
 * j * N + r), one row per work-item. */
//DL: indirect: read x[col[j * N + gid]] for(j < K)
__kernel void ell_spmv(__global const float *val, __global const int *col,
                       __global const float *x, __global float *y, int N)
{
    int gid = get_global_id(0);
    if (gid >= N)
        return;
    float s = 0.0f;
    for (int j = 0; j < K; j++)
        s += val[j * N + gid] * x[col[j * N + gid]];
    y[gid] = s;
}

struct atom { float x, y, z, w; };

/* A field of a record through a permutation, and its right neighbour. */
//DL: indirect: read a[perm[gid]] record(size=16; 4:4)
//DL: indirect: read a[perm[gid] + 1] record(size=16; 4:4)
__kernel void gather_y(__global const struct atom *a,
                       __global const uint *perm, __global float *out)
{
    size_t gid = get_global_id(0);
    out[gid] = a[perm[gid]].y - a[perm[gid] + 1].y;
}
