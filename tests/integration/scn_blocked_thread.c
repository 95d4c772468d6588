/* scn_blocked_thread.c - one host thread blocks while another works.
 * Thread A launches `advance` on its buffer, then makes a blocking read
 * of it that waits for a user event; meanwhile thread B launches
 * `advance` on its own buffer and reads it back.  The host sets the user
 * event only after thread B is done: a lock held across A's blocking
 * call would stop B for good.  A watchdog ends the program if it hangs. */
#include "scenarios.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { WATCHDOG_S = 20, B_STEPS = 3 };

typedef struct blocked {
    it_cl *cl;
    cl_program program;
    cl_event gate;
    pthread_barrier_t started;
    particle *a_host, *b_host;
    size_t n;
} blocked;

static void *thread_a(void *arg)
{
    blocked *s = arg;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(s->cl->context, s->cl->device, 0, &err);
    CHECK(err);
    cl_kernel advance = it_kernel(s->program, "advance");
    cl_mem p = it_particle_buffer(s->cl, 0, s->n, 47);
    it_set_advance_args(advance, p, (cl_int)s->n, 0.5f);
    it_run(q, advance, it_round_up(s->n));
    pthread_barrier_wait(&s->started);
    CHECK(clEnqueueReadBuffer(q, p, CL_TRUE, 0, s->n * sizeof(particle),
                              s->a_host, 1, &s->gate, NULL));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseCommandQueue(q));
    return NULL;
}

static void *thread_b(void *arg)
{
    blocked *s = arg;
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueue(s->cl->context, s->cl->device, 0, &err);
    CHECK(err);
    cl_kernel advance = it_kernel(s->program, "advance");
    cl_mem p = it_particle_buffer(s->cl, 0, s->n, 49);
    it_set_advance_args(advance, p, (cl_int)s->n, 1.5f);
    pthread_barrier_wait(&s->started);
    usleep(100000); /* most likely, A is blocked by now */
    for (int i = 0; i < B_STEPS; i++)
        it_run(q, advance, it_round_up(s->n));
    CHECK(clEnqueueReadBuffer(q, p, CL_TRUE, 0, s->n * sizeof(particle),
                              s->b_host, 0, NULL, NULL));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseCommandQueue(q));
    return NULL;
}

void scn_blocked_thread(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    alarm(WATCHDOG_S); /* SIGALRM ends the process: a failure, not a hang */
    cl_int err;
    blocked s = {.cl = cl, .n = IT_RECORDS};
    s.program = it_build(cl, "particles.cl", NULL);
    s.gate = clCreateUserEvent(cl->context, &err);
    CHECK(err);
    s.a_host = malloc(s.n * sizeof(particle));
    s.b_host = malloc(s.n * sizeof(particle));
    if (!s.a_host || !s.b_host)
        it_fail("out of memory");
    pthread_barrier_init(&s.started, NULL, 2);
    pthread_t a, b;
    if (pthread_create(&a, NULL, thread_a, &s) ||
        pthread_create(&b, NULL, thread_b, &s))
        it_fail("pthread_create failed");
    pthread_join(b, NULL);
    it_print_digest("blocked_thread: thread B", s.b_host,
                    s.n * sizeof(particle));
    CHECK(clSetUserEventStatus(s.gate, CL_COMPLETE));
    pthread_join(a, NULL);
    it_print_digest("blocked_thread: thread A", s.a_host,
                    s.n * sizeof(particle));
    alarm(0);
    pthread_barrier_destroy(&s.started);
    free(s.a_host);
    free(s.b_host);
    CHECK(clReleaseEvent(s.gate));
    CHECK(clReleaseProgram(s.program));
}
