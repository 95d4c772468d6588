/* scn_unselected.c - a kernel whose annotation asks for DA but whose
 * source has no transformed indexing, launched three times on one
 * buffer: the runtime must refuse the annotation and leave the buffer in
 * its original layout. */
#include "scenarios.h"

void scn_unselected(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "unselected.cl", NULL);
    cl_kernel kernel = it_kernel(program, "hand_da");
    cl_mem p = it_particle_buffer(cl, 0, n, 17);

    it_set_advance_args(kernel, p, (cl_int)n, 0.5f);
    for (int step = 0; step < 3; step++)
        it_run(cl->queue, kernel, it_round_up(n));
    it_print_buffer(cl, p, size, "unselected: particles");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
}
