/* scn_contexts.c - contexts made, used and released over and over, as a
 * long-running program that opens a context per job does.  Every context
 * must be destroyed once the program has released everything of it (its
 * destructor callback fires), and the process must not grow per cycle.
 * argv: the number of cycles (default 50), then `early` to release each
 * context after the first launch: its objects keep it alive, and are
 * used (a second launch, the read) and released afterwards;
 * `early-buffer-last` as `early`, the buffer released after everything
 * else, so that it goes after the program's last call that dlayout takes
 * its lock for (as under load, where POCL's threads let go of it late);
 * or `in-flight` to release the buffer, kernel and program while the
 * launch and a non-blocking read are still enqueued behind a user event,
 * then set it and clFinish. */
/* clSetContextDestructorCallback is OpenCL 3.0 (ocl-icd and POCL have it). */
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WARM_UP_CYCLES          5
#define MAX_GROWTH_KB_PER_CYCLE 64

static int destroyed;

static void CL_CALLBACK on_context_destroyed(cl_context context, void *user)
{
    (void)context, (void)user;
    __atomic_add_fetch(&destroyed, 1, __ATOMIC_RELAXED);
}

/* The resident set in KiB (/proc/self/statm), 0 if unknown. */
static long resident_kb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* One job: its own context, queue, program, buffer; one launch and a
 * read; everything released. */
enum release_order { IN_ORDER, EARLY, EARLY_BUFFER_LAST, IN_FLIGHT };

static void one_cycle(int cycle, int last, enum release_order order)
{
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    it_cl cl;
    it_cl_open(&cl);
    CHECK(
        clSetContextDestructorCallback(cl.context, on_context_destroyed, NULL));
    cl_context context = cl.context;
    int early = order == EARLY || order == EARLY_BUFFER_LAST;
    cl_program program = it_build(&cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem buf = it_particle_buffer(&cl, 0, n, 20 + (uint32_t)(cycle % 3));
    it_set_advance_args(advance, buf, (cl_int)n, 0.25f);
    /* in-flight: nothing runs before the releases (an in-order queue) */
    cl_event gate = NULL;
    cl_int err;
    if (order == IN_FLIGHT && !(cycle < 3 || last)) {
        gate = clCreateUserEvent(context, &err);
        CHECK(err);
        CHECK(clEnqueueMarkerWithWaitList(cl.queue, 1, &gate, NULL));
    }
    it_run(cl.queue, advance, it_round_up(n));
    if (early) {
        CHECK(clReleaseContext(context));
        it_run(cl.queue, advance, it_round_up(n));
    }
    if (cycle < 3 || last) {
        char label[64];
        snprintf(label, sizeof label, "contexts: cycle %d", cycle);
        it_print_buffer(&cl, buf, size, label);
    } else {
        particle *p = malloc(size);
        if (!p)
            it_fail("out of memory");
        CHECK(clEnqueueReadBuffer(cl.queue, buf, order != IN_FLIGHT, 0, size, p,
                                  0, NULL, NULL));
        if (order == IN_FLIGHT) {
            CHECK(clReleaseMemObject(buf));
            CHECK(clReleaseKernel(advance));
            CHECK(clReleaseProgram(program));
            buf = NULL;
            CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
            CHECK(clReleaseEvent(gate));
        }
        CHECK(clFinish(cl.queue));
        free(p);
    }
    if (buf) {
        if (order != EARLY_BUFFER_LAST)
            CHECK(clReleaseMemObject(buf));
        CHECK(clReleaseKernel(advance));
        CHECK(clReleaseProgram(program));
    }
    CHECK(clReleaseCommandQueue(cl.queue));
    if (!early)
        CHECK(clReleaseContext(context));
    if (order == EARLY_BUFFER_LAST)
        CHECK(clReleaseMemObject(buf));
}

/* The implementation may let go of a context from its own threads, a
 * little after the call that released the last object (POCL's workers
 * drop their references once a command's completion is handled): wait
 * for that, up to 10 s. */
static int contexts_destroyed(int expected)
{
    for (int i = 0; i < 1000; i++) {
        if (__atomic_load_n(&destroyed, __ATOMIC_RELAXED) >= expected)
            break;
        usleep(10000);
    }
    return __atomic_load_n(&destroyed, __ATOMIC_RELAXED);
}

void scn_contexts(it_cl *unused, int argc, char **argv)
{
    (void)unused;
    int cycles = argc > 0 ? atoi(argv[0]) : 50;
    enum release_order order = IN_ORDER;
    if (argc > 1 && !strcmp(argv[1], "early"))
        order = EARLY;
    else if (argc > 1 && !strcmp(argv[1], "early-buffer-last"))
        order = EARLY_BUFFER_LAST;
    else if (argc > 1 && !strcmp(argv[1], "in-flight"))
        order = IN_FLIGHT;
    else if (argc > 1)
        it_fail("contexts: unknown release order '%s'", argv[1]);
    if (cycles <= WARM_UP_CYCLES)
        it_fail("contexts: give more than %d cycles", WARM_UP_CYCLES);
    /* A leak grows the resident set at every cycle, so in both halves
     * after the warm-up; a one-off rise (a compiler's arena touched late
     * on a loaded machine) shows in one: the smaller half's rate counts. */
    int mid = WARM_UP_CYCLES + (cycles - WARM_UP_CYCLES) / 2;
    long warm_kb = 0, mid_kb = 0;
    for (int i = 0; i < cycles; i++) {
        one_cycle(i, i == cycles - 1, order);
        if (i == WARM_UP_CYCLES - 1)
            warm_kb = resident_kb();
        if (i == mid - 1)
            mid_kb = resident_kb();
    }
    long end_kb = resident_kb();
    long first = mid > WARM_UP_CYCLES
                     ? (mid_kb - warm_kb) / (mid - WARM_UP_CYCLES)
                     : 0,
         second = (end_kb - mid_kb) / (cycles - mid);
    long growth = mid > WARM_UP_CYCLES && first < second ? first : second;
    int gone = contexts_destroyed(cycles);
    printf("contexts: %d cycles, %d contexts destroyed\n", cycles, gone);
    fprintf(stderr,
            "contexts: resident set %ld KiB after the warm-up, "
            "%+ld KiB per cycle since\n",
            warm_kb, growth);
    if (gone != cycles)
        it_fail("contexts: %d of %d contexts were destroyed", gone, cycles);
    if (growth > MAX_GROWTH_KB_PER_CYCLE)
        it_fail("contexts: the process grew by %ld KiB per cycle (more "
                "than %d)",
                growth, MAX_GROWTH_KB_PER_CYCLE);
}
