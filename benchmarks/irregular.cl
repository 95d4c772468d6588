/* irregular.cl - the kernels of `dl-bench irregular`: each workload's
 * plain kernel, which reads A[P[e]], and its redirected variant, which
 * reads A'[e] = A[P[e]] (built by runtime/irregular/gather.c) instead.
 * A variant does the same arithmetic in the same order as its plain
 * kernel, so that the outputs are bit-identical; contraction into fma is
 * off so that the compiler cannot treat the two differently. */
#pragma OPENCL FP_CONTRACT OFF

/* y = A x, CSR: one row per work-item. */
__kernel void spmv_csr(__global const int *restrict rowptr,
                       __global const int *restrict col,
                       __global const float *restrict val,
                       __global const float *restrict x,
                       __global float *restrict y, const uint rows)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = sum;
}

/* xp[k] = x[col[k]]. */
__kernel void spmv_csr_redirect(__global const int *restrict rowptr,
                                __global const float *restrict val,
                                __global const float *restrict xp,
                                __global float *restrict y, const uint rows)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * xp[k];
    y[row] = sum;
}

/* y = A x, column-major ELL: entry j of row r at j * rows + r. */
__kernel void spmv_ell(__global const int *restrict col,
                       __global const float *restrict val,
                       __global const float *restrict x,
                       __global float *restrict y, const uint rows,
                       const uint width)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (uint j = 0; j < width; j++) {
        const size_t e = (size_t)j * rows + row;
        sum += val[e] * x[col[e]];
    }
    y[row] = sum;
}

/* xp[e] = x[col[e]]. */
__kernel void spmv_ell_redirect(__global const float *restrict val,
                                __global const float *restrict xp,
                                __global float *restrict y, const uint rows,
                                const uint width)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (uint j = 0; j < width; j++) {
        const size_t e = (size_t)j * rows + row;
        sum += val[e] * xp[e];
    }
    y[row] = sum;
}

/* The force of a Lennard-Jones-like pair term on particle i from pj. */
inline float4 pair_force(float4 acc, float4 pi, float4 pj)
{
    const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
    const float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 > 0.0f) { /* a padded entry: the particle itself */
        const float inv2 = 1.0f / r2;
        const float inv6 = inv2 * inv2 * inv2;
        const float s = inv6 * (inv6 - 0.5f) * inv2;
        acc.x += s * dx;
        acc.y += s * dy;
        acc.z += s * dz;
    }
    return acc;
}

/* Neighbour j of particle i at nbr[j * n + i]. */
__kernel void md_force(__global const float4 *restrict pos,
                       __global const int *restrict nbr,
                       __global float4 *restrict force, const uint n,
                       const uint k)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const float4 pi = pos[i];
    float4 acc = (float4)(0.0f);
    for (uint j = 0; j < k; j++)
        acc = pair_force(acc, pi, pos[nbr[(size_t)j * n + i]]);
    force[i] = acc;
}

/* posp[e] = pos[nbr[e]]. */
__kernel void md_force_redirect(__global const float4 *restrict pos,
                                __global const float4 *restrict posp,
                                __global float4 *restrict force,
                                const uint n, const uint k)
{
    const uint i = get_global_id(0);
    if (i >= n)
        return;
    const float4 pi = pos[i];
    float4 acc = (float4)(0.0f);
    for (uint j = 0; j < k; j++)
        acc = pair_force(acc, pi, posp[(size_t)j * n + i]);
    force[i] = acc;
}

/* out[i] = the dot product of two 32-byte records, in a fixed order. */
inline float record_dot(float8 a, float8 b)
{
    float s = a.s0 * b.s0;
    s += a.s1 * b.s1;
    s += a.s2 * b.s2;
    s += a.s3 * b.s3;
    s += a.s4 * b.s4;
    s += a.s5 * b.s5;
    s += a.s6 * b.s6;
    s += a.s7 * b.s7;
    return s;
}

__kernel void records_pair(__global const float8 *restrict rec,
                           __global const int *restrict p,
                           __global const int *restrict q,
                           __global float *restrict out, const uint n)
{
    const uint i = get_global_id(0);
    if (i < n)
        out[i] = record_dot(rec[p[i]], rec[q[i]]);
}

/* ap[i] = rec[p[i]], aq[i] = rec[q[i]]. */
__kernel void records_pair_redirect(__global const float8 *restrict ap,
                                    __global const float8 *restrict aq,
                                    __global float *restrict out,
                                    const uint n)
{
    const uint i = get_global_id(0);
    if (i < n)
        out[i] = record_dot(ap[i], aq[i]);
}

/* ---- the methods without full duplication (irr_methods.c).  Remap needs
 * no variant: the plain kernel reads the permuted x through col'. ---- */

