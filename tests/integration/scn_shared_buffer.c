/* scn_shared_buffer.c - two host threads share one buffer, each with its
 * own queue.  Thread A launches `advance` on it (event E), then reads it
 * back without blocking; thread B, told of E, reads it or runs `census`
 * on it after E only.  As in scn_cross_queue.c, a user event the host
 * sets once both threads have enqueued their commands releases them
 * together. */
#include "scenarios.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SHARED_RECORDS 200003
enum { ROUNDS = 4 };

typedef struct shared {
    it_cl *cl;
    cl_kernel advance, census;
    cl_mem p, out;
    size_t n, size;
    cl_event gate, launched, a_read, b_done;
    void *a_host, *b_host;
    int round;
    pthread_barrier_t enqueued, finished;
} shared;

static void *thread_a(void *arg)
{
    shared *s = arg;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(s->cl->context, s->cl->device, 0, &err);
    CHECK(err);
    size_t global = it_round_up(s->n);
    it_set_advance_args(s->advance, s->p, (cl_int)s->n, 0.25f);
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&s->enqueued); /* the gate exists */
        CHECK(clEnqueueNDRangeKernel(q, s->advance, 1, NULL, &global, NULL, 1,
                                     &s->gate, &s->launched));
        CHECK(clEnqueueReadBuffer(q, s->p, CL_FALSE, 0, s->size, s->a_host, 0,
                                  NULL, &s->a_read));
        CHECK(clFlush(q));
        pthread_barrier_wait(&s->enqueued); /* E is known */
        for (int i = 0; i < 3; i++)
            pthread_barrier_wait(&s->finished);
    }
    CHECK(clFinish(q));
    CHECK(clReleaseCommandQueue(q));
    return NULL;
}

static void *thread_b(void *arg)
{
    shared *s = arg;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(s->cl->context, s->cl->device, 0, &err);
    CHECK(err);
    size_t global = it_round_up(s->n);
    cl_int n = (cl_int)s->n;
    CHECK(clSetKernelArg(s->census, 0, sizeof s->p, &s->p));
    CHECK(clSetKernelArg(s->census, 1, sizeof s->out, &s->out));
    CHECK(clSetKernelArg(s->census, 2, sizeof n, &n));
    for (int r = 0; r < ROUNDS; r++) {
        pthread_barrier_wait(&s->enqueued);
        pthread_barrier_wait(&s->enqueued);
        if (r % 2 == 0)
            CHECK(clEnqueueReadBuffer(q, s->p, CL_FALSE, 0, s->size, s->b_host,
                                      1, &s->launched, &s->b_done));
        else
            CHECK(clEnqueueNDRangeKernel(q, s->census, 1, NULL, &global, NULL,
                                         1, &s->launched, &s->b_done));
        CHECK(clFlush(q));
        pthread_barrier_wait(&s->finished); /* b_done is known */
        pthread_barrier_wait(&s->finished); /* the host saw it */
        if (r % 2)
            CHECK(clEnqueueReadBuffer(q, s->out, CL_TRUE, 0,
                                      s->n * sizeof(cl_uint), s->b_host, 0,
                                      NULL, NULL));
        pthread_barrier_wait(&s->finished);
    }
    CHECK(clReleaseCommandQueue(q));
    return NULL;
}

void scn_shared_buffer(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_int err;
    shared s = {.cl = cl, .n = SHARED_RECORDS};
    s.size = s.n * sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", NULL);
    s.advance = it_kernel(program, "advance");
    s.census = it_kernel(program, "census");
    s.p = it_particle_buffer(cl, 0, s.n, 43);
    s.out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE,
                           s.n * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    s.a_host = malloc(s.size);
    s.b_host = malloc(s.size);
    if (!s.a_host || !s.b_host)
        it_fail("out of memory");
    /* Each round: the three pass `enqueued` twice and `finished` three
     * times. */
    pthread_barrier_init(&s.enqueued, NULL, 3);
    pthread_barrier_init(&s.finished, NULL, 3);
    pthread_t a, b;
    if (pthread_create(&a, NULL, thread_a, &s) ||
        pthread_create(&b, NULL, thread_b, &s))
        it_fail("pthread_create failed");
    for (int r = 0; r < ROUNDS; r++) {
        s.gate = clCreateUserEvent(cl->context, &err);
        CHECK(err);
        pthread_barrier_wait(&s.enqueued);
        pthread_barrier_wait(&s.enqueued);
        pthread_barrier_wait(&s.finished); /* A and B enqueued all */
        CHECK(clSetUserEventStatus(s.gate, CL_COMPLETE));
        CHECK(clWaitForEvents(1, &s.b_done));
        CHECK(clWaitForEvents(1, &s.a_read));
        pthread_barrier_wait(&s.finished);
        pthread_barrier_wait(&s.finished); /* B read census's output */
        char label[64];
        snprintf(label, sizeof label, "shared_buffer: round %d thread B %s", r,
                 r % 2 ? "census" : "read");
        it_print_digest(label, s.b_host,
                        r % 2 ? s.n * sizeof(cl_uint) : s.size);
        it_print_digest("shared_buffer: thread A read", s.a_host, s.size);
        CHECK(clReleaseEvent(s.b_done));
        CHECK(clReleaseEvent(s.a_read));
        CHECK(clReleaseEvent(s.launched));
        CHECK(clReleaseEvent(s.gate));
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&s.enqueued);
    pthread_barrier_destroy(&s.finished);
    free(s.a_host);
    free(s.b_host);
    CHECK(clReleaseMemObject(s.out));
    CHECK(clReleaseMemObject(s.p));
    CHECK(clReleaseKernel(s.census));
    CHECK(clReleaseKernel(s.advance));
    CHECK(clReleaseProgram(program));
}
