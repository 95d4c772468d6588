// dla-args:
// a nested struct and an array inside the record
struct vec3 { float x, y, z; };
struct atom { struct vec3 pos; float q[3]; int kind; };

#ifndef DLA_ASSUME_GLOBAL_END
/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as e0,e1,e2 when it
 * builds the variant for launches whose global range ends at or before e in
 * every dimension: the compiler may then drop the kernel's bounds guards. */
#ifdef __clang__
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (get_global_id(0) >= (e0) || get_global_id(1) >= (e1) || get_global_id(2) >= (e2)) __builtin_unreachable()
#else
#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)
#endif
#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)
#endif
//DL: v1 aos: a[n] record(size=28; 0:12, 12:12, 24:4) -> da
__kernel void shift(__global struct atom *a, int n)
{
#ifdef DL_ACTIVE_shift
#ifdef DL_GLOBAL_END_shift
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_shift);
#endif
const size_t dla_M_a = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < 3; k++)
            s += ((__global float *)((__global char *)(a) + 12u * dla_M_a + (size_t)(i) * 12u))[k];
        (*(__global float *)((__global char *)(a) + 0u * dla_M_a + (size_t)(i) * 12u)) += s;
        (*(__global float *)((__global char *)(a) + 0u * dla_M_a + (size_t)(i) * 12u + 8u)) = (*(__global float *)((__global char *)(a) + 0u * dla_M_a + (size_t)(i) * 12u + 4u)) * (float)((__global int *)((__global char *)(a) + 24u * dla_M_a))[(size_t)(i)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < 3; k++)
            s += a[i].q[k];
        a[i].pos.x += s;
        a[i].pos.z = a[i].pos.y * (float)a[i].kind;
    }

#endif
}
