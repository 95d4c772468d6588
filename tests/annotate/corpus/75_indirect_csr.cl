// dla-args:
// CSR sparse matrix-vector products, one row per work-item: the row's
// loop runs between two entries of the row-pointer array, so the column
// index is no affine function of the row, yet x[col[k]] can read a
// gathered copy at the same k.  Three spellings: bounds read in the
// loop header, bounds kept in locals first (as SHOC's Spmv does), and a
// second array read through the same column index with an offset.
__kernel void spmv_csr(__global const float *val, __global const int *col,
                       __global const int *rowptr, __global const float *x,
                       __global float *y, int rows)
{
    int row = get_global_id(0);
    if (row >= rows)
        return;
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += val[k] * x[col[k]];
    y[row] = s;
}

__kernel void spmv_locals(__global const float *val,
                          __global const uint *cols,
                          __global const uint *delims,
                          __global const float *vec, __global float *out)
{
    size_t my_row = get_global_id(0);
    const uint start = delims[my_row];
    const uint end = delims[my_row + 1];
    float t = 0.0f;
    for (uint j = start; j < end; ++j)
        t += val[j] * vec[cols[j]];
    out[my_row] = t;
}

__kernel void two_arrays(__global const int *rowptr, __global const int *col,
                         __global const float *x, __global const float *w,
                         __global float *y)
{
    int i = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[2 * i]; k < rowptr[2 * i + 1]; k++)
        s += x[col[k]] * w[col[k] + 1];
    y[i] = s;
}
