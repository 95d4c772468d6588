/* scn_access.c - every way a host or a copy command sees the bytes of a
 * transformed buffer: read, read-rect, map for reading (non-blocking),
 * copy (as source) and copy-rect (as destination).  Each needs the
 * original layout first.
 * A whole-buffer map with CL_MAP_WRITE_INVALIDATE_REGION replaces the
 * contents and needs no conversion. */
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

void scn_access(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t rec = sizeof(particle), row = 17 * rec; /* 59 rows */
    const size_t zero[3] = {0, 0, 0};
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 5);
    cl_mem other = it_particle_buffer(cl, 0, n, 50);
    particle *host = malloc(size);
    if (!host)
        it_fail("out of memory");

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clEnqueueReadBuffer(cl->queue, p, CL_TRUE, 100 * rec, 10 * rec, host,
                              0, NULL, NULL));
    it_print_digest("access: read of records 100..109", host, 10 * rec);

    it_run(cl->queue, advance, it_round_up(n));
    const size_t origin[3] = {2 * rec, 3, 0}, region[3] = {5 * rec, 10, 1};
    CHECK(clEnqueueReadBufferRect(cl->queue, p, CL_TRUE, origin, zero, region,
                                  row, 0, 5 * rec, 0, host, 0, NULL, NULL));
    it_print_digest("access: read-rect", host, 50 * rec);

    it_run(cl->queue, advance, it_round_up(n));
    /* a non-blocking map: the pointer is valid once its event completes */
    cl_event mapped_event;
    void *mapped = clEnqueueMapBuffer(cl->queue, p, CL_FALSE, CL_MAP_READ, 0,
                                      size, 0, NULL, &mapped_event, &err);
    CHECK(err);
    CHECK(clWaitForEvents(1, &mapped_event));
    CHECK(clReleaseEvent(mapped_event));
    it_print_digest("access: map for reading", mapped, size);
    CHECK(clEnqueueUnmapMemObject(cl->queue, p, mapped, 0, NULL, NULL));

    it_run(cl->queue, advance, it_round_up(n));
    mapped = clEnqueueMapBuffer(cl->queue, p, CL_TRUE,
                                CL_MAP_WRITE_INVALIDATE_REGION, 0, size, 0,
                                NULL, NULL, &err);
    CHECK(err);
    it_particles_init(host, n, 51);
    memcpy(mapped, host, size);
    CHECK(clEnqueueUnmapMemObject(cl->queue, p, mapped, 0, NULL, NULL));

    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clEnqueueCopyBuffer(cl->queue, p, other, 0, 0, size, 0, NULL, NULL));
    it_print_buffer(cl, other, size, "access: copy of the whole buffer");

    it_run(cl->queue, advance, it_round_up(n));
    const size_t dst_origin[3] = {2 * rec, 20, 0};
    const size_t copy_region[3] = {10 * rec, 7, 1};
    CHECK(clEnqueueCopyBufferRect(cl->queue, other, p, zero, dst_origin,
                                  copy_region, row, 0, row, 0, 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "access: after copy-rect into it");

    free(host);
    CHECK(clReleaseMemObject(other));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
