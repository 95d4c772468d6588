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
//DL: v1 aos: a[n] record(size=28; 0:12, 12:12, 24:4) -> da
__kernel void shift(__global struct atom *a, int n)
{
#ifdef DL_ACTIVE_shift
DLA_LAYOUT_CHECK(sizeof(*a) == 28u, dla_layout_a_size_28);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct atom, pos) == 0u, dla_layout_a_pos_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct atom *)0)->pos) == 12u, dla_layout_a_pos_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct atom, q) == 12u, dla_layout_a_q_at_12);
DLA_LAYOUT_CHECK(sizeof(((struct atom *)0)->q) == 12u, dla_layout_a_q_size_12);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct atom, kind) == 24u, dla_layout_a_kind_at_24);
DLA_LAYOUT_CHECK(sizeof(((struct atom *)0)->kind) == 4u, dla_layout_a_kind_size_4);
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
