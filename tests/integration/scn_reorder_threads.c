/* scn_reorder_threads.c - kernels/reorder.cl from four host threads at
 * once: each has its own queue, kernel object, matrix and vector (of its
 * own size), launches the redirected SpMV four times, writes its x, and
 * launches it twice more.  Under dl-run with DL_POLICY=always the threads
 * share one reorder cache: per thread one gather, three hits, one
 * invalidation by the write, one gather, one hit. */
#include "scenarios.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { RT_THREADS = 4, RT_K = 4 };

typedef struct reorder_worker {
    it_cl *cl;
    cl_program program;
    pthread_barrier_t *start;
    int index;
    cl_int n;
    float *y; /* the result after each launch, n floats each */
} reorder_worker;

static cl_mem worker_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void *reorder_work(void *arg)
{
    reorder_worker *w = arg;
    size_t n = (size_t)w->n;
    cl_int err;
    cl_command_queue queue =
        clCreateCommandQueue(w->cl->context, w->cl->device, 0, &err);
    CHECK(err);
    float *val = malloc(n * RT_K * sizeof *val), *x = malloc(n * sizeof *x);
    cl_int *col = malloc(n * RT_K * sizeof *col);
    if (!val || !x || !col)
        it_fail("out of memory");
    for (size_t e = 0; e < n * RT_K; e++) {
        col[e] = (cl_int)((e * 53 + (size_t)w->index * 7) % n);
        val[e] = 0.5f + (float)(e % 5) * 0.125f;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((i + (size_t)w->index) % 9);
    cl_mem bv = worker_buffer(w->cl, n * RT_K * sizeof *val, val);
    cl_mem bc = worker_buffer(w->cl, n * RT_K * sizeof *col, col);
    cl_mem bx = worker_buffer(w->cl, n * sizeof *x, x);
    cl_mem by = worker_buffer(w->cl, n * sizeof *x, x);
    cl_kernel ell = it_kernel(w->program, "ell_spmv");
    CHECK(clSetKernelArg(ell, 0, sizeof bv, &bv));
    CHECK(clSetKernelArg(ell, 1, sizeof bc, &bc));
    CHECK(clSetKernelArg(ell, 2, sizeof bx, &bx));
    CHECK(clSetKernelArg(ell, 3, sizeof by, &by));
    CHECK(clSetKernelArg(ell, 4, sizeof w->n, &w->n));
    pthread_barrier_wait(w->start);
    for (int launch = 0; launch < 6; launch++) {
        if (launch == 4) {
            for (size_t i = 0; i < n; i++)
                x[i] = (float)(i % 4) - 1.5f;
            CHECK(clEnqueueWriteBuffer(queue, bx, CL_FALSE, 0, n * sizeof *x, x,
                                       0, NULL, NULL));
        }
        it_run(queue, ell, n);
        CHECK(clEnqueueReadBuffer(queue, by, CL_TRUE, 0, n * sizeof *x,
                                  w->y + (size_t)launch * n, 0, NULL, NULL));
    }
    cl_mem all[] = {bv, bc, bx, by};
    for (int i = 0; i < 4; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseKernel(ell));
    CHECK(clReleaseCommandQueue(queue));
    free(val), free(x), free(col);
    return NULL;
}

void scn_reorder_threads(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "reorder.cl", "-D K=4");
    pthread_barrier_t start;
    pthread_t threads[RT_THREADS];
    reorder_worker workers[RT_THREADS];
    pthread_barrier_init(&start, NULL, RT_THREADS);
    for (int t = 0; t < RT_THREADS; t++) {
        cl_int n = 200 + 31 * t;
        workers[t] = (reorder_worker){
            cl, program, &start, t, n, malloc(6 * (size_t)n * sizeof(float))};
        if (!workers[t].y)
            it_fail("out of memory");
        if (pthread_create(&threads[t], NULL, reorder_work, &workers[t]))
            it_fail("pthread_create failed");
    }
    for (int t = 0; t < RT_THREADS; t++) {
        char label[64];
        pthread_join(threads[t], NULL);
        snprintf(label, sizeof label, "reorder_threads: thread %d", t);
        it_print_digest(label, workers[t].y,
                        6 * (size_t)workers[t].n * sizeof(float));
        free(workers[t].y);
    }
    pthread_barrier_destroy(&start);
    CHECK(clReleaseProgram(program));
}
