/* bench_cl.h - OpenCL side of dl-bench: device selection, the profiling
 * queue, timing of a batch of commands and the copy baselines. */
#ifndef DL_BENCH_CL_H
#define DL_BENCH_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "device_pick.h"

#include <stdio.h>

typedef struct bench_cl {
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in order, CL_QUEUE_PROFILING_ENABLE */
    char name[256];         /* "platform: device"                  */
    cl_ulong max_alloc;     /* CL_DEVICE_MAX_MEM_ALLOC_SIZE        */
    cl_uint compute_units;
    size_t max_wg;
    cl_program copy_program; /* built on first use of a copy kernel */
    cl_kernel copy_kernel;
    size_t copy_local;
    int warned_timer; /* the event timer fell back to the wall clock */
} bench_cl;

/* Prints "dl-bench: what: OpenCL error N" and returns 0 if err fails. */
int bench_cl_ok(cl_int err, const char *what);

/* Devices of all platforms, flattened in platform order. */
int bench_cl_list(FILE *out);
/* Opens device `index` of that list; 0 (and a message) on failure. */
int bench_cl_open(bench_cl *b, size_t index);
/* Opens the device --platform/--device name; 0 (and a message) on
 * failure. */
int bench_cl_open_choice(bench_cl *b, device_choice choice);
void bench_cl_close(bench_cl *b);

/* ------------------------------------------------------------- timing */

typedef enum bench_timer {
    BENCH_TIMER_EVENT, /* device profiling: gate marker end -> last end  */
    BENCH_TIMER_WALL   /* host clock around enqueue + completion         */
} bench_timer;

/* Enqueues the commands to time on `queue`.  The first must wait for the
 * `nwait` events of `wait`; the event of the last is returned in *last.
 * Returns 1 on success, 0 (after printing a message) on failure. */
typedef int (*bench_enqueue_fn)(void *ctx, cl_command_queue queue,
                                cl_uint nwait, const cl_event *wait,
                                cl_event *last);

/* Times one batch; 1 on success with *seconds set. */
int bench_cl_time(bench_cl *b, bench_timer timer, bench_enqueue_fn fn,
                  void *ctx, double *seconds);

/* --------------------------------------------------------- copy baselines */

typedef struct bench_copy {
    bench_cl *cl;
    cl_mem src, dst;
    size_t bytes;
} bench_copy;

/* Builds benchmarks/copy.cl once (also done on first use). */
int bench_copy_prepare(bench_cl *b);
/* bench_enqueue_fn's for clEnqueueCopyBuffer and benchmarks/copy.cl. */
int bench_copy_buffer(void *copy, cl_command_queue queue, cl_uint nwait,
                      const cl_event *wait, cl_event *last);
int bench_copy_kernel(void *copy, cl_command_queue queue, cl_uint nwait,
                      const cl_event *wait, cl_event *last);

#endif
