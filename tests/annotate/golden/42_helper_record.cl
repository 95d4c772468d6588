// dla-args:
// helpers of the source: a record pointer (&p[i], p + i, an alias) and
// the base pointer with an index; a copy per kernel and argument, the
// original helpers untouched (two kernels use them)
struct particle { float x, y, vx, vy, e; };

float energy(__global const struct particle *q) { return q->vx*q->vx + q->vy*q->vy; }
float energy_at(__global const struct particle *p, int i) { return p[i].vx; }

static inline void push(__global struct particle *q, float dt)
{
    q->x += q->vx * dt;
    q->y += q->vy * dt;
}

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
#ifdef DL_ACTIVE_k
float dla_k_p_energy(__global const struct particle *q, size_t dla_x_q, size_t dla_M_p) { return ((__global float *)((__global char *)(q) + 8u * dla_M_p))[(size_t)(dla_x_q)]*((__global float *)((__global char *)(q) + 8u * dla_M_p))[(size_t)(dla_x_q)] + ((__global float *)((__global char *)(q) + 12u * dla_M_p))[(size_t)(dla_x_q)]*((__global float *)((__global char *)(q) + 12u * dla_M_p))[(size_t)(dla_x_q)]; }
float dla_k_p_energy_at(__global const struct particle *p, size_t dla_x_p, size_t dla_M_p, int i) { return ((__global float *)((__global char *)(p) + 8u * dla_M_p))[(dla_x_p + (size_t)(i))]; }
#endif
//DL: v1 aos: p[n] record(size=20; 0:4, 4:4, 8:4, 12:4, 16:4) -> da
__kernel void k(__global struct particle *p, int n)
{
#ifdef DL_ACTIVE_k
#ifdef DL_GLOBAL_END_k
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_k);
#endif
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) ((__global float *)((__global char *)(p) + 16u * dla_M_p))[(size_t)(i)] = dla_k_p_energy(p, (size_t)(i), dla_M_p) + dla_k_p_energy_at(p, (size_t)(0), dla_M_p, i);

#else

    int i = get_global_id(0);
    if (i < n) p[i].e = energy(&p[i]) + energy_at(p, i);

#endif
}

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
#ifdef DL_ACTIVE_move
static inline void dla_move_b_push(__global struct particle *q, size_t dla_x_q, size_t dla_M_b, float dt)
{
    ((__global float *)((__global char *)(q) + 0u * dla_M_b))[(size_t)(dla_x_q)] += ((__global float *)((__global char *)(q) + 8u * dla_M_b))[(size_t)(dla_x_q)] * dt;
    ((__global float *)((__global char *)(q) + 4u * dla_M_b))[(size_t)(dla_x_q)] += ((__global float *)((__global char *)(q) + 12u * dla_M_b))[(size_t)(dla_x_q)] * dt;
}
float dla_move_b_energy(__global const struct particle *q, size_t dla_x_q, size_t dla_M_b) { return ((__global float *)((__global char *)(q) + 8u * dla_M_b))[(size_t)(dla_x_q)]*((__global float *)((__global char *)(q) + 8u * dla_M_b))[(size_t)(dla_x_q)] + ((__global float *)((__global char *)(q) + 12u * dla_M_b))[(size_t)(dla_x_q)]*((__global float *)((__global char *)(q) + 12u * dla_M_b))[(size_t)(dla_x_q)]; }
#endif
//DL: v1 aos: b[n] record(size=20; 0:4, 4:4, 8:4, 12:4, 16:4) -> da
__kernel void move(__global struct particle *b, float dt, int n)
{
#ifdef DL_ACTIVE_move
#ifdef DL_GLOBAL_END_move
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_move);
#endif
const size_t dla_M_b = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        const size_t dla_i_me = (size_t)(i);
        dla_move_b_push(b, (size_t)(dla_i_me), dla_M_b, dt);
        ((__global float *)((__global char *)(b) + 16u * dla_M_b))[(size_t)(i)] = dla_move_b_energy(b, (size_t)(i), dla_M_b) + ((__global float *)((__global char *)(b) + 0u * dla_M_b))[(size_t)(dla_i_me)];
    }

#else

    int i = get_global_id(0);
    if (i < n) {
        __global struct particle *me = &b[i];
        push(me, dt);
        b[i].e = energy(b + i) + me->x;
    }

#endif
}
