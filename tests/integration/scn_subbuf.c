/* scn_subbuf.c - a sub-buffer (records 128..227) of a buffer that `advance`
 * leaves transformed: reading it, passing it to an unannotated kernel and
 * writing part of it all need the parent in its original layout.  Then
 * `advance` runs on the sub-buffer itself (dlayout runs it untransformed),
 * and last the parent is released while transformed, with the sub-buffer
 * still alive. */
#include "scenarios.h"

void scn_subbuf(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t rec = sizeof(particle), sub_n = 100;
    const cl_int sub_count = (cl_int)sub_n;
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_kernel census = it_kernel(program, "census");
    cl_mem p = it_particle_buffer(cl, 0, n, 8);
    cl_mem out = clCreateBuffer(cl->context, CL_MEM_READ_WRITE,
                                sub_n * sizeof(cl_uint), NULL, &err);
    CHECK(err);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    /* 128 records = 3072 bytes, a multiple of any base address alignment
     * up to 1024 bytes */
    const cl_buffer_region range = {128 * rec, sub_n * rec};
    cl_mem sub = clCreateSubBuffer(p, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &range, &err);
    CHECK(err);
    it_print_buffer(cl, sub, sub_n * rec, "subbuf: read of the sub-buffer");

    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clSetKernelArg(census, 0, sizeof sub, &sub));
    CHECK(clSetKernelArg(census, 1, sizeof out, &out));
    CHECK(clSetKernelArg(census, 2, sizeof sub_count, &sub_count));
    it_run(cl->queue, census, sub_n);
    it_print_buffer(cl, out, sub_n * sizeof(cl_uint),
                    "subbuf: census of the sub-buffer");

    it_run(cl->queue, advance, it_round_up(n));
    particle fresh[10];
    it_particles_init(fresh, 10, 80);
    CHECK(clEnqueueWriteBuffer(cl->queue, sub, CL_TRUE, 0, sizeof fresh, fresh,
                               0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_set_advance_args(advance, sub, sub_count, 0.25f);
    it_run(cl->queue, advance, it_round_up(sub_n));
    it_print_buffer(cl, p, size, "subbuf: parent");

    /* released while transformed, the sub-buffer keeps its memory alive */
    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clReleaseMemObject(p));
    it_print_buffer(cl, sub, sub_n * rec,
                    "subbuf: sub-buffer after the parent's release");
    CHECK(clReleaseMemObject(sub));
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(census));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
