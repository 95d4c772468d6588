/* scn_oversize.c - `oversize` claims twice the records its buffer holds;
 * the runtime must notice at the launch, warn, and run it untransformed
 * (on the original layout) between launches of a good kernel. */
#include "scenarios.h"

void scn_oversize(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "bad_annotations.cl", NULL);
    cl_kernel good = it_kernel(program, "good_step");
    cl_kernel over = it_kernel(program, "oversize");
    cl_mem p = it_particle_buffer(cl, 0, n, 16);

    it_set_advance_args(good, p, (cl_int)n, 0.5f);
    it_set_advance_args(over, p, (cl_int)n, 0.25f);
    it_run(cl->queue, good, it_round_up(n));
    it_run(cl->queue, over, it_round_up(n));
    it_run(cl->queue, over, it_round_up(n));
    it_print_buffer(cl, p, size, "oversize: particles");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(over));
    CHECK(clReleaseKernel(good));
    CHECK(clReleaseProgram(program));
}
