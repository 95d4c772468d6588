/* scn_bad_annot.c - three kernels with rejected annotations take turns
 * with a good one on the same buffer.  The rejected ones run as written,
 * so each needs the buffer back in its original layout. */
#include "scenarios.h"

void scn_bad_annot(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const char *bad[] = {"bad_syntax", "bad_arg", "bad_record"};
    cl_program program = it_build(cl, "bad_annotations.cl", NULL);
    cl_kernel good = it_kernel(program, "good_step");
    cl_mem p = it_particle_buffer(cl, 0, n, 15);

    it_set_advance_args(good, p, (cl_int)n, 0.5f);
    it_run(cl->queue, good, it_round_up(n));
    for (int b = 0; b < 3; b++) {
        cl_kernel kernel = it_kernel(program, bad[b]);
        it_set_advance_args(kernel, p, (cl_int)n, 0.25f);
        it_run(cl->queue, good, it_round_up(n));
        it_run(cl->queue, kernel, it_round_up(n));
        CHECK(clReleaseKernel(kernel));
    }
    it_print_buffer(cl, p, size, "bad_annot: particles");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(good));
    CHECK(clReleaseProgram(program));
}
