/* csr_gen.h - the sparse matrices of the CSR scenarios (scn_csr_loop.c,
 * scn_graph_loops.c, scn_tripswap.c): a fixed generator, the same bytes on
 * every run. */
#ifndef DL_IT_CSR_GEN_H
#define DL_IT_CSR_GEN_H

#include "host.h"

#include <stddef.h>
#include <stdint.h>

typedef struct csr_matrix {
    size_t rows, nnz;
    cl_int *rowptr, *col;
    float *val;
} csr_matrix;

/* The generator's next 31 bits; *s its state. */
uint64_t csr_next(uint64_t *s);

/* rowptr zeroed, col and val uninitialised; exits on failure. */
void csr_alloc(csr_matrix *m, size_t rows, size_t nnz);
void csr_free(csr_matrix *m);

/* A random permutation of 0..n-1 (num[old] = new). */
size_t *csr_shuffle(size_t n, uint64_t *s);

/* The 3D 7-point Poisson stencil of n^3 rows (6 on the diagonal, -1 off
 * it), vertex v numbered num[v] (num NULL: v), rows in the new order. */
void csr_stencil(csr_matrix *m, size_t n, const size_t *num);

/* The in-edge CSR of an R-MAT power-law graph (2^scale vertices, 8 edges
 * each; a = 0.57, b = c = 0.19) with its vertices renumbered at random:
 * row v lists the sources of v's in-edges (val left uninitialised);
 * *outdeg (allocated) how often u is a source (1 where never). */
void csr_rmat(csr_matrix *m, float **outdeg, unsigned scale, uint64_t *s);

/* A READ_WRITE | COPY_HOST_PTR buffer of `size` bytes from host. */
cl_mem csr_buffer(const it_cl *cl, size_t size, void *host);

#endif
