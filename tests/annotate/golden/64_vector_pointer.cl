// dla-args: -DSINGLE_PRECISION
// dla-build: -DSINGLE_PRECISION
// SHOC MD's style: pointers to POSVECTYPE, a macro that is float4, each
// vector a record whose fields are its lanes: read whole, lane by lane,
// written whole and one lane; a swizzle of several lanes is declined
#ifdef SINGLE_PRECISION
#define POSVECTYPE float4
#define FORCEVECTYPE float4
#define FPTYPE float
#endif



#ifndef DLA_ASTA_OFF
/* dl-annotate: offset of part o (size z) of record i in ASTA(T) of M records
 * of S units; the tail tile of M%T records has width M%T (docs/layouts.md). */
#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + (o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + (i) % (T) * (z))
#endif
#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards.
 * The ids are bounded as ints (as in `int x = get_global_id(0)`): with an
 * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, which POCL's
 * vectoriser turns into gathers and scatters. */
#ifdef __clang__
#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && (int)get_global_id(d) >= (int)(e))
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
#ifndef DLA_LAYOUT_CHECK
/* dl-annotate: the transformed branch checks that the record is laid out as
 * when the file was annotated (a -D option may change it): a mismatch fails
 * the activated build, and the runtime runs the program as written. */
#define DLA_LAYOUT_CHECK(c, name) typedef char name[(c) ? 1 : -1]
#if defined(__clang__) || defined(__GNUC__)
#define DLA_OFFSETOF(T, f) __builtin_offsetof(T, f)
#else
#define DLA_OFFSETOF(T, f) ((size_t) & ((T *)0)->f)
#endif
#endif
#ifndef DLA_ASTA_TILED
/* dl-annotate: the same for the work-item's own record in the tiled range:
 * tile get_global_id(1), lane get_global_id(0). */
#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * (S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + get_global_id(0) * (z))
#endif
#ifndef DL_TILE_lj_force_force
#define DL_TILE_lj_force_force 32
#endif
#ifndef DL_TILE_lj_force_position
#define DL_TILE_lj_force_position 32
#endif
#ifdef DL_ACTIVE_lj_force
static void dla_store_lj_force_force(__global char *p, size_t i, size_t M, float4 r)
{
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_force, M, 16u, 0u, 4u)))[b] = ((__private uint *)&r)[0u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_force, M, 16u, 4u, 4u)))[b] = ((__private uint *)&r)[1u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_force, M, 16u, 8u, 4u)))[b] = ((__private uint *)&r)[2u + b];
    for (uint b = 0; b < 1u; b++)
        ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_force, M, 16u, 12u, 4u)))[b] = ((__private uint *)&r)[3u + b];
}
static float4 dla_load_lj_force_position(__global char *p, size_t i, size_t M)
{
    float4 r;
    (void)M;
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[0u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_position, M, 16u, 0u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[1u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_position, M, 16u, 4u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[2u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_position, M, 16u, 8u, 4u)))[b];
    for (uint b = 0; b < 1u; b++)
        ((__private uint *)&r)[3u + b] = ((__global uint *)(p + DLA_ASTA_OFF(i, DL_TILE_lj_force_position, M, 16u, 12u, 4u)))[b];
    return r;
}
#endif
//DL: v1 launch: tiled
//DL: v1 aos: force[inum] record(size=16; 0:4, 4:4, 8:4, 12:4) -> asta(auto)
//DL: v1 aos: position[inum] record(size=16; 0:4, 4:4, 8:4, 12:4) -> asta(auto)
__kernel void lj_force(__global FORCEVECTYPE *force,
                       __global const POSVECTYPE *position,
                       const int neighCount, __global const int *neighList,
                       const FPTYPE cutsq, const int inum)
{
#ifdef DL_ACTIVE_lj_force
DLA_LAYOUT_CHECK(sizeof(*force) == 16u, dla_layout_force_size_16);
DLA_LAYOUT_CHECK(sizeof(*position) == 16u, dla_layout_position_size_16);
#if DL_TILE_lj_force_force > 1 && DL_TILE_lj_force_force <= 1024 && DL_TILE_lj_force_position == DL_TILE_lj_force_force && !defined(DL_FLAT_lj_force)
/* dl-annotate: the tiled range, global (T, G/T): record i = get_global_id(1)*T + get_global_id(0) */
const size_t dla_M_force = (size_t)(long)(inum);
const size_t dla_M_position = (size_t)(long)(inum);

    uint idx = (get_global_id(1) * (size_t)(DL_TILE_lj_force_force) + get_global_id(0));
    POSVECTYPE ipos = dla_load_lj_force_position((__global char *)(position), (size_t)(idx), dla_M_position);
    FORCEVECTYPE f = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < neighCount; j++) {
        int jidx = neighList[j * inum + idx];
        FPTYPE delx = ipos.x - (*(__global float *)((__global char *)(position) + DLA_ASTA_OFF((size_t)(jidx), DL_TILE_lj_force_position, dla_M_position, 16u, 0u, 4u)));
        FPTYPE dely = ipos.y - (*(__global float *)((__global char *)(position) + DLA_ASTA_OFF((size_t)(jidx), DL_TILE_lj_force_position, dla_M_position, 16u, 4u, 4u)));
        FPTYPE r2 = delx * delx + dely * dely;
        if (r2 < cutsq)
            f.xy += (float2)(delx, dely) / r2;
    }
    dla_store_lj_force_force((__global char *)(force), (size_t)(idx), dla_M_force, (f));
    (*(__global float *)((__global char *)(force) + DLA_ASTA_TILED(DL_TILE_lj_force_force, dla_M_force, 16u, 12u, 4u))) = (*(__global float *)((__global char *)(position) + DLA_ASTA_TILED(DL_TILE_lj_force_position, dla_M_position, 16u, 12u, 4u)));

