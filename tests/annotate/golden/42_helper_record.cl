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
#ifndef DL_TILE_k_p
#define DL_TILE_k_p 32
#endif
#ifdef DL_ACTIVE_k
float dla_k_p_energy(__global const struct particle *q, size_t dla_x_q, size_t dla_M_p) { return (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_k_p, dla_M_p, 20u, 8u, 4u)))*(*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_k_p, dla_M_p, 20u, 8u, 4u))) + (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_k_p, dla_M_p, 20u, 12u, 4u)))*(*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_k_p, dla_M_p, 20u, 12u, 4u))); }
float dla_k_p_energy_at(__global const struct particle *p, size_t dla_x_p, size_t dla_M_p, int i) { return (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((dla_x_p + (size_t)(i)), DL_TILE_k_p, dla_M_p, 20u, 8u, 4u))); }
#endif
//DL: v1 aos: p[n] record(size=20; 0:4, 4:4, 8:4, 12:4, 16:4) -> asta(auto)
__kernel void k(__global struct particle *p, int n)
{
#ifdef DL_ACTIVE_k
DLA_LAYOUT_CHECK(sizeof(*p) == 20u, dla_layout_p_size_20);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, x) == 0u, dla_layout_p_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->x) == 4u, dla_layout_p_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, y) == 4u, dla_layout_p_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->y) == 4u, dla_layout_p_y_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, vx) == 8u, dla_layout_p_vx_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->vx) == 4u, dla_layout_p_vx_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, vy) == 12u, dla_layout_p_vy_at_12);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->vy) == 4u, dla_layout_p_vy_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, e) == 16u, dla_layout_p_e_at_16);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->e) == 4u, dla_layout_p_e_size_4);
#ifdef DL_GLOBAL_END_k
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_k);
#endif
const size_t dla_M_p = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) (*(__global float *)((__global char *)(p) + DLA_ASTA_OFF((size_t)(i), DL_TILE_k_p, dla_M_p, 20u, 16u, 4u))) = dla_k_p_energy(p, (size_t)(i), dla_M_p) + dla_k_p_energy_at(p, (size_t)(0), dla_M_p, i);

#else

    int i = get_global_id(0);
    if (i < n) p[i].e = energy(&p[i]) + energy_at(p, i);

#endif
}

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
#ifndef DL_TILE_move_b
#define DL_TILE_move_b 32
#endif
#ifdef DL_ACTIVE_move
static inline void dla_move_b_push(__global struct particle *q, size_t dla_x_q, size_t dla_M_b, float dt)
{
    (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 0u, 4u))) += (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 8u, 4u))) * dt;
    (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 4u, 4u))) += (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 12u, 4u))) * dt;
}
float dla_move_b_energy(__global const struct particle *q, size_t dla_x_q, size_t dla_M_b) { return (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 8u, 4u)))*(*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 8u, 4u))) + (*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 12u, 4u)))*(*(__global float *)((__global char *)(q) + DLA_ASTA_OFF((size_t)(dla_x_q), DL_TILE_move_b, dla_M_b, 20u, 12u, 4u))); }
#endif
//DL: v1 aos: b[n] record(size=20; 0:4, 4:4, 8:4, 12:4, 16:4) -> asta(auto)
__kernel void move(__global struct particle *b, float dt, int n)
{
#ifdef DL_ACTIVE_move
DLA_LAYOUT_CHECK(sizeof(*b) == 20u, dla_layout_b_size_20);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, x) == 0u, dla_layout_b_x_at_0);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->x) == 4u, dla_layout_b_x_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, y) == 4u, dla_layout_b_y_at_4);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->y) == 4u, dla_layout_b_y_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, vx) == 8u, dla_layout_b_vx_at_8);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->vx) == 4u, dla_layout_b_vx_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, vy) == 12u, dla_layout_b_vy_at_12);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->vy) == 4u, dla_layout_b_vy_size_4);
DLA_LAYOUT_CHECK(DLA_OFFSETOF(struct particle, e) == 16u, dla_layout_b_e_at_16);
DLA_LAYOUT_CHECK(sizeof(((struct particle *)0)->e) == 4u, dla_layout_b_e_size_4);
#ifdef DL_GLOBAL_END_move
DLA_ASSUME_GLOBAL_END(DL_GLOBAL_END_move);
#endif
const size_t dla_M_b = (size_t)(long)(n);

    int i = get_global_id(0);
    if (i < n) {
        const size_t dla_i_me = (size_t)(i);
        dla_move_b_push(b, (size_t)(dla_i_me), dla_M_b, dt);
        (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(i), DL_TILE_move_b, dla_M_b, 20u, 16u, 4u))) = dla_move_b_energy(b, (size_t)(i), dla_M_b) + (*(__global float *)((__global char *)(b) + DLA_ASTA_OFF((size_t)(dla_i_me), DL_TILE_move_b, dla_M_b, 20u, 0u, 4u)));
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
