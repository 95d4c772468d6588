/* scn_two_layouts.c - `advance` wants ASTA(8) and `settle` wants DA of the
 * same buffer: every change of kernel converts the buffer once. */
#include "scenarios.h"

void scn_two_layouts(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_kernel settle = it_kernel(program, "settle");
    cl_mem p = it_particle_buffer(cl, 0, n, 2);

    it_set_advance_args(advance, p, (cl_int)n, 0.25f);
    CHECK(clSetKernelArg(settle, 0, sizeof p, &p));
    it_run(cl->queue, advance, it_round_up(n)); /* AoS -> ASTA(8) */
    it_run(cl->queue, advance, it_round_up(n));
    it_run(cl->queue, settle, n); /* ASTA(8) -> DA  */
    it_run(cl->queue, settle, n);
    it_run(cl->queue, advance, it_round_up(n)); /* DA -> ASTA(8)  */
    it_print_buffer(cl, p, size,
                    "two_layouts: advance advance settle settle advance");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(settle));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
