/* bad_annotations.cl - kernels whose annotations the runtime must reject
 * (each marked by a "rejected:" comment on the line before it; the test
 * expects a warning naming the annotation's line), next to one good
 * kernel.  Every kernel does the same work as particles.cl's `advance`; the
 * rejected ones must run as written, on the original layout. */

struct particle {
    float x;
    int id;
    long mass;
    short tag;
    uchar flag;
};

/* Byte offset of field (o, z) of record i of M records of S bytes stored
 * as ASTA(T), the tail tile of width M % T included (docs/layouts.md). */
size_t asta_offset(size_t i, size_t o, size_t z, size_t T, size_t M,
                   size_t S)
{
    size_t q = i / T;
    size_t w = q < M / T ? T : M % T;
    return q * T * S + o * w + (i % T) * z;
}

#define STEP_AOS(p, i)                                                         \
    do {                                                                       \
        p[i].x += dx;                                                          \
        p[i].id = (int)((uint)p[i].id * 3u + 1u);                              \
        p[i].mass += p[i].id;                                                  \
        p[i].tag += 1;                                                         \
        p[i].flag ^= 0x5a;                                                     \
    } while (0)

#define F(p, type, i, o, T, M)                                                 \
    (*(__global type *)((__global uchar *)(p) +                                \
                        asta_offset((i), (o), sizeof(type), (T), (M), 24)))
#define STEP_ASTA(p, i, T, M)                                                  \
    do {                                                                       \
        F(p, float, i, 0, T, M) += dx;                                         \
        F(p, int, i, 4, T, M) = (int)((uint)F(p, int, i, 4, T, M) * 3u + 1u);  \
        F(p, long, i, 8, T, M) += F(p, int, i, 4, T, M);                       \
        F(p, short, i, 16, T, M) += 1;                                         \
        F(p, uchar, i, 18, T, M) ^= 0x5a;                                      \
    } while (0)

#ifndef DL_TILE_good_step_p
#define DL_TILE_good_step_p 8
#endif
//DL: v1 aos: p[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void good_step(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_good_step
    STEP_ASTA(p, i, DL_TILE_good_step_p, (size_t)n);
#else
    STEP_AOS(p, i);
#endif
}

#ifndef DL_TILE_bad_syntax_p
#define DL_TILE_bad_syntax_p 8
#endif
/* rejected: the first ']' is missing */
//DL: v1 aos: p[n record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void bad_syntax(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_bad_syntax
    STEP_ASTA(p, i, DL_TILE_bad_syntax_p, (size_t)n);
#else
    STEP_AOS(p, i);
#endif
}

#ifndef DL_TILE_bad_arg_q
#define DL_TILE_bad_arg_q 8
#endif
/* rejected: the kernel has no argument q */
//DL: v1 aos: q[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void bad_arg(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_bad_arg
    STEP_ASTA(p, i, DL_TILE_bad_arg_q, (size_t)n);
#else
    STEP_AOS(p, i);
#endif
}

#ifndef DL_TILE_bad_record_p
#define DL_TILE_bad_record_p 8
#endif
/* rejected: the fields at 0 and 2 overlap */
//DL: v1 aos: p[n] record(size=24; 0:4, 2:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void bad_record(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_bad_record
    STEP_ASTA(p, i, DL_TILE_bad_record_p, (size_t)n);
#else
    STEP_AOS(p, i);
#endif
}

#ifndef DL_TILE_oversize_p
#define DL_TILE_oversize_p 8
#endif
/* Well formed, but it claims twice as many records as the buffer holds:
 * the runtime can only tell at the launch, and must then run the kernel
 * untransformed (scenario `oversize`). */
//DL: v1 aos: p[n * 2] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void oversize(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_oversize
    STEP_ASTA(p, i, DL_TILE_oversize_p, (size_t)n * 2);
#else
    STEP_AOS(p, i);
#endif
}
