/* shapes.cl - record counts that are not a scalar argument: a 2D launch
 * whose count is global_size(1) * global_size(0), and a scalar array of
 * 3 floats per record (`v[rows][3]`, no record(...) needed). */
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

#define ASTA_FIELD(base, type, i, o, T, M, S)                                  \
    (*(__global type *)((__global uchar *)(base) +                             \
                        asta_offset((i), (o), sizeof(type), (T), (M), (S))))

#ifndef DL_TILE_shift2d_p
#define DL_TILE_shift2d_p 8
#endif
/* record y * width + x of a width x height grid */
//DL: v1 aos: p[global_size(1)][global_size(0)] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(8)
__kernel void shift2d(__global struct particle *p)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
#ifdef DL_ACTIVE_shift2d
    size_t m = get_global_size(1) * get_global_size(0);
#define P(type, o) ASTA_FIELD(p, type, i, o, DL_TILE_shift2d_p, m, 24)
    P(float, 0) += (float)get_global_id(1);
    P(int, 4) += (int)get_global_id(0);
    P(uchar, 18) ^= 0x0f;
#undef P
#else
    p[i].x += (float)get_global_id(1);
    p[i].id += (int)get_global_id(0);
    p[i].flag ^= 0x0f;
#endif
}

/* rows records of 3 floats: v[3 * r + f] is field f of record r */
//DL: v1 aos: v[rows][3] -> da
__kernel void scale_rows(__global float *v, int rows)
{
    size_t r = get_global_id(0);
    if (r >= (size_t)rows)
        return;
#ifdef DL_ACTIVE_scale_rows
#define V(f) ASTA_FIELD(v, float, r, 4 * (f), (size_t)rows, (size_t)rows, 12)
    V(0) = V(0) * 2.0f;
    V(1) = V(1) + V(2);
    V(2) = -V(2);
#undef V
#else
    v[3 * r] = v[3 * r] * 2.0f;
    v[3 * r + 1] = v[3 * r + 1] + v[3 * r + 2];
    v[3 * r + 2] = -v[3 * r + 2];
#endif
}
