/* scn_writes.c - writes and fills of a buffer that a kernel has left
 * transformed.  A partial write or fill needs the original layout first;
 * a whole-buffer one replaces everything, so it needs no conversion. */
#include "scenarios.h"

#include <stdlib.h>

void scn_writes(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t rec = sizeof(particle);
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 4);
    particle *fresh = malloc(size);
    if (!fresh)
        it_fail("out of memory");
    it_particles_init(fresh, n, 40);
    const cl_ulong pattern = 0x0123456789abcdefull;

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    /* records 10..19 */
    CHECK(clEnqueueWriteBuffer(cl->queue, p, CL_TRUE, 10 * rec, 10 * rec, fresh,
                               0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clEnqueueWriteBuffer(cl->queue, p, CL_TRUE, 0, size, fresh, 0, NULL,
                               NULL));
    it_run(cl->queue, advance, it_round_up(n));
    /* records 10..19 again, with an 8-byte pattern */
    CHECK(clEnqueueFillBuffer(cl->queue, p, &pattern, sizeof pattern, 10 * rec,
                              10 * rec, 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clEnqueueFillBuffer(cl->queue, p, &pattern, sizeof pattern, 0, size,
                              0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    /* the buffer as 59 rows of 17 records: 5 records of rows 3..12 */
    const size_t row = 17 * rec;
    const size_t buffer_origin[3] = {2 * rec, 3, 0};
    const size_t host_origin[3] = {0, 0, 0};
    const size_t region[3] = {5 * rec, 10, 1};
    CHECK(clEnqueueWriteBufferRect(cl->queue, p, CL_TRUE, buffer_origin,
                                   host_origin, region, row, 0, 5 * rec, 0,
                                   fresh, 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "writes: after partial and whole writes");

    free(fresh);
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
