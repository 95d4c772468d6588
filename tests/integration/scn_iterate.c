/* scn_iterate.c - the same kernel launched ten times on one buffer (nine
 * NDRange launches and one task), then read: under dlayout the buffer is
 * marshaled once before the first launch and restored once for the read. */
#include "scenarios.h"

void scn_iterate(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", "-DIT_OPTION=1");
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 1);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int i = 0; i < 9; i++)
        it_run(cl->queue, advance, it_round_up(n));
    /* a task is one work-item: it moves record 0 only */
    CHECK(clEnqueueTask(cl->queue, advance, 0, NULL, NULL));
    it_print_buffer(cl, p, size, "iterate: after 10 launches");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
