/* scn_gated.c - a command the host holds back must hold back nothing
 * else.  A launch of `advance` on queue 1 (event E), then on queue 1 an
 * unrelated write that waits for a user event, then a blocking read of
 * the launched buffer on queue 2 after E.  The host sets the user event
 * only after that read returned: nothing the read depends on waits for
 * it.  Twice: after one launch, and after three (the later ones repeat
 * the first).  A watchdog ends the program if it hangs. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { WATCHDOG_S = 20 };

void scn_gated(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    alarm(WATCHDOG_S); /* SIGALRM ends the process: a failure, not a hang */
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t global = it_round_up(n);
    cl_int err;
    cl_command_queue q2 =
        clCreateCommandQueue(cl->context, cl->device, 0, &err);
    CHECK(err);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 45);
    cl_mem other =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE, size, NULL, &err);
    CHECK(err);
    particle *host = malloc(size), *junk = calloc(n, sizeof *junk);
    if (!host || !junk)
        it_fail("out of memory");
    it_set_advance_args(advance, p, (cl_int)n, 0.75f);

    for (int launches = 1; launches <= 3; launches += 2) {
        cl_event launched, gate, gated;
        for (int i = 1; i < launches; i++)
            it_run(cl->queue, advance, global);
        CHECK(clEnqueueNDRangeKernel(cl->queue, advance, 1, NULL, &global, NULL,
                                     0, NULL, &launched));
        gate = clCreateUserEvent(cl->context, &err);
        CHECK(err);
        CHECK(clEnqueueWriteBuffer(cl->queue, other, CL_FALSE, 0, size, junk, 1,
                                   &gate, &gated));
        CHECK(clFlush(cl->queue));
        CHECK(clEnqueueReadBuffer(q2, p, CL_TRUE, 0, size, host, 1, &launched,
                                  NULL));
        char label[64];
        snprintf(label, sizeof label, "gated: after %d launches", launches);
        it_print_digest(label, host, size);
        CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
        CHECK(clWaitForEvents(1, &gated));
        CHECK(clReleaseEvent(gated));
        CHECK(clReleaseEvent(gate));
        CHECK(clReleaseEvent(launched));
    }

    alarm(0);
    free(host);
    free(junk);
    CHECK(clFinish(cl->queue));
    CHECK(clReleaseMemObject(other));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(q2));
}
