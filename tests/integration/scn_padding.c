/* scn_padding.c - kernels/padding.cl: `ell` (N = 1000 rows of K = 4
 * scattered columns, a range of 1024 whose tail does nothing) launched
 * once, then every 100 ms, so that the padding planned meanwhile is used
 * (dlayout plans it on a thread of its own); then x is written (A'' must
 * be gathered again) and col (the plan must be made again); `mixed` and
 * `scale` cannot run padded.  Every launch's y is printed: padding must
 * leave it byte-identical. */
#include "scenarios.h"

#include <stdio.h>
#include <time.h>

#define PAD_N 1000
#define PAD_K 4

static cl_mem pad_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void pause_100ms(void)
{
    struct timespec t = {0, 100 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* `times` launches of k, 100 ms apart, y printed after each. */
static void launches(it_cl *cl, cl_kernel k, cl_mem y, int times,
                     const char *label)
{
    for (int i = 0; i < times; i++) {
        if (i)
            pause_100ms();
        it_run(cl->queue, k, it_round_up(PAD_N));
        CHECK(clFinish(cl->queue));
        it_print_buffer(cl, y, PAD_N * sizeof(float), label);
    }
}

static void fill_columns(cl_int *col, int shift)
{
    for (int j = 0; j < PAD_K; j++)
        for (int i = 0; i < PAD_N; i++)
            col[j * PAD_N + i] = (cl_int)(((i + shift) * 389 + j * 97) % PAD_N);
}

static void other_kernel(it_cl *cl, cl_program program, const char *name,
                         cl_mem x, cl_mem col, cl_mem y)
{
    cl_kernel k = it_kernel(program, name);
    CHECK(clSetKernelArg(k, 0, sizeof x, &x));
    CHECK(clSetKernelArg(k, 1, sizeof col, &col));
    CHECK(clSetKernelArg(k, 2, sizeof y, &y));
    it_run(cl->queue, k, PAD_N);
    it_print_buffer(cl, y, PAD_N * sizeof(float), name);
    CHECK(clReleaseKernel(k));
}

void scn_padding(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const cl_int n = PAD_N;
    static float val[PAD_K * PAD_N], x[PAD_N], y[PAD_N];
    static cl_int col[PAD_K * PAD_N];
    for (int i = 0; i < PAD_K * PAD_N; i++)
        val[i] = (float)(i % 13) * 0.5f - 2.0f;
    for (int i = 0; i < PAD_N; i++)
        x[i] = (float)(i % 17) * 0.75f - 3.0f;
    fill_columns(col, 0);
    char options[32];
    snprintf(options, sizeof options, "-D K=%d", PAD_K);
    cl_program program = it_build(cl, "padding.cl", options);
    cl_mem bv = pad_buffer(cl, sizeof val, val);
    cl_mem bc = pad_buffer(cl, sizeof col, col);
    cl_mem bx = pad_buffer(cl, sizeof x, x);
    cl_mem by = pad_buffer(cl, sizeof y, y);
    cl_kernel k = it_kernel(program, "ell");
    cl_mem args[] = {bv, bc, bx, by};
    for (cl_uint i = 0; i < 4; i++)
        CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    CHECK(clSetKernelArg(k, 4, sizeof n, &n));
    launches(cl, k, by, 20, "padding: ell y");
    for (int i = 0; i < PAD_N; i++)
        x[i] = (float)(i % 11) * 1.25f + 0.5f;
    CHECK(clEnqueueWriteBuffer(cl->queue, bx, CL_TRUE, 0, sizeof x, x, 0, NULL,
                               NULL));
    launches(cl, k, by, 2, "padding: ell y, x written");
    fill_columns(col, 7);
    CHECK(clEnqueueWriteBuffer(cl->queue, bc, CL_TRUE, 0, sizeof col, col, 0,
                               NULL, NULL));
    launches(cl, k, by, 20, "padding: ell y, col written");
    CHECK(clReleaseKernel(k));
    other_kernel(cl, program, "mixed", bx, bc, by);
    other_kernel(cl, program, "scale", bx, bc, by);
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(args[i]));
    CHECK(clReleaseProgram(program));
}
