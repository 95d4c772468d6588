/* scn_reorder.c - kernels/reorder.cl: an ELL SpMV whose x[col[...]]
 * gather is redirected, launched 14 times.  Under dl-run with
 * DL_POLICY=always its reordered copy of x is gathered once and reused
 * while x and col are unchanged (a read of x changes nothing), and made
 * again after each kind of write: a write, a fill, a copy into x, a map
 * for writing, a kernel that writes x, a write of col and a write
 * through a sub-buffer of x.  y is printed after every launch.
 *   col[j * N + r] = (r * 37 + j * 101) % N, N = 256, K = 4. */
#include "scenarios.h"

#include <stdio.h>
#include <string.h>

#define REORDER_N 256
#define REORDER_K 4

typedef struct spmv {
    it_cl *cl;
    cl_kernel ell;
    cl_mem val, col, x, y;
    int launches;
} spmv;

static cl_mem reorder_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

/* One launch of the SpMV, then y. */
static void step(spmv *s, const char *after)
{
    char label[96];
    it_run(s->cl->queue, s->ell, REORDER_N);
    snprintf(label, sizeof label, "reorder: y after launch %d (%s)",
             ++s->launches, after);
    it_print_buffer(s->cl, s->y, REORDER_N * sizeof(float), label);
}

/* The writes of x, each followed by a launch. */
static void write_x(spmv *s, cl_program program)
{
    it_cl *cl = s->cl;
    float x[REORDER_N];
    for (int i = 0; i < REORDER_N; i++)
        x[i] = (float)(REORDER_N - i) * 0.25f;
    CHECK(clEnqueueWriteBuffer(cl->queue, s->x, CL_TRUE, 0, sizeof x, x, 0,
                               NULL, NULL));
    step(s, "write of x");

    const float pattern = 1.5f;
    CHECK(clEnqueueFillBuffer(cl->queue, s->x, &pattern, sizeof pattern, 0,
                              sizeof x / 2, 0, NULL, NULL));
    step(s, "fill of x");

    for (int i = 0; i < REORDER_N; i++)
        x[i] = (float)(i % 11) - 3.0f;
    cl_mem other = reorder_buffer(cl, sizeof x, x);
    CHECK(clEnqueueCopyBuffer(cl->queue, other, s->x, 0, 0, sizeof x, 0, NULL,
                              NULL));
    step(s, "copy into x");
    CHECK(clReleaseMemObject(other));

    cl_int err;
    float *mapped = clEnqueueMapBuffer(cl->queue, s->x, CL_TRUE, CL_MAP_WRITE,
                                       0, sizeof x, 0, NULL, NULL, &err);
    CHECK(err);
    for (int i = 0; i < REORDER_N; i += 3)
        mapped[i] = (float)i * 0.125f;
    CHECK(clEnqueueUnmapMemObject(cl->queue, s->x, mapped, 0, NULL, NULL));
    step(s, "map of x for writing");

    cl_kernel scale = it_kernel(program, "scale_x");
    const float a = 0.5f;
    CHECK(clSetKernelArg(scale, 0, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(scale, 1, sizeof a, &a));
    it_run(cl->queue, scale, REORDER_N);
    CHECK(clReleaseKernel(scale));
    step(s, "a kernel writing x");
}

/* A write of col, and one through a sub-buffer of x. */
static void write_col_and_sub(spmv *s)
{
    it_cl *cl = s->cl;
    cl_int swapped[2] = {5, 250};
    CHECK(clEnqueueWriteBuffer(cl->queue, s->col, CL_TRUE, 0, sizeof swapped,
                               swapped, 0, NULL, NULL));
    step(s, "write of col");

    cl_buffer_region half = {0, REORDER_N / 2 * sizeof(float)};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(s->x, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
    CHECK(err);
    float part[REORDER_N / 2];
    for (int i = 0; i < REORDER_N / 2; i++)
        part[i] = -(float)i;
    CHECK(clEnqueueWriteBuffer(cl->queue, sub, CL_TRUE, 0, sizeof part, part, 0,
                               NULL, NULL));
    CHECK(clReleaseMemObject(sub));
    step(s, "write through a sub-buffer of x");
}

void scn_reorder(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "reorder.cl", "-D K=4");
    const cl_int n = REORDER_N;
    float val[REORDER_N * REORDER_K], x[REORDER_N], y[REORDER_N];
    cl_int col[REORDER_N * REORDER_K];
    for (int j = 0; j < REORDER_K; j++)
        for (int r = 0; r < REORDER_N; r++) {
            col[j * REORDER_N + r] = (r * 37 + j * 101) % REORDER_N;
            val[j * REORDER_N + r] =
                1.0f + (float)((j * REORDER_N + r) % 7) * 0.25f;
        }
    for (int i = 0; i < REORDER_N; i++)
        x[i] = (float)i * 0.5f;
    memset(y, 0, sizeof y);
    spmv s = {.cl = cl};
    s.val = reorder_buffer(cl, sizeof val, val);
    s.col = reorder_buffer(cl, sizeof col, col);
    s.x = reorder_buffer(cl, sizeof x, x);
    s.y = reorder_buffer(cl, sizeof y, y);
    s.ell = it_kernel(program, "ell_spmv");
    CHECK(clSetKernelArg(s.ell, 0, sizeof s.val, &s.val));
    CHECK(clSetKernelArg(s.ell, 1, sizeof s.col, &s.col));
    CHECK(clSetKernelArg(s.ell, 2, sizeof s.x, &s.x));
    CHECK(clSetKernelArg(s.ell, 3, sizeof s.y, &s.y));
    CHECK(clSetKernelArg(s.ell, 4, sizeof n, &n));
    for (int i = 0; i < 5; i++)
        step(&s, "x and col unchanged");
    it_print_buffer(cl, s.x, sizeof x, "reorder: x read");
    step(&s, "a read of x");
    write_x(&s, program);
    write_col_and_sub(&s);
    CHECK(clReleaseKernel(s.ell));
    cl_mem all[] = {s.val, s.col, s.x, s.y};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
}
