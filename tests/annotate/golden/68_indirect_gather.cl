// dla-args:
// indirect references through index buffers: A[P[i]], a field of a
// record A[P[i]].y, an offset A[P[i] + 1] and A[P[i] - n], one array
// through two index buffers, one index buffer for two arrays; the same
// reference twice is annotated once
struct atom { float x, y, z, w; };

//DL: v1 indirect: read x[col[gid]]
//DL: v1 indirect: read x[perm[gid]]
//DL: v1 indirect: read w[col[gid]]
//DL: v1 indirect: read x[col[gid] + 1]
//DL: v1 indirect: read x[col[gid] - n]
//DL: v1 indirect: read a[perm[gid]] record(size=16; 4:4)
//DL: v1 indirect: read a[col[2 * gid + 1]] record(size=16; 12:4)
//DL: v1 launch: chunks
#ifdef DL_JOBSWAP_gather
#define get_global_id(d) \
    ((d) == 0 ? (size_t)dl_job[get_global_id(0)] : get_global_id(d))
#endif
__kernel void gather(__global const float *x, __global const float *w,
                     __global const int *col, __global const uint *perm,
                     __global const struct atom *a, __global float *out,
                     int n
#ifdef DL_ACTIVE_gather
, __global const float *dl_gather_x_col
, __global const float *dl_gather_x_perm
, __global const float *dl_gather_w_col
, __global const float *dl_gather_x_col_2
, __global const float *dl_gather_x_col_3
, __global const struct atom *dl_gather_a_perm
, __global const struct atom *dl_gather_a_col
#endif
#ifdef DL_JOBSWAP_gather
, __global const uint *dl_job
#endif
)
{
#ifdef DL_ACTIVE_gather

    int i = get_global_id(0);
    float s = dl_gather_x_col[i] + dl_gather_x_perm[i] + dl_gather_w_col[i];
    s += dl_gather_x_col_2[i] - dl_gather_x_col_3[i] + dl_gather_x_col[i];
    s += dl_gather_a_perm[i].y * dl_gather_a_perm[get_global_id(0)].y;
    out[i] = s + dl_gather_a_col[2 * i + 1].w;

#else

    int i = get_global_id(0);
    float s = x[col[i]] + x[perm[i]] + w[col[i]];
    s += x[col[i] + 1] - x[col[i] - n] + x[col[i]];
    s += a[perm[i]].y * a[perm[get_global_id(0)]].y;
    out[i] = s + a[col[2 * i + 1]].w;

#endif
}
#ifdef DL_JOBSWAP_gather
#undef get_global_id
#endif
