/* scn_permute_stencil.c - kernels/permute.cl's row-major ELL SpMV
 * (ell_rows, K = 7) on the 3D 7-point stencil of n^3 rows (argv[0],
 * default 16) whose x is numbered at random while the rows keep their
 * order (each row's entries in the stencil's order of directions, short
 * rows padded with their own column at value 0).  Under
 * DL_IRREGULAR=remap dlayout keeps x permuted, in the order of fewest
 * predicted transactions: here METIS's partition of the co-access graph
 * counts fewer than P's first touches (docs/irregular.md, "Where pi comes
 * from").  Launched 250 times, 20 ms apart, until the permutation is
 * planned and applied, then y printed and x read (which restores it).  A
 * fixed generator: the same bytes on every run. */
#include "csr_gen.h"
#include "scenarios.h"

#include <stdlib.h>
#include <unistd.h>

#define SK 7 /* entries per row */

/* Row r of the natural stencil with x renumbered by num, padded to SK
 * entries, into row-major ELL. */
static void ell_row(const csr_matrix *m, const size_t *num, size_t r,
                    cl_int *col, float *val)
{
    cl_int c[SK];
    int k = 0;
    for (cl_int e = m->rowptr[r]; e < m->rowptr[r + 1] && k < SK; e++)
        c[k++] = (cl_int)num[m->col[e]];
    for (int j = 0; j < SK; j++) {
        col[r * SK + (size_t)j] = j < k ? c[j] : (cl_int)num[r];
        val[r * SK + (size_t)j] =
            j < k ? 1.0f + (float)((r + (size_t)j) % 5) * 0.25f : 0.0f;
    }
}

static void make_ell(size_t n, cl_int **col, float **val, float **x)
{
    csr_matrix m;
    uint64_t s = 0x2545f4914f6cdd1dull;
    csr_stencil(&m, n, NULL);
    size_t *num = csr_shuffle(m.rows, &s);
    *col = malloc(m.rows * SK * sizeof **col);
    *val = malloc(m.rows * SK * sizeof **val);
    *x = malloc(m.rows * sizeof **x);
    if (!*col || !*val || !*x)
        it_fail("out of memory");
    for (size_t r = 0; r < m.rows; r++) {
        ell_row(&m, num, r, *col, *val);
        (*x)[r] = (float)(r % 13) * 0.5f - 3.0f;
    }
    free(num);
    csr_free(&m);
}

void scn_permute_stencil(it_cl *cl, int argc, char **argv)
{
    size_t n = argc > 0 ? strtoul(argv[0], NULL, 10) : 16;
    size_t rows = n * n * n;
    cl_int *col;
    float *val, *x;
    make_ell(n, &col, &val, &x);
    cl_program program = it_build(cl, "permute.cl", "-D K=7");
    cl_kernel spmv = it_kernel(program, "ell_rows");
    cl_mem b[4] = {csr_buffer(cl, rows * SK * sizeof *val, val),
                   csr_buffer(cl, rows * SK * sizeof *col, col),
                   csr_buffer(cl, rows * sizeof *x, x),
                   csr_buffer(cl, rows * sizeof *x, x)};
    const cl_int nrows = (cl_int)rows;
    for (cl_uint i = 0; i < 4; i++)
        CHECK(clSetKernelArg(spmv, i, sizeof b[i], &b[i]));
    CHECK(clSetKernelArg(spmv, 4, sizeof nrows, &nrows));
    for (int i = 0; i < 250; i++) {
        it_run(cl->queue, spmv, rows);
        CHECK(clFinish(cl->queue));
        usleep(20000);
    }
    it_print_buffer(cl, b[3], rows * sizeof *x, "permute_stencil: y");
    it_print_buffer(cl, b[2], rows * sizeof *x, "permute_stencil: x read");
    CHECK(clReleaseKernel(spmv));
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(b[i]));
    CHECK(clReleaseProgram(program));
    free(col);
    free(val);
    free(x);
}
