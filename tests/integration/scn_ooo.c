/* scn_ooo.c - an out-of-order queue.  Two independent chains of commands
 * (one per buffer) are linked only by events, and a user event holds back
 * the start of both: a conversion dlayout adds must wait for the launch's
 * wait list, and the events the program gets back must complete only after
 * their commands. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>

enum { CHAINS = 2, STEPS = 3 };

void scn_ooo(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const cl_int count = (cl_int)n;
    cl_int err;
    cl_command_queue queue = clCreateCommandQueue(
        cl->context, cl->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    CHECK(err);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_event gate = clCreateUserEvent(cl->context, &err);
    CHECK(err);

    cl_kernel seed[CHAINS], advance[CHAINS];
    cl_mem p[CHAINS];
    cl_event last[CHAINS], read_done[CHAINS];
    particle *host[CHAINS];
    for (int c = 0; c < CHAINS; c++) {
        seed[c] = it_kernel(program, "seed");
        advance[c] = it_kernel(program, "advance");
        p[c] = it_particle_buffer(cl, 0, n, 9 + (uint32_t)c);
        host[c] = malloc(size);
        if (!host[c])
            it_fail("out of memory");
        const cl_int base = 100000 * (c + 1);
        CHECK(clSetKernelArg(seed[c], 0, sizeof p[c], &p[c]));
        CHECK(clSetKernelArg(seed[c], 1, sizeof count, &count));
        CHECK(clSetKernelArg(seed[c], 2, sizeof base, &base));
        it_set_advance_args(advance[c], p[c], count, 0.25f * (float)(c + 1));
    }
    /* interleave the two chains: seed (waits for the gate), then steps */
    const size_t global = it_round_up(n);
    for (int c = 0; c < CHAINS; c++)
        CHECK(clEnqueueNDRangeKernel(queue, seed[c], 1, NULL, &global, NULL, 1,
                                     &gate, &last[c]));
    for (int s = 0; s < STEPS; s++)
        for (int c = 0; c < CHAINS; c++) {
            cl_event done;
            CHECK(clEnqueueNDRangeKernel(queue, advance[c], 1, NULL, &global,
                                         NULL, 1, &last[c], &done));
            CHECK(clReleaseEvent(last[c]));
            last[c] = done;
        }
    for (int c = 0; c < CHAINS; c++)
        CHECK(clEnqueueReadBuffer(queue, p[c], CL_FALSE, 0, size, host[c], 1,
                                  &last[c], &read_done[c]));
    CHECK(clFlush(queue));

    /* nothing may have run yet: every command hangs on the gate */
    cl_int status;
    CHECK(clGetEventInfo(read_done[0], CL_EVENT_COMMAND_EXECUTION_STATUS,
                         sizeof status, &status, NULL));
    printf("ooo: read complete before the gate opened: %s\n",
           status == CL_COMPLETE ? "yes" : "no");
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clWaitForEvents(CHAINS, read_done));

    for (int c = 0; c < CHAINS; c++) {
        CHECK(clGetEventInfo(last[c], CL_EVENT_COMMAND_EXECUTION_STATUS,
                             sizeof status, &status, NULL));
        printf("ooo: chain %d last launch complete: %s\n", c,
               status == CL_COMPLETE ? "yes" : "no");
        it_print_digest(c ? "ooo: chain 1" : "ooo: chain 0", host[c], size);
        CHECK(clReleaseEvent(read_done[c]));
        CHECK(clReleaseEvent(last[c]));
        CHECK(clReleaseMemObject(p[c]));
        CHECK(clReleaseKernel(advance[c]));
        CHECK(clReleaseKernel(seed[c]));
        free(host[c]);
    }
    CHECK(clReleaseEvent(gate));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(queue));
}
