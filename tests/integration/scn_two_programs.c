/* scn_two_programs.c - two programs built from the same source; the
 * second one's kernels come from clCreateKernelsInProgram.  Both
 * `advance` kernels want the same layout of the buffer, so switching
 * between them converts nothing. */
#include "scenarios.h"

#include <string.h>

/* The kernel of `program` named `name`, among all of its kernels. */
static cl_kernel kernel_among_all(cl_program program, const char *name)
{
    cl_kernel kernels[8], found = NULL;
    cl_uint count = 0;
    CHECK(clCreateKernelsInProgram(program, 8, kernels, &count));
    for (cl_uint k = 0; k < count; k++) {
        char kernel_name[64] = "";
        CHECK(clGetKernelInfo(kernels[k], CL_KERNEL_FUNCTION_NAME,
                              sizeof kernel_name - 1, kernel_name, NULL));
        if (!found && strcmp(kernel_name, name) == 0)
            found = kernels[k];
        else
            CHECK(clReleaseKernel(kernels[k]));
    }
    if (!found)
        it_fail("no kernel %s", name);
    return found;
}

void scn_two_programs(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program first = it_build(cl, "particles.cl", NULL);
    cl_program second = it_build(cl, "particles.cl", NULL);
    cl_kernel advance_first = it_kernel(first, "advance");
    cl_kernel advance_second = kernel_among_all(second, "advance");
    cl_kernel settle_second = kernel_among_all(second, "settle");
    cl_mem p = it_particle_buffer(cl, 0, n, 31);

    it_set_advance_args(advance_first, p, (cl_int)n, 0.5f);
    it_set_advance_args(advance_second, p, (cl_int)n, 0.25f);
    CHECK(clSetKernelArg(settle_second, 0, sizeof p, &p));
    it_run(cl->queue, advance_first, it_round_up(n));
    it_run(cl->queue, advance_second, it_round_up(n));
    it_run(cl->queue, advance_first, it_round_up(n));
    it_run(cl->queue, settle_second, n);
    it_print_buffer(cl, p, size, "two_programs: particles");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(settle_second));
    CHECK(clReleaseKernel(advance_second));
    CHECK(clReleaseKernel(advance_first));
    CHECK(clReleaseProgram(second));
    CHECK(clReleaseProgram(first));
}
