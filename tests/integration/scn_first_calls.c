/* scn_first_calls.c - four threads, each with its own context and queue,
 * build their programs and launch at the same moment: these are the first
 * calls dlayout intercepts in the process (it starts lazily, on the first
 * one), so its start must be thread-safe.  Opening the contexts is done
 * one thread at a time: concurrent first calls of clGetPlatformIDs and
 * clGetDeviceIDs fail in ocl-icd + POCL even without dlayout. */
#include "scenarios.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { THREADS = 4, STEPS = 3 };

static pthread_mutex_t opening = PTHREAD_MUTEX_INITIALIZER;

typedef struct opener {
    pthread_barrier_t *start;
    int index;
    particle *result;
} opener;

static void *open_and_run(void *arg)
{
    opener *o = arg;
    const size_t n = IT_RECORDS;
    it_cl cl;
    pthread_mutex_lock(&opening);
    it_cl_open(&cl);
    pthread_mutex_unlock(&opening);
    pthread_barrier_wait(o->start);
    cl_program program = it_build(&cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(&cl, 0, n, 40 + (uint32_t)o->index);
    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int s = 0; s < STEPS; s++)
        it_run(cl.queue, advance, it_round_up(n));
    CHECK(clEnqueueReadBuffer(cl.queue, p, CL_TRUE, 0, n * sizeof(particle),
                              o->result, 0, NULL, NULL));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
    it_cl_close(&cl);
    return NULL;
}

void scn_first_calls(it_cl *unused, int argc, char **argv)
{
    (void)unused, (void)argc, (void)argv;
    pthread_barrier_t start;
    pthread_t threads[THREADS];
    opener openers[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int t = 0; t < THREADS; t++) {
        openers[t] = (opener){&start, t, malloc(IT_RECORDS * sizeof(particle))};
        if (!openers[t].result)
            it_fail("out of memory");
        if (pthread_create(&threads[t], NULL, open_and_run, &openers[t]))
            it_fail("pthread_create failed");
    }
    for (int t = 0; t < THREADS; t++) {
        char label[64];
        pthread_join(threads[t], NULL);
        snprintf(label, sizeof label, "first_calls: thread %d", t);
        it_print_digest(label, openers[t].result,
                        IT_RECORDS * sizeof(particle));
        free(openers[t].result);
    }
    pthread_barrier_destroy(&start);
}
