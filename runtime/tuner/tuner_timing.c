/* tuner_timing.c - see tuner_timing.h.  Three events per probe: the
 * marker before the conversions (m0), the marker after them (m1, absent
 * when nothing was converted) and the launch (ev).  Each completion
 * callback stamps its slot; the last one computes the times, reports
 * them and frees the probe.  Callbacks take only the tuner's own lock.
 *
 * Host timing (no profiling) relies on when the callbacks run, and a
 * callback registered on an event that is already complete runs at once,
 * in the registering thread.  So the markers' callbacks are registered as
 * soon as they are enqueued, before the launch, and the kernel's start is
 * taken as no earlier than the host time just before the launch was
 * enqueued: a launch that completed before its callback was registered
 * (a short kernel, or this thread was preempted) then measures at most
 * the span from its enqueue to the registration, never the near-zero span
 * between two callbacks registered together after both commands ran. */
#include "tuner_timing.h"

#include "clapi.h"

#include <stdlib.h>

enum { SLOT_START, SLOT_CONVERTED, SLOT_LAUNCH, NSLOTS };

/* What a callback is given: the probe and the slot it stamps. */
typedef struct probe_slot {
    dl_tuner_probe *probe;
    int index;
} probe_slot;

struct dl_tuner_probe {
    dl_tuner *tuner;
    uint64_t ticket;
    int transformed;
    int profiling;
    cl_command_queue queue;
    cl_event ev[NSLOTS];
    probe_slot slot[NSLOTS];
    uint64_t host_ns[NSLOTS];
    uint64_t launch_from_ns; /* host time just before the launch's enqueue */
    /* Callbacks still due, plus one held by the runtime until the launch
     * is known (atomic): whoever drops it to 0 reports and frees. */
    int pending;
    int failed; /* some command failed, or the launch was abandoned */
};

static void probe_free(dl_tuner_probe *p)
{
    for (int i = 0; i < NSLOTS; i++)
        if (p->ev[i])
            dl_cl.clReleaseEvent(p->ev[i]);
    free(p);
}

static uint64_t profile(cl_event ev, cl_profiling_info what)
{
    cl_ulong t = 0;
    if (dl_cl.clGetEventProfilingInfo(ev, what, sizeof t, &t, NULL) !=
        CL_SUCCESS)
        return 0;
    return t;
}

static uint64_t span(uint64_t from, uint64_t to)
{
    return to > from ? to - from : 0;
}

void dl_tuner_host_times(uint64_t start, uint64_t converted,
                         uint64_t launch_from, uint64_t launch_end,
                         uint64_t *conv_ns, uint64_t *kernel_ns)
{
    uint64_t before = converted ? converted : start;
    *conv_ns = converted ? span(start, converted) : 0;
    *kernel_ns = span(before > launch_from ? before : launch_from, launch_end);
}

static void report(dl_tuner_probe *p)
{
    uint64_t conv = 0, kernel = 0;
    int converted = p->ev[SLOT_CONVERTED] != NULL;
    if (p->profiling) {
        uint64_t start = profile(p->ev[SLOT_START], CL_PROFILING_COMMAND_END);
        if (converted)
            conv = span(start, profile(p->ev[SLOT_CONVERTED],
                                       CL_PROFILING_COMMAND_END));
        kernel = span(profile(p->ev[SLOT_LAUNCH], CL_PROFILING_COMMAND_START),
                      profile(p->ev[SLOT_LAUNCH], CL_PROFILING_COMMAND_END));
    } else {
        dl_tuner_host_times(
            p->host_ns[SLOT_START], converted ? p->host_ns[SLOT_CONVERTED] : 0,
            p->launch_from_ns, p->host_ns[SLOT_LAUNCH], &conv, &kernel);
    }
    if (conv)
        dl_tuner_report_conversion(p->tuner, p->ticket, conv);
    if (kernel)
        dl_tuner_report_kernel(p->tuner, p->ticket, p->transformed, kernel);
}

static void probe_release(dl_tuner_probe *p);

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    const probe_slot *slot = user;
    dl_tuner_probe *p = slot->probe;
    if (status < 0)
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELEASE);
    p->host_ns[slot->index] = dl_tuner_now(p->tuner);
    probe_release(p);
}

/* Drops one hold on the probe; the last one reports and frees it. */
static void probe_release(dl_tuner_probe *p)
{
    if (__atomic_sub_fetch(&p->pending, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    /* A failed command measures nothing. */
    int ok = !__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE);
    for (int i = 0; i < NSLOTS && ok; i++)
        ok = !p->ev[i] || p->host_ns[i] != 0 || p->profiling;
    if (ok)
        report(p);
    probe_free(p);
}

/* Stamps slot i when its event completes: at once if it is complete
 * already.  Returns 0 if no callback could be registered (the slot then
 * holds no event). */
static int watch(dl_tuner_probe *p, int i, cl_event ev)
{
    p->ev[i] = ev;
    p->slot[i] = (probe_slot){p, i};
    __atomic_add_fetch(&p->pending, 1, __ATOMIC_ACQ_REL);
    if (dl_cl.clSetEventCallback(ev, CL_COMPLETE, on_complete, &p->slot[i]) ==
        CL_SUCCESS)
        return 1;
    __atomic_sub_fetch(&p->pending, 1, __ATOMIC_ACQ_REL);
    p->ev[i] = NULL;
    dl_cl.clReleaseEvent(ev);
    return 0;
}

dl_tuner_probe *dl_tuner_probe_begin(dl_tuner *tuner, uint64_t ticket,
                                     cl_command_queue queue, cl_uint nwait,
                                     const cl_event *wait)
{
    if (!tuner || !ticket || !dl_cl.clSetEventCallback ||
        !dl_cl.clEnqueueMarkerWithWaitList)
        return NULL;
    dl_tuner_probe *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tuner = tuner;
    p->ticket = ticket;
    p->queue = queue;
    p->pending = 1; /* the runtime's, until the launch is known */
    cl_command_queue_properties props = 0;
    if (dl_cl.clGetEventProfilingInfo &&
        dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL) == CL_SUCCESS)
        p->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
    cl_event start = NULL;
    if (dl_cl.clEnqueueMarkerWithWaitList(queue, nwait, wait, &start) !=
            CL_SUCCESS ||
        !watch(p, SLOT_START, start)) {
        free(p);
        return NULL;
    }
    return p;
}

void dl_tuner_probe_converted(dl_tuner_probe *p, cl_uint nconv,
                              const cl_event *conv)
{
    if (!p)
        return;
    cl_event converted = NULL;
    /* Without this marker the kernel span covers the conversions. */
    if (nconv && dl_cl.clEnqueueMarkerWithWaitList(p->queue, nconv, conv,
                                                   &converted) == CL_SUCCESS)
        watch(p, SLOT_CONVERTED, converted);
    p->launch_from_ns = dl_tuner_now(p->tuner);
}

void dl_tuner_probe_launched(dl_tuner_probe *p, cl_event launch,
                             int transformed)
{
    if (!p)
        return;
    p->transformed = transformed;
    if (!launch || dl_cl.clRetainEvent(launch) != CL_SUCCESS ||
        !watch(p, SLOT_LAUNCH, launch))
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELEASE);
    probe_release(p); /* the runtime's hold */
}
