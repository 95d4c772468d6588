/* scn_sharing.c - kernels/sharing.cl: `ell` (N = 1024 rows of K = 4
 * scattered columns, in groups of 64) launched once, then every 100 ms, so that
 * the sharing planned meanwhile is used (dlayout plans it on a thread of its
 * own); then x is written (A_s must be gathered again) and col (the plan must
 * be made again); `unsized` (no local size: dlayout chooses 64) runs shared
 * too; `odd` (no local size, a range of 1000 that no size from 16 to 64
 * divides), `tailed` (N = 1000 in a range of 1024: the guarded tail's
 * entries belong to other groups), `scale` (x writable) and `big` (a
 * group of 512 reading 512 cells of 4 KiB: 2 MiB of __local memory)
 * cannot run shared.  Every launch's y is printed: sharing must
 * leave it byte-identical. */
#include "scenarios.h"

#include <stdio.h>
#include <time.h>

#define SHARE_N     1024
#define SHARE_TAIL  1000
#define BIG_CELLS   512
#define BIG_FLOATS  1024 /* a cell: 4 KiB */
#define SHARE_K     4
#define SHARE_GROUP 64

static cl_mem share_buffer(const it_cl *cl, size_t size, void *host)
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

/* `times` launches of k over `global` work-items (in groups of
 * SHARE_GROUP, or of the implementation's choice where `sized` is 0), 100
 * ms apart, y printed after each. */
static void launches(it_cl *cl, cl_kernel k, cl_mem y, int times, size_t global,
                     int sized, const char *label)
{
    size_t local = SHARE_GROUP;
    for (int i = 0; i < times; i++) {
        if (i)
            pause_100ms();
        CHECK(clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &global,
                                     sized ? &local : NULL, 0, NULL, NULL));
        CHECK(clFinish(cl->queue));
        it_print_buffer(cl, y, SHARE_N * sizeof(float), label);
    }
}

static void fill_columns(cl_int *col, int shift)
{
    for (int j = 0; j < SHARE_K; j++)
        for (int i = 0; i < SHARE_N; i++)
            col[j * SHARE_N + i] =
                (cl_int)(((i + shift) * 389 + j * 97) % SHARE_N);
}

static cl_kernel ell_kernel(cl_program program, const char *name,
                            const cl_mem *args, cl_int n)
{
    cl_kernel k = it_kernel(program, name);
    for (cl_uint i = 0; i < 4; i++)
        CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    CHECK(clSetKernelArg(k, 4, sizeof n, &n));
    return k;
}

/* `big`: one group of BIG_CELLS work-items, each reading its own cell. */
static void big_cells(it_cl *cl, cl_program program)
{
    static float cells[BIG_CELLS * BIG_FLOATS], y[BIG_CELLS];
    static cl_int col[BIG_CELLS];
    for (int i = 0; i < BIG_CELLS * BIG_FLOATS; i++)
        cells[i] = (float)(i % 29) * 0.25f;
    for (int i = 0; i < BIG_CELLS; i++)
        col[i] = (cl_int)((i * 389) % BIG_CELLS);
    cl_mem args[] = {share_buffer(cl, sizeof cells, cells),
                     share_buffer(cl, sizeof col, col),
                     share_buffer(cl, sizeof y, y)};
    cl_kernel k = it_kernel(program, "big");
    for (cl_uint i = 0; i < 3; i++)
        CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    size_t global = BIG_CELLS, local = BIG_CELLS;
    for (int i = 0; i < 3; i++) {
        if (i)
            pause_100ms();
        CHECK(clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &global, &local, 0,
                                     NULL, NULL));
        it_print_buffer(cl, args[2], sizeof y, "sharing: big y");
    }
    CHECK(clReleaseKernel(k));
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseMemObject(args[i]));
}

void scn_sharing(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    static float val[SHARE_K * SHARE_N], x[SHARE_N], y[SHARE_N];
    static cl_int col[SHARE_K * SHARE_N];
    for (int i = 0; i < SHARE_K * SHARE_N; i++)
        val[i] = (float)(i % 13) * 0.5f - 2.0f;
    for (int i = 0; i < SHARE_N; i++)
        x[i] = (float)(i % 17) * 0.75f - 3.0f;
    fill_columns(col, 0);
    char options[32];
    snprintf(options, sizeof options, "-D K=%d", SHARE_K);
    cl_program program = it_build(cl, "sharing.cl", options);
    cl_mem bv = share_buffer(cl, sizeof val, val);
    cl_mem bc = share_buffer(cl, sizeof col, col);
    cl_mem bx = share_buffer(cl, sizeof x, x);
    cl_mem by = share_buffer(cl, sizeof y, y);
    cl_mem args[] = {bv, bc, bx, by};
    cl_kernel k = ell_kernel(program, "ell", args, SHARE_N);
    launches(cl, k, by, 20, SHARE_N, 1, "sharing: ell y");
    for (int i = 0; i < SHARE_N; i++)
        x[i] = (float)(i % 11) * 1.25f + 0.5f;
    CHECK(clEnqueueWriteBuffer(cl->queue, bx, CL_TRUE, 0, sizeof x, x, 0, NULL,
                               NULL));
    launches(cl, k, by, 2, SHARE_N, 1, "sharing: ell y, x written");
    fill_columns(col, 7);
    CHECK(clEnqueueWriteBuffer(cl->queue, bc, CL_TRUE, 0, sizeof col, col, 0,
                               NULL, NULL));
    launches(cl, k, by, 20, SHARE_N, 1, "sharing: ell y, col written");
    CHECK(clReleaseKernel(k));
    cl_kernel unsized = ell_kernel(program, "unsized", args, SHARE_N);
    launches(cl, unsized, by, 20, SHARE_N, 0, "sharing: unsized y");
    CHECK(clReleaseKernel(unsized));
    cl_kernel odd = ell_kernel(program, "odd", args, SHARE_TAIL);
    launches(cl, odd, by, 2, SHARE_TAIL, 0, "sharing: odd y");
    CHECK(clReleaseKernel(odd));
    cl_kernel tailed = ell_kernel(program, "tailed", args, SHARE_TAIL);
    launches(cl, tailed, by, 2, SHARE_N, 1, "sharing: tailed y");
    CHECK(clReleaseKernel(tailed));
    cl_kernel scale = it_kernel(program, "scale");
    CHECK(clSetKernelArg(scale, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(scale, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(scale, 2, sizeof by, &by));
    it_run(cl->queue, scale, SHARE_N);
    it_print_buffer(cl, by, SHARE_N * sizeof(float), "scale");
    CHECK(clReleaseKernel(scale));
    big_cells(cl, program);
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(args[i]));
    CHECK(clReleaseProgram(program));
}
