/* bench_cl.c - device selection, the profiling queue, the batch timer and
 * the copy baselines of dl-bench. */
#include "bench_cl.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* benchmarks/copy.cl, embedded at build time (see meson.build). */
const char *bench_kernel_source(const char *name);

int bench_cl_ok(cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return 1;
    fprintf(stderr, "dl-bench: %s failed: OpenCL error %d\n", what, (int)err);
    return 0;
}

/* ------------------------------------------------------------ devices */

static void device_name(cl_platform_id p, cl_device_id d, char *out,
                        size_t room)
{
    char pn[128] = "?", dn[128] = "?";
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pn, pn, NULL);
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof dn, dn, NULL);
    pn[sizeof pn - 1] = dn[sizeof dn - 1] = '\0';
    snprintf(out, room, "%s: %s", pn, dn);
}

static int print_device(void *ctx, long index, cl_platform_id p, cl_device_id d)
{
    char name[256];
    device_name(p, d, name, sizeof name);
    fprintf((FILE *)ctx, "%ld\t%s\n", index, name);
    return 0;
}

int bench_cl_list(FILE *out)
{
    char why[256];
    long n = device_for_each(print_device, out, why, sizeof why);
    if (n < 0)
        fprintf(stderr, "dl-bench: %s\n", why);
    return n < 0 ? -1 : (int)n;
}

int bench_cl_open(bench_cl *b, size_t index)
{
    device_choice all = {DEVICE_PICK_ALL_PLATFORMS, (long)index};
    return bench_cl_open_choice(b, all);
}

int bench_cl_open_choice(bench_cl *b, device_choice choice)
{
    memset(b, 0, sizeof *b);
    cl_platform_id platform;
    char why[256];
    if (!device_pick(choice, &platform, &b->device, why, sizeof why)) {
        fprintf(stderr, "dl-bench: %s (see 'dl-bench devices')\n", why);
        return 0;
    }
    device_name(platform, b->device, b->name, sizeof b->name);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                    sizeof b->max_alloc, &b->max_alloc, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                    sizeof b->compute_units, &b->compute_units, NULL);
    clGetDeviceInfo(b->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof b->max_wg,
                    &b->max_wg, NULL);
    if (b->compute_units == 0)
        b->compute_units = 1;
    if (b->max_wg == 0)
        b->max_wg = 1;

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)platform, 0};
    cl_int err;
    b->context = clCreateContext(props, 1, &b->device, NULL, NULL, &err);
    if (!bench_cl_ok(err, "clCreateContext"))
        return 0;
    b->queue = clCreateCommandQueue(b->context, b->device,
                                    CL_QUEUE_PROFILING_ENABLE, &err);
    if (!bench_cl_ok(err, "clCreateCommandQueue")) {
        bench_cl_close(b);
        return 0;
    }
    return 1;
}

