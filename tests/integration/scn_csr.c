/* scn_csr.c - kernels/csr.cl: a CSR SpMV whose row loop runs between
 * rowptr[row] and rowptr[row + 1], redirected by dl-annotate to read
 * dl_gather_x_col[k].  Under dl-run with DL_POLICY=always the copy of x
 * (over all of col) is gathered once and reused while x and col are
 * unchanged; a write of rowptr (other rows over the same entries) needs
 * no new copy, a write of x or col does.  y is printed after every
 * launch.  CSR_N rows of 0 to 12 entries, random columns (a fixed LCG),
 * col padded with entries no row reads, out of x's range. */
#include "scenarios.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define CSR_N   1021
#define CSR_CAP (CSR_N * 13 + 64) /* col's entries: the rows' and padding */

typedef struct csr {
    it_cl *cl;
    cl_kernel spmv;
    cl_mem val, col, rowptr, x, y;
    int launches;
} csr;

static uint32_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static cl_mem csr_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

/* One launch, then y. */
static void step(csr *s, const char *after)
{
    char label[96];
    it_run(s->cl->queue, s->spmv, it_round_up(CSR_N));
    snprintf(label, sizeof label, "csr: y after launch %d (%s)", ++s->launches,
             after);
    it_print_buffer(s->cl, s->y, CSR_N * sizeof(float), label);
}

static void write_int(const it_cl *cl, cl_mem m, const cl_int *v, size_t n)
{
    CHECK(clEnqueueWriteBuffer(cl->queue, m, CL_TRUE, 0, n * sizeof *v, v, 0,
                               NULL, NULL));
}

void scn_csr(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    static cl_int col[CSR_CAP], rowptr[CSR_N + 1];
    static float val[CSR_CAP], x[CSR_N];
    uint64_t seed = 0x2545f4914f6cdd1dull;
    rowptr[0] = 0;
    for (int r = 0; r < CSR_N; r++)
        rowptr[r + 1] = rowptr[r] + (cl_int)(lcg(&seed) % 13);
    for (int e = 0; e < CSR_CAP; e++) {
        col[e] = e < rowptr[CSR_N] ? (cl_int)(lcg(&seed) % CSR_N)
                                   : (cl_int)(CSR_N + e); /* never read */
        val[e] = (float)(lcg(&seed) % 1000 + 1) / 1000.0f;
    }
    for (int i = 0; i < CSR_N; i++)
        x[i] = (float)(i % 17);
    cl_program program = it_build(cl, "csr.cl", "");
    csr s = {cl, it_kernel(program, "csr_spmv"), NULL, NULL, NULL, NULL, NULL,
             0};
    s.val = csr_buffer(cl, sizeof val, val);
    s.col = csr_buffer(cl, sizeof col, col);
    s.rowptr = csr_buffer(cl, sizeof rowptr, rowptr);
    s.x = csr_buffer(cl, sizeof x, x);
    s.y = csr_buffer(cl, sizeof x, x);
    const cl_int rows = CSR_N;
    cl_mem args[5] = {s.val, s.col, s.rowptr, s.x, s.y};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(s.spmv, i, sizeof args[i], &args[i]));
    CHECK(clSetKernelArg(s.spmv, 5, sizeof rows, &rows));
    for (int i = 0; i < 5; i++)
        step(&s, "an unchanged matrix");

    for (int i = 0; i < CSR_N; i++)
        x[i] = (float)(CSR_N - i) * 0.25f;
    CHECK(clEnqueueWriteBuffer(cl->queue, s.x, CL_TRUE, 0, sizeof x, x, 0, NULL,
                               NULL));
    step(&s, "write of x");

    /* Every row one entry shorter where it can be: other k, same col. */
    for (int r = 1; r <= CSR_N; r++)
        rowptr[r] -= rowptr[r] > rowptr[r - 1] + 1;
    write_int(cl, s.rowptr, rowptr, CSR_N + 1);
    step(&s, "write of rowptr");

    for (int e = 0; e < rowptr[CSR_N]; e++)
        col[e] = (col[e] * 7 + 3) % CSR_N;
    write_int(cl, s.col, col, CSR_CAP);
    step(&s, "write of col");
    for (int i = 0; i < 2; i++)
        step(&s, "an unchanged matrix");

    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(args[i]));
    CHECK(clReleaseKernel(s.spmv));
    CHECK(clReleaseProgram(program));
}
