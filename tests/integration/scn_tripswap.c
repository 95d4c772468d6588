/* scn_tripswap.c - job swapping by trip count (kernels/tripswap.cl): a
 * CSR SpMV y = A x over an R-MAT power-law graph (csr_rmat), whose rows'
 * lengths differ widely, launched L times with a finish after each; then
 * the host writes another R-MAT graph of the same size into rowptr, col
 * and val (the jobs key's array changes: R is planned again) and launches
 * L times more; then the ELLPACK-R SpMV of the second graph (its rows
 * column-major, padded to the longest, len[] their lengths) L times.  y's
 * digest after each half goes to stdout; the fastest and the median host time
 * of a launch in the second half of each half (its wait included) to stderr.
 * argv[0] the scale (1..22, default 12), argv[1] L (1..100000, default 20). */
#include "csr_gen.h"
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* An R-MAT graph with random values in val. */
static void graph(csr_matrix *m, unsigned scale, uint64_t *s)
{
    float *outdeg = NULL;
    csr_rmat(m, &outdeg, scale, s);
    free(outdeg);
    for (size_t e = 0; e < m->nnz; e++)
        m->val[e] = (float)(csr_next(s) % 1000) / 1000.0f;
}

/* ELLPACK-R arrays of at most this many entries (the longest row of a
 * large R-MAT graph makes them far too big). */
#define ELLPACK_MAX_ENTRIES ((size_t)1 << 24)

/* The longest row of m. */
static size_t longest_row(const csr_matrix *m)
{
    size_t width = 1;
    for (size_t r = 0; r < m->rows; r++)
        if ((size_t)(m->rowptr[r + 1] - m->rowptr[r]) > width)
            width = (size_t)(m->rowptr[r + 1] - m->rowptr[r]);
    return width;
}

/* The ELLPACK-R form of m into val, col (rows * width, column-major,
 * zeros past a row's end) and len. */
static void ellpack_r(const csr_matrix *m, size_t width, float **val,
                      cl_int **col, cl_int **len)
{
    size_t rows = m->rows;
    *val = calloc(rows * width, sizeof **val);
    *col = calloc(rows * width, sizeof **col);
    *len = malloc(rows * sizeof **len);
    if (!*val || !*col || !*len)
        it_fail("out of memory");
    for (size_t r = 0; r < rows; r++) {
        (*len)[r] = m->rowptr[r + 1] - m->rowptr[r];
        for (cl_int j = 0; j < (*len)[r]; j++) {
            (*val)[(size_t)j * rows + r] = m->val[m->rowptr[r] + j];
            (*col)[(size_t)j * rows + r] = m->col[m->rowptr[r] + j];
        }
    }
}

/* L launches, each waited for; the fastest and median time of the later
 * half. */
static double launches(const it_cl *cl, cl_kernel k, size_t global, long n,
                       double *fastest)
{
    double *t = malloc((size_t)n * sizeof *t);
    if (!t)
        it_fail("out of memory");
    for (long i = 0; i < n; i++) {
        double t0 = now();
        it_run(cl->queue, k, global);
        CHECK(clFinish(cl->queue));
        t[i] = now() - t0;
    }
    qsort(t + n / 2, (size_t)(n - n / 2), sizeof *t, by_value);
    double median = t[n / 2 + (n - n / 2) / 2];
    *fastest = t[n / 2];
    free(t);
    return median;
}

/* The ELLPACK-R SpMV of m, n launches, y's digest (skipped where its
 * arrays would be too big). */
