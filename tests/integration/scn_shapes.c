/* scn_shapes.c - kernels/shapes.cl: a 2D launch of 17 x 59 work-items
 * over 1003 particles (the count is global_size(1) * global_size(0)), and
 * a float array of 1003 records of 3 floats that `scale_rows` wants as
 * DA. */
#include "scenarios.h"

#include <stdlib.h>

void scn_shapes(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t grid[2] = {17, 59};
    const cl_int rows = (cl_int)n;
    cl_int err;
    cl_program program = it_build(cl, "shapes.cl", NULL);
    cl_kernel shift2d = it_kernel(program, "shift2d");
    cl_kernel scale_rows = it_kernel(program, "scale_rows");
    cl_mem p = it_particle_buffer(cl, 0, n, 32);
    float *values = malloc(3 * n * sizeof *values);
    if (!values)
        it_fail("out of memory");
    for (size_t i = 0; i < 3 * n; i++)
        values[i] = (float)(i % 251) - 100.0f;
    cl_mem v =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       3 * n * sizeof *values, values, &err);
    CHECK(err);

    CHECK(clSetKernelArg(shift2d, 0, sizeof p, &p));
    CHECK(clSetKernelArg(scale_rows, 0, sizeof v, &v));
    CHECK(clSetKernelArg(scale_rows, 1, sizeof rows, &rows));
    for (int s = 0; s < 2; s++) {
        CHECK(clEnqueueNDRangeKernel(cl->queue, shift2d, 2, NULL, grid, NULL, 0,
                                     NULL, NULL));
        it_run(cl->queue, scale_rows, it_round_up(n));
    }
    it_print_buffer(cl, p, size, "shapes: particles after 2D launches");
    it_print_buffer(cl, v, 3 * n * sizeof *values, "shapes: rows of floats");

    free(values);
    CHECK(clReleaseMemObject(v));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(scale_rows));
    CHECK(clReleaseKernel(shift2d));
    CHECK(clReleaseProgram(program));
}
