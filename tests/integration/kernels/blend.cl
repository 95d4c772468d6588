/* blend.cl - a kernel with two annotated buffer arguments (the particle
 * record of particles.cl), for scenario `alias`: launched on two buffers
 * it gets both marshaled; launched with one buffer for both arguments,
 * dlayout must run it as written. */
struct particle {
    float x;
    int id;
    long mass;
    short tag;
    uchar flag;
};

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

#ifndef DL_TILE_blend_dst
#define DL_TILE_blend_dst 8
#endif
#ifndef DL_TILE_blend_src
#define DL_TILE_blend_src 4
#endif
/* dst[i].mass += src[i].id; dst[i].tag ^= src[i].tag */
//DL: v1 aos: dst[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
//DL: v1 aos: src[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(4)
__kernel void blend(__global struct particle *dst,
                    __global const struct particle *src, int n)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_blend
#define D(type, o) ASTA_FIELD(dst, type, i, o, DL_TILE_blend_dst, (size_t)n)
#define S(type, o) ASTA_FIELD(src, type, i, o, DL_TILE_blend_src, (size_t)n)
    D(long, 8) += S(int, 4);
    D(short, 16) ^= S(short, 16);
#undef D
#undef S
#else
    dst[i].mass += src[i].id;
    dst[i].tag ^= src[i].tag;
#endif
}