/* Job swap: work-item t runs row job[t]; the row's arithmetic unchanged. */
__kernel void spmv_csr_swap(__global const int *restrict job,
                            __global const int *restrict rowptr,
                            __global const int *restrict col,
                            __global const float *restrict val,
                            __global const float *restrict x,
                            __global float *restrict y, const uint rows)
{
    const uint t = get_global_id(0);
    if (t >= rows)
        return;
    const uint row = (uint)job[t];
    float sum = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = sum;
}

__kernel void spmv_ell_swap(__global const int *restrict job,
                            __global const int *restrict col,
                            __global const float *restrict val,
                            __global const float *restrict x,
                            __global float *restrict y, const uint rows,
                            const uint width)
{
    const uint t = get_global_id(0);
    if (t >= rows)
        return;
    const uint row = (uint)job[t];
    float sum = 0.0f;
    for (uint j = 0; j < width; j++) {
        const size_t e = (size_t)j * rows + row;
        sum += val[e] * x[col[e]];
    }
    y[row] = sum;
}

__kernel void md_force_swap(__global const int *restrict job,
                            __global const float4 *restrict pos,
                            __global const int *restrict nbr,
                            __global float4 *restrict force, const uint n,
                            const uint k)
{
    const uint t = get_global_id(0);
    if (t >= n)
        return;
    const uint i = (uint)job[t];
    const float4 pi = pos[i];
    float4 acc = (float4)(0.0f);
    for (uint j = 0; j < k; j++)
        acc = pair_force(acc, pi, pos[nbr[(size_t)j * n + i]]);
    force[i] = acc;
}

/* Sharing: the group's block of xs (its distinct elements, one copy each)
 * loaded coalesced into L, then read through the local index lidx
 * (indexed like col).  No early return: every work-item reaches the
 * barrier. */
inline void load_block(__local float *L, __local int *block,
                       __global const float *xs, __global const int *bpos,
                       __global const int *bsize)
{
    const uint g = get_group_id(0), lsz = get_local_size(0);
    if (get_local_id(0) == 0) {
        block[0] = bpos[g];
        block[1] = bsize[g];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int pos = block[0], size = block[1];
    for (int i = (int)get_local_id(0); i < size; i += (int)lsz)
        L[i] = xs[pos + i];
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void spmv_ell_share(__global const int *restrict lidx,
                             __global const float *restrict val,
                             __global const float *restrict xs,
                             __global const int *restrict bpos,
                             __global const int *restrict bsize,
                             __global float *restrict y, const uint rows,
                             const uint width, __local float *L)
{
    __local int block[2]; /* the group's bpos and bsize */
    load_block(L, block, xs, bpos, bsize);
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (uint j = 0; j < width; j++) {
        const size_t e = (size_t)j * rows + row;
        sum += val[e] * L[lidx[e]];
    }
    y[row] = sum;
}

/* Padding of rec via p: work-item t runs job i = job[t] and reads
 * app[slot[t]] = rec[p[i]]; q and out follow the job. */
__kernel void records_pair_pad(__global const int *restrict job,
                               __global const int *restrict slot,
                               __global const float8 *restrict app,
                               __global const float8 *restrict rec,
                               __global const int *restrict q,
                               __global float *restrict out, const uint n)
{
    const uint t = get_global_id(0);
    if (t >= n)
        return;
    const uint i = (uint)job[t];
    out[i] = record_dot(app[slot[t]], rec[q[i]]);
}

__kernel void records_pair_swap(__global const int *restrict job,
                                __global const float8 *restrict rec,
                                __global const int *restrict p,
                                __global const int *restrict q,
                                __global float *restrict out, const uint n)
{
    const uint t = get_global_id(0);
    if (t >= n)
        return;
    const uint i = (uint)job[t];
    out[i] = record_dot(rec[p[i]], rec[q[i]]);
}

/* ---- the graph-kernel loops (irr_loop.c): x' = add + mul * (A x), the
 * vector written every iteration.  PageRank: A[v][u] = 1/outdeg(u), add =
 * (1-d)/n, mul = d; the symmetric SpMV: add = 0, mul a fixed scale. ---- */
__kernel void spmv_csr_iter(__global const int *restrict rowptr,
                            __global const int *restrict col,
                            __global const float *restrict val,
                            __global const float *restrict x,
                            __global float *restrict y, const uint rows,
                            const float mul, const float add)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = add + mul * sum;
}

/* xp[k] = x[col[k]], gathered again every iteration (x is written). */
__kernel void spmv_csr_iter_redirect(__global const int *restrict rowptr,
                                     __global const float *restrict val,
                                     __global const float *restrict xp,
                                     __global float *restrict y,
                                     const uint rows, const float mul,
                                     const float add)
{
    const uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * xp[k];
    y[row] = add + mul * sum;
}
