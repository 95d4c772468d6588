/* irr_workload.c - building a workload of `dl-bench irregular`: its
 * buffers and kernel arguments, and the seeded generator every
 * irr_gen_*.c draws from. */
#include "irr_workload.h"

#include <stdlib.h>

int irr_add_buf(irr_workload *w, void *host, size_t bytes)
{
    w->bufs[w->nbufs] = (irr_buf){host, bytes};
    return w->nbufs++;
}

void irr_plain_arg(irr_workload *w, int buf, unsigned value)
{
    w->plain_args[w->nplain++] = (irr_arg){buf, value};
}

void irr_redirect_arg(irr_workload *w, int buf, unsigned value)
{
    w->redirect_args[w->nredirect++] = (irr_arg){buf, value};
}

void irr_workload_free(irr_workload *w)
{
    for (int i = w->nshared; i < w->nbufs; i++)
        free(w->bufs[i].host);
    w->nbufs = 0;
}

uint64_t irr_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t irr_rand_below(uint64_t *state, size_t n)
{
    return n ? (size_t)(irr_rand(state) % n) : 0;
}

float irr_rand_float(uint64_t *state)
{
    /* 24 random bits: exactly representable. */
    return (float)(irr_rand(state) >> 40) / (float)(1 << 23) - 1.0f;
}
