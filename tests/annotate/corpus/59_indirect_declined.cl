// dla-args:
// indirect references dl-annotate declines, each with its reason: CSR
// (the loop starts at rowptr[row]), an index squared, an index through
// a function, a variable that is not the global id, an index buffer the
// kernel writes, and written references (declined for now)
int twice(int v) { return 2 * v; }

__kernel void csr(__global const int *rowptr, __global const int *col,
                  __global const float *x, __global float *y)
{
    size_t row = get_global_id(0);
    float s = 0.0f;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++)
        s += x[col[k]];
    y[row] = s;
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
