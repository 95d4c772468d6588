/* scn_raw.c - an unannotated kernel (`census`) reads the particles as the
 * structs the host wrote, between launches of the annotated `advance`: the
 * buffer must be back in its original layout for it. */
#include "scenarios.h"

void scn_raw(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const cl_int count = (cl_int)n;
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_kernel census = it_kernel(program, "census");
    cl_mem p = it_particle_buffer(cl, 0, n, 3);
    cl_mem out = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY,
                                n * sizeof(cl_uint), NULL, &err);
    CHECK(err);

    it_set_advance_args(advance, p, count, 1.0f);
    CHECK(clSetKernelArg(census, 0, sizeof p, &p));
    CHECK(clSetKernelArg(census, 1, sizeof out, &out));
    CHECK(clSetKernelArg(census, 2, sizeof count, &count));
    for (int round = 0; round < 2; round++) {
        it_run(cl->queue, advance, it_round_up(n));
        it_run(cl->queue, census, it_round_up(n));
        it_print_buffer(cl, out, n * sizeof(cl_uint),
                        round ? "raw: census 2" : "raw: census 1");
    }
    it_print_buffer(cl, p, size, "raw: particles");

    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(census));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
