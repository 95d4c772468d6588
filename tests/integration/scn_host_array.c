/* scn_host_array.c - a USE_HOST_PTR buffer whose host array the program
 * reads after clFinish, without mapping it: common practice on CPU
 * devices, where the buffer is the array. */
#include "scenarios.h"

#include <stdlib.h>

void scn_host_array(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    particle *own = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
    if (!own)
        it_fail("out of memory");
    it_particles_init(own, n, 41);
    cl_mem p = clCreateBuffer(
        cl->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, own, &err);
    CHECK(err);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int i = 0; i < 3; i++) {
        it_run(cl->queue, advance, it_round_up(n));
        CHECK(clFinish(cl->queue));
        it_print_digest("host_array: the host array after clFinish", own, size);
    }
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(cl->queue, advance, 1, NULL,
                                 (size_t[]){it_round_up(n)}, NULL, 0, NULL,
                                 &done));
    CHECK(clWaitForEvents(1, &done));
    CHECK(clReleaseEvent(done));
    it_print_digest("host_array: the host array after clWaitForEvents", own,
                    size);

    CHECK(clReleaseMemObject(p));
    free(own);
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
