/* scn_threads.c - four host threads share a context and a program; each
 * has its own queue, kernel object and buffer (of its own size) and runs
 * five launches and a read at the same time as the others. */
#include "scenarios.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, STEPS = 5 };

typedef struct worker {
    it_cl *cl;
    cl_program program;
    pthread_barrier_t *start;
    int index;
    size_t n;
    particle *result;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    cl_int err;
    cl_command_queue queue =
        clCreateCommandQueue(w->cl->context, w->cl->device, 0, &err);
    CHECK(err);
    cl_kernel advance = it_kernel(w->program, "advance");
    cl_mem p = it_particle_buffer(w->cl, 0, w->n, 20 + (uint32_t)w->index);
    it_set_advance_args(advance, p, (cl_int)w->n,
                        0.25f * (float)(w->index + 1));
    pthread_barrier_wait(w->start);
    for (int s = 0; s < STEPS; s++)
        it_run(queue, advance, it_round_up(w->n));
    CHECK(clEnqueueReadBuffer(queue, p, CL_TRUE, 0, w->n * sizeof(particle),
                              w->result, 0, NULL, NULL));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseCommandQueue(queue));
    return NULL;
}

void scn_threads(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "particles.cl", NULL);
    pthread_barrier_t start;
    pthread_t threads[THREADS];
    worker workers[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int t = 0; t < THREADS; t++) {
        size_t n = IT_RECORDS + 17 * (size_t)t;
        workers[t] =
            (worker){cl, program, &start, t, n, malloc(n * sizeof(particle))};
        if (!workers[t].result)
            it_fail("out of memory");
        if (pthread_create(&threads[t], NULL, work, &workers[t]) != 0)
            it_fail("pthread_create failed");
    }
    for (int t = 0; t < THREADS; t++) {
        char label[64];
        pthread_join(threads[t], NULL);
        snprintf(label, sizeof label, "threads: thread %d", t);
        it_print_digest(label, workers[t].result,
                        workers[t].n * sizeof(particle));
        free(workers[t].result);
    }
    pthread_barrier_destroy(&start);
    CHECK(clReleaseProgram(program));
}
