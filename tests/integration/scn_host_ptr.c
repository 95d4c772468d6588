/* scn_host_ptr.c - buffers whose memory the host owns (USE_HOST_PTR) or
 * can map cheaply (ALLOC_HOST_PTR): after a map the host sees the
 * original layout, in its own array for USE_HOST_PTR. */
#include "scenarios.h"

#include <stdlib.h>

void scn_host_ptr(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t rec = sizeof(particle);
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    particle *own = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
    if (!own)
        it_fail("out of memory");
    it_particles_init(own, n, 6);
    cl_mem p = clCreateBuffer(
        cl->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, size, own, &err);
    CHECK(err);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    void *mapped = clEnqueueMapBuffer(cl->queue, p, CL_TRUE, CL_MAP_READ, 0,
                                      size, 0, NULL, NULL, &err);
    CHECK(err);
    it_print_digest("host_ptr: USE_HOST_PTR, mapped", mapped, size);
    it_print_digest("host_ptr: USE_HOST_PTR, host array", own, size);
    CHECK(clEnqueueUnmapMemObject(cl->queue, p, mapped, 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "host_ptr: USE_HOST_PTR, read");

    cl_mem a = it_particle_buffer(cl, CL_MEM_ALLOC_HOST_PTR, n, 7);
    it_set_advance_args(advance, a, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    /* a partial map for reading and writing: records 5..54 */
    particle *part =
        clEnqueueMapBuffer(cl->queue, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                           5 * rec, 50 * rec, 0, NULL, NULL, &err);
    CHECK(err);
    it_print_digest("host_ptr: ALLOC_HOST_PTR, mapped part", part, 50 * rec);
    for (int i = 0; i < 50; i++)
        part[i].id += 1000;
    CHECK(clEnqueueUnmapMemObject(cl->queue, a, part, 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, a, size, "host_ptr: ALLOC_HOST_PTR, read");

    CHECK(clReleaseMemObject(a));
    CHECK(clReleaseMemObject(p));
    free(own);
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
