/* calib_access.cl - the device calibration's access kernels (runtime/
 * tuner_measure.c, docs/tuning.md).
 *
 * Each kernel reads every field of its record and writes every field
 * back, like one step of a stencil over records of S floats, with the
 * record's index in one layout of the ASTA(T) family.  S and T are
 * literals, so the device compiler sees what an activated kernel shows it
 * (the annotator's index forms), and no bounds guard: the global size is
 * exactly the record count, a multiple of every tile. */

#define CALIB_IDX_AOS(S, T, i, s, n) ((i) * (S) + (s))
#define CALIB_IDX_DA(S, T, i, s, n) ((s) * (n) + (i))
#define CALIB_IDX_ASTA(S, T, i, s, n) ((((i) / (T)) * (S) + (s)) * (T) + (i) % (T))

#define CALIB_KERNEL(NAME, IDX, S, T)                                       \
    __kernel void NAME(__global float *p, const uint n, const float a)      \
    {                                                                       \
        const size_t i = get_global_id(0);                                  \
        float sum = 0.0f;                                                   \
        for (size_t s = 0; s < (S); s++)                                    \
            sum += p[IDX(S, T, i, s, n)];                                   \
        for (size_t s = 0; s < (S); s++) {                                  \
            const size_t k = IDX(S, T, i, s, n);                            \
            p[k] = p[k] * a + sum;                                          \
        }                                                                   \
    }

/* Names: calib_<S>_aos, calib_<S>_da, calib_<S>_t<T>; tuner_measure.c
 * lists the same sizes and tiles. */
#define CALIB_SIZE(S)                                                       \
    CALIB_KERNEL(calib_##S##_aos, CALIB_IDX_AOS, S, 1)                      \
    CALIB_KERNEL(calib_##S##_da, CALIB_IDX_DA, S, 1)                        \
    CALIB_KERNEL(calib_##S##_t8, CALIB_IDX_ASTA, S, 8)

/* Two record sizes and one tile: each kernel costs POCL about 140 ms to
 * compile the first time (a third size and ASTA(4) made the first
 * calibration 0.85 s longer). */
CALIB_SIZE(4)
CALIB_SIZE(19)
