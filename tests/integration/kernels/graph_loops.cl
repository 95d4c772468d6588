/* graph_loops.cl - the two graph-kernel loops of issue 20, one vertex (one
 * CSR row) a work-item, run by scn_graph_loops.c with ping-pong vectors:
 * - pagerank: the pull form over the in-edges of a power-law graph,
 *   rank'[v] = add + mul * sum of rank[u] / outdeg[u] over in-edges u;
 * - sym_spmv: y = mul * A x over a symmetric matrix (the stencil).
 * dl-annotate wrote the annotations and the DL_ACTIVE_ branches. */
//DL: v1 indirect: read rank[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
//DL: v1 indirect: read outdeg[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
#ifdef DL_JOBSWAP_pagerank
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void pagerank(__global const int *col, __global const int *rowptr,
                       __global const float *rank,
                       __global const float *outdeg, __global float *next,
                       int rows, float mul, float add
#ifdef DL_ACTIVE_pagerank
, __global const float *dl_gather_rank_col
, __global const float *dl_gather_outdeg_col
#endif
#ifdef DL_JOBSWAP_pagerank
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_pagerank

    int v = get_global_id(0);
    if (v >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
        s += dl_gather_rank_col[k] / dl_gather_outdeg_col[k];
    next[v] = add + mul * s;

#else

    int v = get_global_id(0);
    if (v >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[v]; k < rowptr[v + 1]; k++)
        s += rank[col[k]] / outdeg[col[k]];
    next[v] = add + mul * s;

#endif
}
#ifdef DL_JOBSWAP_pagerank
#undef get_global_id
#endif

//DL: v1 indirect: read x[col[k]] for(k in rowptr[gid] .. rowptr[gid + 1])
#ifdef DL_JOBSWAP_sym_spmv
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void sym_spmv(__global const float *val, __global const int *col,
                       __global const int *rowptr, __global const float *x,
                       __global float *y, int rows, float mul
#ifdef DL_ACTIVE_sym_spmv
, __global const float *dl_gather_x_col
#endif
#ifdef DL_JOBSWAP_sym_spmv
, __global const uint *dl_job
#endif
#ifdef DL_SHARE_sym_spmv
, __global const uint *dl_block_pos, __global const uint *dl_block_size
, __local float *dl_share
#endif
)
{
#ifdef DL_ACTIVE_sym_spmv

    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * dl_gather_x_col[k];
    y[row] = mul * s;

#elif defined(DL_SHARE_sym_spmv)
    for (uint dl_i = get_local_id(0);
         dl_i < dl_block_size[get_group_id(0)];
         dl_i += get_local_size(0))
        dl_share[dl_i] = x[dl_block_pos[get_group_id(0)] + dl_i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * dl_share[col[k]];
    y[row] = mul * s;

#else

    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * x[col[k]];
    y[row] = mul * s;

#endif
}
#ifdef DL_JOBSWAP_sym_spmv
#undef get_global_id
#endif
