/* copy.cl - the plain copy kernel dl-bench compares every conversion with
 * (besides clEnqueueCopyBuffer).  Copies nbytes from src to dst, one
 * 16-byte vector per work-item; work-item 0 also copies the (< 16 byte)
 * tail.  OpenCL buffers are aligned far beyond 16 bytes.
 *
 * One vector per item, no loop: POCL turns the work-group into a
 * vectorised loop over the items.  Grid-stride and chunk-per-group loops
 * ran 10x slower on POCL 3.1 (benchmarks/README.md). */
__kernel void bench_copy(__global const uchar *restrict src,
                         __global uchar *restrict dst, ulong nbytes)
{
    ulong n = nbytes / 16, i = get_global_id(0);
    if (i < n)
        ((__global uint4 *)dst)[i] = ((__global const uint4 *)src)[i];
    if (i == 0)
        for (ulong b = n * 16; b < nbytes; b++)
            dst[b] = src[b];
}
