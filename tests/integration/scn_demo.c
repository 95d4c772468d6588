/* scn_demo.c - the README demo: a particle buffer (default 200003 records,
 * or argv[0]) moved by `advance` for 40 time steps, then read.  The digest
 * goes to stdout; the times of the last 39 steps and of the read go to
 * stderr, so that stdout of a plain run and of a run under dl-run compare
 * equal.  Under dl-run the first step includes the marshal, the read the
 * restore. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { DEMO_STEPS = 40 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void scn_demo(it_cl *cl, int argc, char **argv)
{
    size_t n = argc > 0 ? strtoul(argv[0], NULL, 10) : 200003;
    if (n < 1 || n > 50000000)
        it_fail("demo: record count must be 1..50000000");
    const size_t size = n * sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 17);
    particle *host = malloc(size);
    if (!host)
        it_fail("out of memory");

    it_set_advance_args(advance, p, (cl_int)n, 0.25f);
    /* the first launch (under dl-run: with the marshal) is not timed */
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clFinish(cl->queue));
    double start = now_ms();
    for (int s = 1; s < DEMO_STEPS; s++)
        it_run(cl->queue, advance, it_round_up(n));
    CHECK(clFinish(cl->queue));
    double stepped = now_ms();
    CHECK(clEnqueueReadBuffer(cl->queue, p, CL_TRUE, 0, size, host, 0, NULL,
                              NULL));
    double read = now_ms();
    char label[64];
    snprintf(label, sizeof label, "demo: %zu particles, %d steps", n,
             DEMO_STEPS);
    it_print_digest(label, host, size);
    fprintf(stderr, "demo: %d steps took %.1f ms, the read %.1f ms\n",
            DEMO_STEPS - 1, stepped - start, read - stepped);

    free(host);
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
