/* tuner_timing.c - see tuner_timing.h.  Three events per probe: the
 * marker before the conversions (m0), the marker after them (m1, absent
 * when nothing was converted) and the launch (ev).  Each completion
 * callback stamps its slot; the last one computes the times, reports
 * them and frees the probe.  Callbacks take only the tuner's own lock. */
#include "tuner_timing.h"

#include "clapi.h"

#include <stdlib.h>

enum { SLOT_START, SLOT_CONVERTED, SLOT_LAUNCH, NSLOTS };

struct dl_tuner_probe {
    dl_tuner *tuner;
    uint64_t ticket;
    int transformed;
    int profiling;
    cl_command_queue queue;
    cl_event ev[NSLOTS];
    uint64_t host_ns[NSLOTS];
    int pending; /* callbacks still due (atomic) */
    int failed;  /* some command failed (atomic) */
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
        int before = converted ? SLOT_CONVERTED : SLOT_START;
        if (converted)
            conv = span(p->host_ns[SLOT_START], p->host_ns[SLOT_CONVERTED]);
        kernel = span(p->host_ns[before], p->host_ns[SLOT_LAUNCH]);
    }
    if (conv)
        dl_tuner_report_conversion(p->tuner, p->ticket, conv);
    if (kernel)
        dl_tuner_report_kernel(p->tuner, p->ticket, p->transformed, kernel);
}

static void CL_CALLBACK on_complete(cl_event ev, cl_int status, void *user)
{
    dl_tuner_probe *p = user;
    if (status < 0)
        __atomic_store_n(&p->failed, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < NSLOTS; i++)
        if (p->ev[i] == ev)
            p->host_ns[i] = dl_tuner_now(p->tuner);
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
    cl_command_queue_properties props = 0;
    if (dl_cl.clGetEventProfilingInfo &&
        dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof props,
                                    &props, NULL) == CL_SUCCESS)
        p->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
    if (dl_cl.clEnqueueMarkerWithWaitList(queue, nwait, wait,
                                          &p->ev[SLOT_START]) != CL_SUCCESS) {
        free(p);
        return NULL;
    }
    return p;
}

void dl_tuner_probe_converted(dl_tuner_probe *p, cl_uint nconv,
                              const cl_event *conv)
{
    if (!p || nconv == 0)
        return;
    if (dl_cl.clEnqueueMarkerWithWaitList(p->queue, nconv, conv,
                                          &p->ev[SLOT_CONVERTED]) !=
        CL_SUCCESS)
        p->ev[SLOT_CONVERTED] = NULL; /* the kernel span then covers them */
}

void dl_tuner_probe_launched(dl_tuner_probe *p, cl_event launch,
                             int transformed)
{
    if (!p)
        return;
    p->transformed = transformed;
    if (!launch || dl_cl.clRetainEvent(launch) != CL_SUCCESS) {
        probe_free(p);
        return;
    }
    p->ev[SLOT_LAUNCH] = launch;
    int n = 0;
    for (int i = 0; i < NSLOTS; i++)
        n += p->ev[i] != NULL;
    p->pending = n;
    /* Registered only now that every slot is filled: a callback may run
     * at once.  If one cannot be registered, the ones already registered
     * would free the probe too early, so registration stops at the first
     * failure and those pending never reach zero: the probe leaks rather
     * than being freed twice (never seen with a conforming driver). */
    for (int i = 0; i < NSLOTS; i++) {
        if (!p->ev[i])
            continue;
        if (dl_cl.clSetEventCallback(p->ev[i], CL_COMPLETE, on_complete, p) !=
            CL_SUCCESS)
            return;
    }
}
