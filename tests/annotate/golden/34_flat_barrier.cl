// dla-args: --layout asta --tile 8
// flat ASTA only: a barrier synchronises a work-group
struct q { float a, b; };

#ifndef DLA_ASTA_OFF
/* dl-annotate: offset of part o (size z) of record i in ASTA(T) of M records
 * of S units; the tail tile of M%T records has width M%T (docs/layouts.md). */
#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + (o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + (i) % (T) * (z))
#endif
#ifndef DL_TILE_sync_step_p
#define DL_TILE_sync_step_p 8
#endif
//DL: v1 aos: p[n] record(size=8; 0:4, 4:4) -> asta(8)
__kernel void sync_step(__global struct q *p, int n)
{
#ifdef DL_ACTIVE_sync_step
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n)
        (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 0u, 4u))) *= 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 4u, 4u))) += (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_sync_step_p, dla_M_p, 8u, 0u, 4u)));

#else

    int i = get_global_id(0);
    if (i < n)
        p[i].a *= 2.0f;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i < n)
        p[i].b += p[i].a;

#endif
}
