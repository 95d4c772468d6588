/* scn_linked.c - an annotated source compiled and linked separately
 * (clCompileProgram, clLinkProgram) instead of clBuildProgram: the linked
 * program's kernels run as written. */
#include "scenarios.h"

#include <stdlib.h>

void scn_linked(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_int err;
    char *text = it_read_kernel_file("particles.cl");
    const char *strings[] = {text};
    cl_program source =
        clCreateProgramWithSource(cl->context, 1, strings, NULL, &err);
    CHECK(err);
    free(text);
    CHECK(clCompileProgram(source, 1, &cl->device, NULL, 0, NULL, NULL, NULL,
                           NULL));
    cl_program linked = clLinkProgram(cl->context, 1, &cl->device, NULL, 1,
                                      &source, NULL, NULL, &err);
    CHECK(err);
    cl_kernel advance = it_kernel(linked, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 51);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int i = 0; i < 3; i++)
        it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "linked: particles");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(linked));
    CHECK(clReleaseProgram(source));
}
