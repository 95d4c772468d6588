/* scn_two_queues.c - one buffer used from two in-order queues, ordered
 * only by events, as OpenCL requires: launches on A, read on B after
 * them, launches on B, read on A after those.  The conversions dlayout adds on
 * one queue must wait for the commands on the other. */
#include "scenarios.h"

#include <stdlib.h>

void scn_two_queues(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t global = it_round_up(n);
    cl_int err;
    cl_command_queue b_queue =
        clCreateCommandQueue(cl->context, cl->device, 0, &err);
    CHECK(err);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 21);
    particle *host = malloc(size);
    if (!host)
        it_fail("out of memory");
    cl_event launched, read;

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int round = 0; round < 2; round++) {
        cl_command_queue first = round ? b_queue : cl->queue;
        cl_command_queue second = round ? cl->queue : b_queue;
        /* Three steps: dlayout runs the second and third from its launch
         * memo (no event of its own), so the restore on the other queue
         * must wait for them through a marker. */
        for (int step = 0; step < 2; step++)
            CHECK(clEnqueueNDRangeKernel(first, advance, 1, NULL, &global, NULL,
                                         0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(first, advance, 1, NULL, &global, NULL, 0,
                                     NULL, &launched));
        CHECK(clFlush(first));
        CHECK(clEnqueueReadBuffer(second, p, CL_FALSE, 0, size, host, 1,
                                  &launched, &read));
        CHECK(clWaitForEvents(1, &read));
        it_print_digest(round ? "two_queues: B then A" : "two_queues: A then B",
                        host, size);
        CHECK(clReleaseEvent(read));
        CHECK(clReleaseEvent(launched));
    }

    free(host);
    CHECK(clFinish(b_queue));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(b_queue));
}
