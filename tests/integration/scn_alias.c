/* scn_alias.c - `blend(dst, src)` wants ASTA(8) for dst and ASTA(4) for
 * src.  On two buffers both are marshaled; with one buffer passed as
 * both arguments no single layout fits, so dlayout must run the kernel as
 * written on the original layout. */
#include "scenarios.h"

static void set_blend_args(cl_kernel blend, cl_mem dst, cl_mem src, cl_int n)
{
    CHECK(clSetKernelArg(blend, 0, sizeof dst, &dst));
    CHECK(clSetKernelArg(blend, 1, sizeof src, &src));
    CHECK(clSetKernelArg(blend, 2, sizeof n, &n));
}

void scn_alias(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "blend.cl", NULL);
    cl_kernel blend = it_kernel(program, "blend");
    cl_mem a = it_particle_buffer(cl, 0, n, 24);
    cl_mem b = it_particle_buffer(cl, 0, n, 25);

    set_blend_args(blend, a, b, (cl_int)n);
    it_run(cl->queue, blend, it_round_up(n));
    it_run(cl->queue, blend, it_round_up(n));
    set_blend_args(blend, a, a, (cl_int)n);
    it_run(cl->queue, blend, it_round_up(n));
    it_print_buffer(cl, a, size, "alias: a");
    it_print_buffer(cl, b, size, "alias: b");

    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseKernel(blend));
    CHECK(clReleaseProgram(program));
}
