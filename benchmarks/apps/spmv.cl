/* spmv.cl - y = A x for a sparse matrix in ELL format, row-major.
 *
 * The matrix has ROWS rows and at most K non-zeros per row.  Row r owns the
 * K consecutive slots r*K .. r*K+K-1 of two arrays: val (the values) and
 * col (their column numbers); a row with fewer non-zeros is padded with
 * value 0.0f (column r).  Seen as records, val and col are arrays of ROWS
 * records of K elements each (record stride K).
 *
 * One work-item per row; the K products are summed in slot order, so the
 * result does not depend on the work-group size or the device's thread
 * count.
 *
 * Build options: -DROWS=.. -DK=.. */

__kernel void spmv_ell(__global const float *restrict val,
                       __global const int *restrict col,
                       __global const float *restrict x,
                       __global float *restrict y)
{
    const int row = get_global_id(0);
    if (row >= ROWS)
        return;
    float sum = 0.0f;
    for (int j = 0; j < K; j++)
        sum += val[row * K + j] * x[col[row * K + j]];
    y[row] = sum;
}
