/* scn_short.c - a short program: `advance` launched ten times on 2.4M
 * particles (57.6 MB, default; or argv[0] records), then read, on a queue
 * without profiling.  About 0.2 s on POCL here, most of it the ten
 * launches: too short for a conversion and the builds it needs to pay,
 * so the tuner must keep it plain (docs/tuning.md, "Never slower"). */
#include "scenarios.h"

#include <stdlib.h>

enum { SHORT_LAUNCHES = 10 };

void scn_short(it_cl *cl, int argc, char **argv)
{
    size_t n = argc > 0 ? strtoul(argv[0], NULL, 10) : 2400000;
    if (n < 1 || n > 50000000)
        it_fail("short: record count must be 1..50000000");
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 5);

    it_set_advance_args(advance, p, (cl_int)n, 0.125f);
    for (int i = 0; i < SHORT_LAUNCHES; i++)
        it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, n * sizeof(particle), "short: after 10 launches");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
