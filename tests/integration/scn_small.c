/* scn_small.c - buffers of 1, 5 (less than one tile of 8) and 8 records
 * (exactly one tile), and a DA of 3 records. */
#include "scenarios.h"

#include <stdio.h>

void scn_small(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t sizes[] = {1, 5, 8};
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_kernel settle = it_kernel(program, "settle");

    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        char label[64];
        size_t n = sizes[k];
        cl_mem p = it_particle_buffer(cl, 0, n, 27 + (uint32_t)k);
        it_set_advance_args(advance, p, (cl_int)n, 0.5f);
        for (int s = 0; s < 3; s++)
            it_run(cl->queue, advance, n);
        snprintf(label, sizeof label, "small: %zu records", n);
        it_print_buffer(cl, p, n * sizeof(particle), label);
        CHECK(clReleaseMemObject(p));
    }
    cl_mem p = it_particle_buffer(cl, 0, 3, 30);
    CHECK(clSetKernelArg(settle, 0, sizeof p, &p));
    it_run(cl->queue, settle, 3);
    it_print_buffer(cl, p, 3 * sizeof(particle), "small: DA of 3 records");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(settle));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