void bench_cl_close(bench_cl *b)
{
    if (b->copy_kernel)
        clReleaseKernel(b->copy_kernel);
    if (b->copy_program)
        clReleaseProgram(b->copy_program);
    if (b->queue)
        clReleaseCommandQueue(b->queue);
    if (b->context)
        clReleaseContext(b->context);
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------- timing */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int profile(cl_event ev, cl_profiling_info what, cl_ulong *t)
{
    return clGetEventProfilingInfo(ev, what, sizeof *t, t, NULL) ==
               CL_SUCCESS &&
           *t != 0;
}

/* Host clock around enqueue + completion: includes the API overhead. */
static int time_wall(bench_cl *b, bench_enqueue_fn fn, void *ctx,
                     double *seconds)
{
    cl_event last = NULL;
    if (!bench_cl_ok(clFinish(b->queue), "clFinish"))
        return 0;
    double t0 = now_seconds();
    int ok = fn(ctx, b->queue, 0, NULL, &last);
    ok = ok && bench_cl_ok(clWaitForEvents(1, &last), "clWaitForEvents");
    *seconds = now_seconds() - t0;
    if (last)
        clReleaseEvent(last);
    return ok;
}

/* Everything is enqueued behind a marker that waits on a user event, so
 * host enqueue latency cannot show up between the commands; once the gate
 * opens, the batch takes from the marker's end to the last command's end
 * on the device clock. */
static int time_event(bench_cl *b, bench_enqueue_fn fn, void *ctx,
                      double *seconds)
{
    cl_int err;
    cl_event gate = NULL, start = NULL, last = NULL;
    if (!bench_cl_ok(clFinish(b->queue), "clFinish"))
        return 0;
    gate = clCreateUserEvent(b->context, &err);
    if (!bench_cl_ok(err, "clCreateUserEvent"))
        return 0;
    int ok =
        bench_cl_ok(clEnqueueMarkerWithWaitList(b->queue, 1, &gate, &start),
                    "clEnqueueMarkerWithWaitList");
    ok = ok && fn(ctx, b->queue, 1, &start, &last);
    double t0 = now_seconds();
    clSetUserEventStatus(gate, CL_COMPLETE); /* always: drains the queue */
    if (ok && last)
        ok = bench_cl_ok(clWaitForEvents(1, &last), "clWaitForEvents");
    clFinish(b->queue);
    double wall = now_seconds() - t0;
    cl_ulong t_start, t_end;
    if (ok && profile(start, CL_PROFILING_COMMAND_END, &t_start) &&
        profile(last, CL_PROFILING_COMMAND_END, &t_end) && t_end > t_start) {
        *seconds = 1e-9 * (double)(t_end - t_start);
    } else if (ok) {
        if (!b->warned_timer)
            fprintf(stderr, "dl-bench: no usable profiling timestamps; "
                            "timing with the host clock\n");
        b->warned_timer = 1;
        *seconds = wall;
    }
    if (last)
        clReleaseEvent(last);
    if (start)
        clReleaseEvent(start);
    clReleaseEvent(gate);
    return ok;
}

int bench_cl_time(bench_cl *b, bench_timer timer, bench_enqueue_fn fn,
                  void *ctx, double *seconds)
{
    *seconds = 0.0;
    return timer == BENCH_TIMER_WALL ? time_wall(b, fn, ctx, seconds)
                                     : time_event(b, fn, ctx, seconds);
}

/* --------------------------------------------------------- copy baselines */

int bench_copy_buffer(void *ctx, cl_command_queue q, cl_uint nwait,
                      const cl_event *wait, cl_event *last)
{
    bench_copy *c = ctx;
    return bench_cl_ok(clEnqueueCopyBuffer(q, c->src, c->dst, 0, 0, c->bytes,
                                           nwait, wait, last),
                       "clEnqueueCopyBuffer");
}

/* Work-items per group of the copy kernel (capped by the kernel's limit). */
#define COPY_LOCAL 256

int bench_copy_prepare(bench_cl *b)
{
    if (b->copy_kernel)
        return 1;
    if (b->copy_program) /* an earlier attempt failed and said why */
        return 0;
    const char *src = bench_kernel_source("copy.cl");
    cl_int err;
    b->copy_program =
        clCreateProgramWithSource(b->context, 1, &src, NULL, &err);
    if (!bench_cl_ok(err, "clCreateProgramWithSource(copy.cl)"))
        return 0;
    err = clBuildProgram(b->copy_program, 1, &b->device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(b->copy_program, b->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log, log, NULL);
        log[sizeof log - 1] = '\0';
        fprintf(stderr, "dl-bench: building copy.cl failed (%d):\n%s\n",
                (int)err, log);
        return 0;
    }
    b->copy_kernel = clCreateKernel(b->copy_program, "bench_copy", &err);
    if (!bench_cl_ok(err, "clCreateKernel(copy)")) {
        b->copy_kernel = NULL;
        return 0;
    }
    size_t wg = 0;
    clGetKernelWorkGroupInfo(b->copy_kernel, b->device,
                             CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    b->copy_local = COPY_LOCAL;
    if (wg && b->copy_local > wg)
        b->copy_local = wg;
    return 1;
}

static size_t round_up(size_t a, size_t b)
{
    return (a + b - 1) / b * b;
}

int bench_copy_kernel(void *ctx, cl_command_queue q, cl_uint nwait,
                      const cl_event *wait, cl_event *last)
{
    bench_copy *c = ctx;
    bench_cl *b = c->cl;
    if (!bench_copy_prepare(b))
        return 0;
    cl_ulong nbytes = c->bytes;
    cl_kernel k = b->copy_kernel;
    if (!bench_cl_ok(clSetKernelArg(k, 0, sizeof c->src, &c->src),
                     "clSetKernelArg(copy)") ||
        !bench_cl_ok(clSetKernelArg(k, 1, sizeof c->dst, &c->dst),
                     "clSetKernelArg(copy)") ||
        !bench_cl_ok(clSetKernelArg(k, 2, sizeof nbytes, &nbytes),
                     "clSetKernelArg(copy)"))
        return 0;
    size_t local = b->copy_local;
    size_t global = round_up(c->bytes / 16 + 1, local); /* >= 1 item */
    return bench_cl_ok(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local,
                                              nwait, wait, last),
                       "clEnqueueNDRangeKernel(copy)");
}
