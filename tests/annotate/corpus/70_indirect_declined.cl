// dla-args:
// indirect references dl-annotate declines, each with its reason: row
// loops it cannot prove (a step of two, bounds the kernel writes, a
// bound set twice, a bound that is no array element; the plain CSR loop
// is accepted: 75_indirect_csr), an index squared, an index through a
// function, a variable that is not the global id, an index buffer the
// kernel writes, and written references (declined for now)
int twice(int v) { return 2 * v; }

__kernel void csr(__global int *rowptr, __global const int *rp,
                  __global const int *col, __global const int *perm,
                  __global const int *q, __global const int *u,
                  __global const float *x, __global float *y, int n)
{
    size_t row = get_global_id(0);
    float s = 0.0f;
    for (int k = rp[row]; k < rp[row + 1]; k += 2)
        s += x[col[k]];
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += x[perm[k]];
    int end = rp[row + 1];
    end = end > n ? n : end;
    for (int k = rp[row]; k < end; k++)
        s += x[q[k]];
    for (int k = (int)row; k < rp[row + 1]; k++)
        s += x[u[k]];
    y[row] = s;
    rowptr[row] = 0;
}

__kernel void odd(__global const float *x, __global const int *p,
                  __global const int *q, __global const int *r,
                  __global float *y, int shift)
{
    int i = get_global_id(0);
    int h = i / 2;
    y[i] = x[p[i * i]] + x[q[twice(i)]] + x[r[h + shift]];
}

__kernel void writes(__global float *x, __global int *p,
                     __global const int *q, __global float *y)
{
    int i = get_global_id(0);
    y[i] = x[p[i]];
    p[i] = 0;
    x[q[i]] = 1.0f;
    x[q[i] + 1] += 2.0f;
}
