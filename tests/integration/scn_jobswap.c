/* scn_jobswap.c - kernels/jobswap.cl: `swap` reads x[col[i]], col
 * scattering the reads (col[i] = i * 389 % N), N = 1000 work-items in a
 * range of 1024 whose tail does nothing; launched once, then again every
 * 100 ms for 2 s, so that a job map planned meanwhile is used (dlayout
 * plans it on a thread of its own); then twice on a range of 512
 * work-items, which its job map was not planned for; `fenced` has a
 * barrier.  Every launch's y is printed: job swapping must leave it
 * byte-identical. */
#include "scenarios.h"

#include <time.h>

#define JOBSWAP_N 1000

static cl_mem jobswap_buffer(const it_cl *cl, size_t size, void *host)
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

static void launch(it_cl *cl, cl_kernel k, size_t global, cl_mem y,
                   size_t bytes, const char *label)
{
    it_run(cl->queue, k, global);
    CHECK(clFinish(cl->queue));
    it_print_buffer(cl, y, bytes, label);
}

void scn_jobswap(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const cl_int n = JOBSWAP_N;
    static float x[JOBSWAP_N], y[1024];
    static cl_int col[JOBSWAP_N];
    for (int i = 0; i < JOBSWAP_N; i++) {
        x[i] = (float)(i % 17) * 0.75f - 3.0f;
        col[i] = (cl_int)((i * 389) % JOBSWAP_N);
    }
    cl_program program = it_build(cl, "jobswap.cl", "");
    cl_mem bx = jobswap_buffer(cl, sizeof x, x);
    cl_mem bc = jobswap_buffer(cl, sizeof col, col);
    cl_mem by = jobswap_buffer(cl, sizeof y, y);
    cl_kernel k = it_kernel(program, "swap");
    CHECK(clSetKernelArg(k, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(k, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(k, 2, sizeof by, &by));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t whole = it_round_up(JOBSWAP_N);
    launch(cl, k, whole, by, sizeof y, "jobswap: swap y, launch 1");
    for (int i = 0; i < 20; i++) {
        pause_100ms();
        launch(cl, k, whole, by, sizeof y, "jobswap: swap y");
    }
    for (int i = 0; i < 2; i++)
        launch(cl, k, 512, by, sizeof y, "jobswap: swap y, 512 work-items");
    CHECK(clReleaseKernel(k));
    cl_kernel f = it_kernel(program, "fenced");
    CHECK(clSetKernelArg(f, 0, sizeof bx, &bx));
    CHECK(clSetKernelArg(f, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(f, 2, sizeof by, &by));
    for (int i = 0; i < 2; i++)
        it_run(cl->queue, f, JOBSWAP_N);
    it_print_buffer(cl, by, JOBSWAP_N * sizeof(float), "jobswap: fenced y");
    CHECK(clReleaseKernel(f));
    cl_mem all[] = {bx, bc, by};
    for (int i = 0; i < 3; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
}
