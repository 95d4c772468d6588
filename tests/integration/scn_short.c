/* scn_short.c - a short program: `advance` launched ten times on 1.2M
 * particles (28.8 MB, default; or argv[0] records), then read, on a queue
 * without profiling.  About 0.2 s on POCL here, launches of 1-4 ms: too
 * short for a conversion and the builds it needs to pay, so the tuner
 * must keep it plain (docs/tuning.md).  Issue 17 saw this with 2.4M
 * (57.6 MB); half of it leaves the decision a margin on a loaded machine,
 * where a launch can take ten times as long. */
#include "scenarios.h"

#include <stdlib.h>

enum { SHORT_LAUNCHES = 10 };

void scn_short(it_cl *cl, int argc, char **argv)
{
    size_t n = argc > 0 ? strtoul(argv[0], NULL, 10) : 1200000;
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
