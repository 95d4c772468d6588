/* layout.cl - the layout microbenchmark of the DL paper's Figure 1: work-item
 * i sums the S float fields of record i of `in` and writes the sum into
 * every field of record i of `out`, once for each layout.  S is a build
 * option (-D S=...), so every loop has a constant trip count and unrolls.
 *
 * Each kernel is written the way its layout is best written for a device
 * that vectorises across work-items (POCL) or coalesces them (GPUs):
 *   AoS      record i at in[i*S + s]: one work-item per record;
 *   DA       field s at in[s*M + i]: consecutive items, consecutive words;
 *   ASTA(T)  a 2-D range (T, M/T): dimension 0 is the lane inside a tile,
 *            so the index (tile*S + s)*T + lane is unit-stride in the fast
 *            dimension with no division (the flat form i/T, i%T is what
 *            compilers fail to vectorise).
 *   ASTA(T), vector form: one work-item per W = min(T, 16) lanes of a
 *            tile, with floatW loads and stores (vloadW/vstoreW): explicit
 *            SIMD for devices whose compiler does not vectorise the 2-D
 *            form well (POCL ran the 2-D form with T = 4 up to 25x slower
 *            than with T = 64).  The host times both forms and reports the
 *            faster one for each T.
 * M is a multiple of every tile and of the work-group size (the host
 * checks), so no kernel needs a bounds test. */
#ifndef S
#error "build with -D S=<fields per record>"
#endif

__kernel void layout_aos(__global const float *restrict in,
                         __global float *restrict out)
{
    size_t base = get_global_id(0) * S;
    float sum = 0.0f;
#pragma unroll
    for (int s = 0; s < S; s++)
        sum += in[base + s];
#pragma unroll
    for (int s = 0; s < S; s++)
        out[base + s] = sum;
}

__kernel void layout_da(__global const float *restrict in,
                        __global float *restrict out, uint m)
{
    size_t i = get_global_id(0);
    float sum = 0.0f;
#pragma unroll
    for (int s = 0; s < S; s++)
        sum += in[(size_t)s * m + i];
#pragma unroll
    for (int s = 0; s < S; s++)
        out[(size_t)s * m + i] = sum;
}

/* One kernel per tile, so that one build per S serves every T. */
#define LAYOUT_ASTA(T)                                                      \
    __kernel void layout_asta_##T(__global const float *restrict in,        \
                                  __global float *restrict out)             \
    {                                                                       \
        size_t base = get_global_id(1) * (S * T) + get_global_id(0);        \
        float sum = 0.0f;                                                   \
        _Pragma("unroll") for (int s = 0; s < S; s++)                       \
            sum += in[base + (size_t)s * T];                                \
        _Pragma("unroll") for (int s = 0; s < S; s++)                       \
            out[base + (size_t)s * T] = sum;                                \
    }

LAYOUT_ASTA(4)
LAYOUT_ASTA(8)
LAYOUT_ASTA(16)
LAYOUT_ASTA(32)
LAYOUT_ASTA(64)

/* W lanes of one tile per work-item (W = T for T <= 16, else 16). */
#define LAYOUT_ASTA_VEC(T, W)                                               \
    __kernel void layout_astav_##T(__global const float *restrict in,       \
                                   __global float *restrict out)            \
    {                                                                       \
        size_t g = get_global_id(0);                                        \
        size_t base = g / (T / W) * (S * T) + g % (T / W) * W;              \
        float##W sum = (float##W)(0.0f);                                    \
        _Pragma("unroll") for (int s = 0; s < S; s++)                       \
            sum += vload##W(0, in + base + (size_t)s * T);                  \
        _Pragma("unroll") for (int s = 0; s < S; s++)                       \
            vstore##W(sum, 0, out + base + (size_t)s * T);                  \
    }

LAYOUT_ASTA_VEC(4, 4)
LAYOUT_ASTA_VEC(8, 8)
LAYOUT_ASTA_VEC(16, 16)
LAYOUT_ASTA_VEC(32, 16)
LAYOUT_ASTA_VEC(64, 16)
