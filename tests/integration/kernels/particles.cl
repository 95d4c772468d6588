/* particles.cl - kernels of the integration programs, annotated by hand in
 * the full form that dl-annotate writes (docs/annotations.md).  Without
 * dlayout every kernel runs the original AoS code.  When the runtime
 * transforms a kernel it defines DL_ACTIVE_<kernel> (and the tile in
 * DL_TILE_<kernel>_<arg>), and the kernel indexes the layout named after
 * the annotation's "->".
 *
 * The record has fields of 4, 4, 8, 2 and 1 bytes and 5 bytes of padding:
 * record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1). */

struct particle {
    float x;     /*  0:4 */
    int id;      /*  4:4 */
    long mass;   /*  8:8 */
    short tag;   /* 16:2 */
    uchar flag;  /* 18:1 */
};

/* Byte offset of the field at byte `o` (size `z`) of record `i` when `M`
 * records of `S` bytes are stored as ASTA(T) (docs/layouts.md): tiles of
 * width T, and a last tile of width M % T when T does not divide M.  DA
 * is ASTA(M). */
size_t asta_offset(size_t i, size_t o, size_t z, size_t T, size_t M,
                   size_t S)
{
    size_t q = i / T;
    size_t w = q < M / T ? T : M % T;
    return q * T * S + o * w + (i % T) * z;
}

#define ASTA_FIELD(base, type, i, o, T, M)                                     \
    (*(__global type *)((__global uchar *)(base) +                             \
                        asta_offset((i), (o), sizeof(type), (T), (M), 24)))

#ifndef DL_TILE_advance_p
#define DL_TILE_advance_p 8
#endif

/* One time step: moves every particle and updates its bookkeeping.  The
 * kernel wants ASTA(8); it runs on n records, whatever the global size. */
//DL: v1 aos: p[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void advance(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_advance
#define P(type, o) ASTA_FIELD(p, type, i, o, DL_TILE_advance_p, (size_t)n)
    P(float, 0) += dx;
    P(int, 4) = (int)((uint)P(int, 4) * 3u + 1u);
    P(long, 8) += P(int, 4);
    P(short, 16) += 1;
    P(uchar, 18) ^= 0x5a;
#undef P
#else
    p[i].x += dx;
    p[i].id = (int)((uint)p[i].id * 3u + 1u);
    p[i].mass += p[i].id;
    p[i].tag += 1;
    p[i].flag ^= 0x5a;
#endif
}

/* Another pass over the same buffer that wants DA; one record per
 * work-item of the whole global size. */
//DL: v1 aos: p[global_size(0)] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> da
__kernel void settle(__global struct particle *p)
{
    size_t i = get_global_id(0);
#ifdef DL_ACTIVE_settle
    size_t m = get_global_size(0);
#define P(type, o) ASTA_FIELD(p, type, i, o, m, m)
    P(float, 0) = -P(float, 0);
    P(int, 4) ^= 0x55aa;
    P(long, 8) -= P(short, 16);
    P(uchar, 18) += 1;
#undef P
#else
    p[i].x = -p[i].x;
    p[i].id ^= 0x55aa;
    p[i].mass -= p[i].tag;
    p[i].flag += 1;
#endif
}

/* Not annotated: reads the buffer raw, as the AoS structs the host wrote,
 * so dlayout must give it the original layout. */
__kernel void census(__global const struct particle *p, __global uint *out,
                     int n)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
    out[i] = as_uint(p[i].x) ^ (uint)p[i].id ^ (uint)p[i].mass ^
             ((uint)(ushort)p[i].tag << 8) ^ ((uint)p[i].flag << 24);
}

/* Not annotated: (re)writes the fields of n records from their index. */
__kernel void seed(__global struct particle *p, int n, int base)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
    p[i].x = (float)(i % 1000) / 4.0f;
    p[i].id = base + (int)i;
    p[i].mass = (long)i * 1000003L;
    p[i].tag = (short)(i * 3);
    p[i].flag = (uchar)i;
}
