// dla-args:
// p[i].f, the count from the guard `if (i < n)`
struct particle { float x, y, z; float mass; };

//DL: v1 aos: p[n] record(size=16; 0:4, 4:4, 8:4, 12:4) -> da
__kernel void scale(__global struct particle *p, float s, int n)
{
#ifdef DL_ACTIVE_scale
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        ((__global float *)((__global char *)(p) + 0u * dla_M_p))[(size_t)(i)] *= s;
        ((__global float *)((__global char *)(p) + 4u * dla_M_p))[(size_t)(i)] *= s;
        ((__global float *)((__global char *)(p) + 8u * dla_M_p))[(size_t)(i)] = ((__global float *)((__global char *)(p) + 8u * dla_M_p))[(size_t)(i)] * s + ((__global float *)((__global char *)(p) + 12u * dla_M_p))[(size_t)(i)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        p[i].x *= s;
        p[i].y *= s;
        p[i].z = p[i].z * s + p[i].mass;
    }

#endif
}
