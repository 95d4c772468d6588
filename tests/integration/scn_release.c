/* scn_release.c - buffers released while a kernel has left them
 * transformed.  A retained buffer keeps its state through a release; a
 * destroyed one takes it along, and new buffers (the allocator may hand
 * out the same handle again) start in their original layout. */
#include "scenarios.h"

#include <stdio.h>

void scn_release(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const cl_int count = (cl_int)n;
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_kernel census = it_kernel(program, "census");
    cl_mem out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE,
                                n * sizeof(cl_uint), NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(census, 1, sizeof out, &out));
    CHECK(clSetKernelArg(census, 2, sizeof count, &count));

    cl_mem a = it_particle_buffer(cl, 0, n, 10);
    it_set_advance_args(advance, a, count, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clRetainMemObject(a));
    CHECK(clReleaseMemObject(a)); /* still alive, still transformed */
    it_print_buffer(cl, a, size, "release: retained buffer");
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clReleaseMemObject(a)); /* gone while transformed */

    for (int round = 0; round < 3; round++) {
        char label[64];
        cl_mem b = it_particle_buffer(cl, 0, n, 11 + (uint32_t)round);
        CHECK(clSetKernelArg(census, 0, sizeof b, &b));
        it_run(cl->queue, census, it_round_up(n));
        snprintf(label, sizeof label, "release: census of new buffer %d",
                 round);
        it_print_buffer(cl, out, n * sizeof(cl_uint), label);
        it_set_advance_args(advance, b, count, 0.5f);
        it_run(cl->queue, advance, it_round_up(n));
        CHECK(clReleaseMemObject(b));
    }

    cl_mem c = it_particle_buffer(cl, 0, n, 14);
    it_set_advance_args(advance, c, count, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, c, size, "release: last buffer");
    CHECK(clReleaseMemObject(c));

    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(census));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