static void run_ellr(const it_cl *cl, cl_program program, const csr_matrix *m,
                     cl_mem x, cl_mem y, long n)
{
    float *val;
    cl_int *col, *len;
    size_t width = longest_row(m), rows = m->rows;
    if (width > ELLPACK_MAX_ENTRIES / rows) {
        printf("tripswap: ellpack-r skipped: %zu rows of %zu entries\n", rows,
               width);
        return;
    }
    ellpack_r(m, width, &val, &col, &len);
    cl_kernel k = it_kernel(program, "ellr");
    cl_mem args[5] = {csr_buffer(cl, rows * width * sizeof *val, val),
                      csr_buffer(cl, rows * width * sizeof *col, col),
                      csr_buffer(cl, rows * sizeof *len, len), x, y};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    const cl_int nrows = (cl_int)rows;
    CHECK(clSetKernelArg(k, 5, sizeof nrows, &nrows));
    double fastest, median = launches(cl, k, it_round_up(rows), n, &fastest);
    it_print_buffer(cl, y, rows * sizeof(float), "tripswap: y (ellpack-r)");
    fprintf(stderr,
            "tripswap: ellpack-r, width %zu: launch fastest/median "
            "%.3f/%.3f ms\n",
            width, fastest * 1e3, median * 1e3);
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseMemObject(args[i]));
    CHECK(clReleaseKernel(k));
    free(val);
    free(col);
    free(len);
}

void scn_tripswap(it_cl *cl, int argc, char **argv)
{
    unsigned long scale = argc > 0 ? strtoul(argv[0], NULL, 10) : 12;
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20;
    if (scale < 1 || scale > 22 || n < 1 || n > 100000)
        it_fail("tripswap: scale 1..22, launches 1..100000");
    uint64_t s = 0x9e3779b97f4a7c15ull;
    csr_matrix a, b;
    graph(&a, (unsigned)scale, &s);
    graph(&b, (unsigned)scale, &s); /* the same sizes: 8 edges a vertex */
    size_t rows = a.rows;
    float *x = malloc(rows * sizeof *x);
    if (!x)
        it_fail("out of memory");
    for (size_t i = 0; i < rows; i++)
        x[i] = (float)(csr_next(&s) % 1000) / 1000.0f;
    cl_program program = it_build(cl, "tripswap.cl", "");
    cl_kernel k = it_kernel(program, "csr_spmv");
    cl_mem val = csr_buffer(cl, a.nnz * sizeof *a.val, a.val);
    cl_mem col = csr_buffer(cl, a.nnz * sizeof *a.col, a.col);
    cl_mem rowptr = csr_buffer(cl, (rows + 1) * sizeof *a.rowptr, a.rowptr);
    cl_mem xb = csr_buffer(cl, rows * sizeof *x, x);
    cl_mem y = csr_buffer(cl, rows * sizeof *x, x);
    cl_mem args[5] = {val, col, rowptr, xb, y};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    const cl_int nrows = (cl_int)rows;
    CHECK(clSetKernelArg(k, 5, sizeof nrows, &nrows));
    size_t global = it_round_up(rows);
    double min1, min2, first = launches(cl, k, global, n, &min1);
    it_print_buffer(cl, y, rows * sizeof *x, "tripswap: y (first graph)");
    CHECK(clEnqueueWriteBuffer(cl->queue, rowptr, CL_TRUE, 0,
                               (rows + 1) * sizeof *b.rowptr, b.rowptr, 0, NULL,
                               NULL));
    CHECK(clEnqueueWriteBuffer(cl->queue, col, CL_TRUE, 0,
                               b.nnz * sizeof *b.col, b.col, 0, NULL, NULL));
    CHECK(clEnqueueWriteBuffer(cl->queue, val, CL_TRUE, 0,
                               b.nnz * sizeof *b.val, b.val, 0, NULL, NULL));
    double second = launches(cl, k, global, n, &min2);
    it_print_buffer(cl, y, rows * sizeof *x, "tripswap: y (second graph)");
    run_ellr(cl, program, &b, xb, y, n);
    fprintf(stderr,
            "tripswap: %zu rows, %zu entries: launch fastest/median %.3f/"
            "%.3f ms (first graph), %.3f/%.3f ms (second)\n",
            rows, a.nnz, min1 * 1e3, first * 1e3, min2 * 1e3, second * 1e3);
    cl_mem all[5] = {val, col, rowptr, xb, y};
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(program));
    csr_free(&a);
    csr_free(&b);
    free(x);
}
