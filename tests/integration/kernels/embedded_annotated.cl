/* embedded_annotated.cl - the source that scn_embedded.c embeds, annotated
 * and rewritten by hand as dl-annotate would (ASTA(16) this time).  The
 * integration-inject test puts it into DL_INJECT_DIR under the name that
 * DL_DUMP_DIR gave the embedded source. */
struct particle { float x; int id; long mass; short tag; uchar flag; };

size_t asta_offset(size_t i, size_t o, size_t z, size_t T, size_t M,
                   size_t S)
{
    size_t q = i / T;
    size_t w = q < M / T ? T : M % T;
    return q * T * S + o * w + (i % T) * z;
}

#ifndef DL_TILE_advance_p
#define DL_TILE_advance_p 16
#endif
//DL: v1 aos: p[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> asta(16)
__kernel void advance(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
#ifdef DL_ACTIVE_advance
#define P(type, o)                                                             \
    (*(__global type *)((__global uchar *)p +                                  \
                        asta_offset(i, o, sizeof(type), DL_TILE_advance_p,     \
                                    (size_t)n, 24)))
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
