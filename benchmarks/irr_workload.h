/* irr_workload.h - the workloads of `dl-bench irregular`: host data, the
 * kernel arguments of a plain kernel and of its redirected variant, and
 * the irregular references A[P[e]] between them (docs/irregular.md,
 * "Results").  Each generator (irr_gen_*.c) fills one; irr_count.c counts
 * the transactions of its references, irr_run.c runs it on the device. */
#ifndef DL_IRR_WORKLOAD_H
#define DL_IRR_WORKLOAD_H

#include "dlayout_irregular.h"

#include <stddef.h>
#include <stdint.h>

enum { IRR_MAX_BUFS = 12, IRR_MAX_ARGS = 12, IRR_MAX_REFS = 2 };

/* An argument that is __local memory of `value` bytes. */
#define IRR_LOCAL_ARG (-2)

/* One buffer: host contents uploaded before every run, or (host NULL) a
 * device-only buffer of `bytes`: an output or an A' the gather fills. */
typedef struct irr_buf {
    void *host;
    size_t bytes;
} irr_buf;

/* One kernel argument: buffer slot `buf`, (buf = -1) a uint `value`, or
 * (IRR_LOCAL_ARG) `value` bytes of __local memory. */
typedef struct irr_arg {
    int buf;
    unsigned value;
} irr_arg;

/* One read-only reference A[P[e] + c] that the redirected variant reads
 * as A'[e] (A' = the duplication layout, built by dl_enqueue_gather). */
typedef struct irr_ref {
    const char *label; /* "x via col" */
    int a, p, a_prime; /* buffer slots                                   */
    dl_coalesce_ref ref;
    dl_coalesce_range range; /* the gather's entries (and, without
                                rowptr, the analyser's lanes)           */
    /* CSR: work-item t reads entries rowptr[t] .. rowptr[t+1]-1 one per
     * step, which no affine range describes: irr_count.c counts it lane by
     * lane.  NULL for the others. */
    const int32_t *rowptr;
} irr_ref;

typedef struct irr_workload {
    char name[48];                /* "spmv-ell/stencil-shuffled"          */
    const char *plain, *redirect; /* kernel names in irregular.cl     */
    size_t threads;               /* work-items of both kernels            */
    int out;                      /* slot of the output compared           */
    int nbufs, nplain, nredirect, nrefs;
    irr_buf bufs[IRR_MAX_BUFS];
    irr_arg plain_args[IRR_MAX_ARGS], redirect_args[IRR_MAX_ARGS];
    irr_ref refs[IRR_MAX_REFS];
    /* A method's variant (irr_method.h): bufs [0, nshared) are borrowed
     * from the workload it derives from (not freed here); the
     * reorganisation writes the host data of the slots in `upload`
     * instead of gathering; the plain kernel is run for its output but
     * not timed when plain_timed is 0. */
    int nshared, nupload, plain_untimed;
    int upload[IRR_MAX_BUFS];
} irr_workload;

/* The problem sizes of one run (--quick: tiny ones). */
typedef struct irr_sizes {
    size_t stencil_n;    /* n of the n^3-row 7-point stencil             */
    unsigned rmat_scale; /* 2^scale vertices, 8 edges per vertex         */
    size_t uniform_rows, uniform_per_row;
    size_t particles, neighbours;
    size_t records, lookups;
} irr_sizes;

/* ------------------------------------------------------ irr_workload.c */

/* Adds a buffer (host may be NULL) and returns its slot. */
int irr_add_buf(irr_workload *w, void *host, size_t bytes);
void irr_plain_arg(irr_workload *w, int buf, unsigned value);
void irr_redirect_arg(irr_workload *w, int buf, unsigned value);
/* Frees the host data of every buffer. */
void irr_workload_free(irr_workload *w);

/* A deterministic generator (splitmix64): the same seed, the same data. */
uint64_t irr_rand(uint64_t *state);
/* Uniform in [0, n). */
size_t irr_rand_below(uint64_t *state, size_t n);
/* A random float in [-1, 1). */
float irr_rand_float(uint64_t *state);

/* ------------------------------------------------------------ irr_csr.c */

/* A square sparse matrix in CSR with 32-bit indices. */
typedef struct irr_csr {
    size_t rows, nnz;
    int32_t *rowptr, *col;
    float *val;
} irr_csr;

int irr_csr_alloc(irr_csr *m, size_t rows, size_t nnz);
void irr_csr_free(irr_csr *m);
/* Renumbers rows and columns by a random permutation of the seed. */
int irr_csr_shuffle(irr_csr *m, uint64_t seed);
/* Row r of m becomes row perm[r] of out (allocated like m), column c
 * column perm[c]; each row's entries keep their order. */
void irr_csr_permute(const irr_csr *m, const int32_t *perm, irr_csr *out);
/* Renumbers the columns only (x's elements), rows left in their order. */
int irr_csr_shuffle_columns(irr_csr *m, uint64_t seed);
/* The SpMV workloads of m: 0 CSR, 1 ELL (column-major, short rows padded
 * with the row's own column and 0).  Takes m's arrays (into the CSR
 * workload); 0 when out of memory. */
int irr_spmv_workloads(irr_csr *m, const char *matrix, uint64_t seed,
                       irr_workload out[2]);

/* ------------------------------------------------------ irr_gen_*.c */

int irr_gen_stencil(size_t n, irr_csr *out);
int irr_gen_rmat(unsigned scale, uint64_t seed, irr_csr *out);
int irr_gen_uniform(size_t rows, size_t per_row, uint64_t seed, irr_csr *out);
int irr_gen_md(size_t particles, size_t neighbours, uint64_t seed,
               irr_workload *out);
int irr_gen_records(size_t records, size_t lookups, uint64_t seed,
                    irr_workload *out);

#endif
