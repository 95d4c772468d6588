/* a record defined in a header reached with -I */
#ifndef PARTICLE_H
#define PARTICLE_H
typedef struct {
    float4 pos;
    float charge;
} particle_t;
#define DAMP 0.5f
#endif
