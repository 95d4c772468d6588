/* scn_cross_queue.c - a buffer used from two in-order queues.  On queue 1
 * a launch of `advance` (event E) and a non-blocking read of the buffer;
 * on queue 2 one access of the same buffer that waits only for E: a read,
 * a kernel (census), a copy or a map.  The program's own dependencies
 * make that access see the buffer as `advance` left it, whatever runs on
 * queue 1 after E.  Everything waits for a user event the host sets last,
 * so the commands of both queues become ready together.  A large buffer
 * keeps a conversion after E busy while queue 2's access runs. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>

enum { ACCESS_READ, ACCESS_KERNEL, ACCESS_COPY, ACCESS_MAP, ACCESSES };
static const char *const access_name[ACCESSES] = {"read", "kernel", "copy",
                                                  "map"};

#define CROSS_RECORDS 200003

typedef struct cross {
    it_cl *cl;
    cl_command_queue q2;
    cl_kernel census;
    cl_mem p, out, copy;
    size_t n, size;
    void *mapped;
} cross;

/* Queue 2's access of p after `after`; its event in *done. */
static void access_on_q2(cross *x, int kind, cl_event after, cl_event *done,
                         void *host)
{
    cl_int err;
    switch (kind) {
    case ACCESS_READ:
        CHECK(clEnqueueReadBuffer(x->q2, x->p, CL_FALSE, 0, x->size, host, 1,
                                  &after, done));
        break;
    case ACCESS_KERNEL: {
        size_t global = it_round_up(x->n);
        cl_int n = (cl_int)x->n;
        CHECK(clSetKernelArg(x->census, 0, sizeof x->p, &x->p));
        CHECK(clSetKernelArg(x->census, 1, sizeof x->out, &x->out));
        CHECK(clSetKernelArg(x->census, 2, sizeof n, &n));
        CHECK(clEnqueueNDRangeKernel(x->q2, x->census, 1, NULL, &global, NULL,
                                     1, &after, done));
        break;
    }
    case ACCESS_COPY:
        CHECK(clEnqueueCopyBuffer(x->q2, x->p, x->copy, 0, 0, x->size, 1,
                                  &after, done));
        break;
    case ACCESS_MAP:
        x->mapped = clEnqueueMapBuffer(x->q2, x->p, CL_FALSE, CL_MAP_READ, 0,
                                       x->size, 1, &after, done, &err);
        CHECK(err);
        break;
    }
}

/* Prints what queue 2's access saw. */
static void print_q2(cross *x, int kind, void *host)
{
    char label[64];
    snprintf(label, sizeof label, "cross_queue: queue 2 %s", access_name[kind]);
    switch (kind) {
    case ACCESS_READ:
        it_print_digest(label, host, x->size);
        break;
    case ACCESS_KERNEL:
        CHECK(clEnqueueReadBuffer(x->q2, x->out, CL_TRUE, 0,
                                  x->n * sizeof(cl_uint), host, 0, NULL, NULL));
        it_print_digest(label, host, x->n * sizeof(cl_uint));
        break;
    case ACCESS_COPY:
        CHECK(clEnqueueReadBuffer(x->q2, x->copy, CL_TRUE, 0, x->size, host, 0,
                                  NULL, NULL));
        it_print_digest(label, host, x->size);
        break;
    case ACCESS_MAP:
        it_print_digest(label, x->mapped, x->size);
        CHECK(clEnqueueUnmapMemObject(x->q2, x->p, x->mapped, 0, NULL, NULL));
        CHECK(clFinish(x->q2));
        break;
    }
}

void scn_cross_queue(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_int err;
    cross x = {.cl = cl, .n = CROSS_RECORDS};
    x.size = x.n * sizeof(particle);
    x.q2 = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    CHECK(err);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    x.census = it_kernel(program, "census");
    x.p = it_particle_buffer(cl, 0, x.n, 41);
    x.out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE,
                           x.n * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    x.copy = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, x.size, NULL, &err);
    CHECK(err);
    void *q1_host = malloc(x.size), *q2_host = malloc(x.size);
    if (!q1_host || !q2_host)
        it_fail("out of memory");
    size_t global = it_round_up(x.n);
    it_set_advance_args(advance, x.p, (cl_int)x.n, 0.5f);

    for (int kind = 0; kind < ACCESSES; kind++) {
        cl_event gate = clCreateUserEvent(cl->context, &err);
        CHECK(err);
        cl_event launched, q1_read, q2_done;
        CHECK(clEnqueueNDRangeKernel(cl->queue, advance, 1, NULL, &global, NULL,
                                     1, &gate, &launched));
        CHECK(clEnqueueReadBuffer(cl->queue, x.p, CL_FALSE, 0, x.size, q1_host,
                                  0, NULL, &q1_read));
        access_on_q2(&x, kind, launched, &q2_done, q2_host);
        CHECK(clFlush(cl->queue));
        CHECK(clFlush(x.q2));
        CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
        /* Before queue 1's read is over: a map may show the buffer's
         * own bytes, which queue 1's commands may still change. */
        CHECK(clWaitForEvents(1, &q2_done));
        print_q2(&x, kind, q2_host);
        CHECK(clWaitForEvents(1, &q1_read));
        it_print_digest("cross_queue: queue 1 read", q1_host, x.size);
        CHECK(clReleaseEvent(q2_done));
        CHECK(clReleaseEvent(q1_read));
        CHECK(clReleaseEvent(launched));
        CHECK(clReleaseEvent(gate));
    }

    free(q1_host);
    free(q2_host);
    CHECK(clFinish(cl->queue));
    CHECK(clReleaseMemObject(x.copy));
    CHECK(clReleaseMemObject(x.out));
    CHECK(clReleaseMemObject(x.p));
    CHECK(clReleaseKernel(x.census));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseCommandQueue(x.q2));
}