#else
#ifdef DL_GLOBAL_END_lj_force
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_lj_force);
#endif
const size_t dla_M_force = (size_t)(long)(inum);
const size_t dla_M_position = (size_t)(long)(inum);

    uint idx = get_global_id(0);
    POSVECTYPE ipos = dla_load_lj_force_position((__global char *)(position), (size_t)(idx), dla_M_position);
    FORCEVECTYPE f = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < neighCount; j++) {
        int jidx = neighList[j * inum + idx];
        FPTYPE delx = ipos.x - (*(__global float *)((__global char *)(position) + DLA_ASTA_OFF((size_t)(jidx), DL_TILE_lj_force_position, dla_M_position, 16u, 0u, 4u)));
        FPTYPE dely = ipos.y - (*(__global float *)((__global char *)(position) + DLA_ASTA_OFF((size_t)(jidx), DL_TILE_lj_force_position, dla_M_position, 16u, 4u, 4u)));
        FPTYPE r2 = delx * delx + dely * dely;
        if (r2 < cutsq)
            f.xy += (float2)(delx, dely) / r2;
    }
    dla_store_lj_force_force((__global char *)(force), (size_t)(idx), dla_M_force, (f));
    (*(__global float *)((__global char *)(force) + DLA_ASTA_OFF((size_t)(idx), DL_TILE_lj_force_force, dla_M_force, 16u, 12u, 4u))) = (*(__global float *)((__global char *)(position) + DLA_ASTA_OFF((size_t)(idx), DL_TILE_lj_force_position, dla_M_position, 16u, 12u, 4u)));

#endif
#else

    uint idx = get_global_id(0);
    POSVECTYPE ipos = position[idx];
    FORCEVECTYPE f = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < neighCount; j++) {
        int jidx = neighList[j * inum + idx];
        FPTYPE delx = ipos.x - position[jidx].x;
        FPTYPE dely = ipos.y - position[jidx].s1;
        FPTYPE r2 = delx * delx + dely * dely;
        if (r2 < cutsq)
            f.xy += (float2)(delx, dely) / r2;
    }
    force[idx] = f;
    force[idx].w = position[idx].w;

#endif
}

// DL: AoS: v[n] record(size=16; 0:4, 4:4, 8:4, 12:4)
__kernel void swizzle(__global float4 *v, int n)
{
    int i = get_global_id(0);
    if (i < n)
        v[i].xy = v[i].zw;
}
