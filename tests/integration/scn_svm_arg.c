/* scn_svm_arg.c - a kernel argument switched from a buffer to an SVM
 * pointer (OpenCL 2.0) after launches with the buffer: the later launches
 * must change the SVM records, and leave the buffer alone. */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 200
#include "scenarios.h"

#include <stdio.h>

static void print_svm(cl_command_queue queue, particle *svm, size_t size,
                      const char *label)
{
    CHECK(
        clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, svm, size, 0, NULL, NULL));
    it_print_digest(label, svm, size);
    CHECK(clEnqueueSVMUnmap(queue, svm, 0, NULL, NULL));
    CHECK(clFinish(queue));
}

void scn_svm_arg(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 21);
    particle *svm = clSVMAlloc(cl->context, CL_MEM_READ_WRITE, size, 0);
    if (!svm) {
        printf("svm_arg: the device has no SVM\n");
        return;
    }
    CHECK(clEnqueueSVMMap(cl->queue, CL_TRUE, CL_MAP_WRITE, svm, size, 0, NULL,
                          NULL));
    it_particles_init(svm, n, 22);
    CHECK(clEnqueueSVMUnmap(cl->queue, svm, 0, NULL, NULL));

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clSetKernelArgSVMPointer(advance, 0, svm));
    it_run(cl->queue, advance, it_round_up(n));
    it_run(cl->queue, advance, it_round_up(n));
    print_svm(cl->queue, svm, size, "svm_arg: SVM records, advanced twice");
    it_print_buffer(cl, p, size, "svm_arg: the buffer, advanced twice");
    /* Back to the buffer. */
    CHECK(clSetKernelArg(advance, 0, sizeof p, &p));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "svm_arg: the buffer, advanced again");
    print_svm(cl->queue, svm, size, "svm_arg: SVM records, untouched");

    clSVMFree(cl->context, svm);
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
