/* irr_loop.h - the graph-kernel loops of `dl-bench irregular` (irr_loop.c,
 * irr_gen_loops.c): N iterations of x' = add + mul * (A x) over a CSR
 * matrix, the vector written every iteration, as written, with
 * duplication (a gather per iteration) and with remapping (permuted once,
 * iterated in the permuted order, un-permuted at the end). */
#ifndef DL_IRR_LOOP_H
#define DL_IRR_LOOP_H

#include "irr_report.h"

typedef struct irr_loop {
    const char *name;  /* "pagerank/rmat-shuffled" */
    const char *label; /* "rank via col" */
    size_t iterations;
    float mul, add;
    uint64_t seed; /* METIS's */
} irr_loop;

/* Runs l over m from x0 and prints its rows: 1 verified, 0 not, -1
 * failed. */
int irr_loop_report(irr_device *d, const irr_loop *l, const irr_csr *m,
                    const float *x0);
/* The loops of one run (irr_gen_loops.c), with the tally of
 * bench_irregular.c: *failed |= a loop failed, *unverified |= one was not
 * byte-identical. */
void irr_run_loops(irr_device *d, const irr_sizes *z, size_t iterations,
                   uint64_t seed, int *failed, int *unverified);

#endif
