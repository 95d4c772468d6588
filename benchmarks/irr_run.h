/* irr_run.h - a workload of `dl-bench irregular` on the device: the plain
 * kernel, the reorganisation (dl_enqueue_gather for every reference) and
 * the redirected kernel, timed and compared (irr_run.c). */
#ifndef DL_IRR_RUN_H
#define DL_IRR_RUN_H

#include "bench_cl.h"
#include "irr_workload.h"

typedef struct irr_device {
    bench_cl *cl;
    size_t reps;
    cl_program program;    /* irregular.cl */
    dl_engine *engine;     /* builds and caches the gather kernels */
    cl_command_queue side; /* the overlapped gathers' queue (irr_overlap.h) */
    size_t group;          /* work-items per group of every launch */
    size_t local_bytes;    /* CL_DEVICE_LOCAL_MEM_SIZE */
} irr_device;

/* Medians over the repetitions, in seconds (event profiling). */
typedef struct irr_times {
    double plain, reorg, redirect;
    int verified; /* the redirected output is byte-identical */
    /* Gathers and kernel on the host clock, whole and in overlapped
     * chunks (irr_overlap.h); 0 where it does not apply. */
    double whole, overlapped;
} irr_times;

/* Builds irregular.cl and the engine; 0 (and a message) on failure. */
int irr_device_open(irr_device *d, bench_cl *cl, size_t reps);
void irr_device_close(irr_device *d);
/* Runs w; 0 (and a message) when it could not be run. */
int irr_run(irr_device *d, const irr_workload *w, irr_times *out);

#endif
