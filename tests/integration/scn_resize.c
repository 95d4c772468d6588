/* scn_resize.c - the record count of `advance` is its argument n, so the
 * layout it wants changes with n: ASTA(8) of 1003 records is not ASTA(8)
 * of 500 (the tail differs).  Changing n between launches on one buffer
 * must convert it, with only the first n records taking part. */
#include "scenarios.h"

void scn_resize(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const cl_int counts[] = {(cl_int)n, (cl_int)n, 500, 500, (cl_int)n};
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 26);

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        it_set_advance_args(advance, p, counts[i], 0.5f);
        it_run(cl->queue, advance, it_round_up(n));
    }
    it_print_buffer(cl, p, size, "resize: n = 1003, 1003, 500, 500, 1003");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
