/* scn_binary.c - a program built from source, whose binary the program
 * saves and loads again (as applications cache their builds): the kernel
 * from the binary runs on a fresh buffer, then the one from source.  The
 * binary must behave like the source it came from, on the data as the
 * host wrote it. */
#include "scenarios.h"

#include <stdlib.h>

static cl_program from_binary(const it_cl *cl, cl_program source)
{
    size_t size;
    cl_int err, status;
    CHECK(clGetProgramInfo(source, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                           NULL));
    unsigned char *binary = malloc(size);
    if (!binary)
        it_fail("out of memory");
    CHECK(clGetProgramInfo(source, CL_PROGRAM_BINARIES, sizeof binary, &binary,
                           NULL));
    const unsigned char *binaries[] = {binary};
    cl_program program = clCreateProgramWithBinary(
        cl->context, 1, &cl->device, &size, binaries, &status, &err);
    CHECK(err);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &cl->device, NULL, NULL, NULL));
    free(binary);
    return program;
}

void scn_binary(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program source = it_build(cl, "particles.cl", NULL);
    cl_program binary = from_binary(cl, source);
    cl_kernel advance_bin = it_kernel(binary, "advance");
    cl_kernel advance_src = it_kernel(source, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 22);

    it_set_advance_args(advance_bin, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance_bin, it_round_up(n));
    it_run(cl->queue, advance_bin, it_round_up(n));
    it_print_buffer(cl, p, size, "binary: after the binary's kernel");
    it_set_advance_args(advance_src, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance_src, it_round_up(n));
    it_run(cl->queue, advance_bin, it_round_up(n));
    it_print_buffer(cl, p, size, "binary: after source, then binary");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance_src));
    CHECK(clReleaseKernel(advance_bin));
    CHECK(clReleaseProgram(binary));
    CHECK(clReleaseProgram(source));
}
