/* tuner_timing.h - measuring one launch for the tuner (tuner.h) without
 * blocking the application: marker events around the conversions, the
 * launch's own event, and completion callbacks that report to the tuner.
 *
 *   probe = dl_tuner_probe_begin(tuner, ticket, queue, nwait, wait);
 *                                                     before conversions
 *   ... enqueue the conversions (their events: conv) ...
 *   dl_tuner_probe_converted(probe, nconv, conv);     after them
 *   ... enqueue the kernel with an event ev ...
 *   dl_tuner_probe_launched(probe, ev, transformed);  after it
 *
 * Times come from the events' profiling counters when the queue was
 * created with CL_QUEUE_PROFILING_ENABLE, otherwise from the tuner's
 * clock (dl_tuner_now: injected by tests) in the callbacks (CL_COMPLETE),
 * which on an in-order queue bracket the conversions (marker to marker)
 * and the kernel (the later of the last marker and its own enqueue, to
 * its end): dl_tuner_host_times.
 * Every function accepts a NULL probe (nothing measured); the probe frees
 * itself after its report or on any failure.  The tuner must outlive the
 * callbacks (the runtime keeps it for the process's life). */
#ifndef DL_TUNER_TIMING_H
#define DL_TUNER_TIMING_H

#include "dlayout.h"
#include "tuner.h"

typedef struct dl_tuner_probe dl_tuner_probe;

/* NULL (nothing will be measured) if the marker cannot be enqueued or the
 * dispatch table lacks clSetEventCallback. */
dl_tuner_probe *dl_tuner_probe_begin(dl_tuner *tuner, uint64_t ticket,
                                     cl_command_queue queue, cl_uint nwait,
                                     const cl_event *wait);
/* The conversions' events (none: nconv 0).  Call right before the
 * launch is enqueued: the kernel cannot start earlier. */
void dl_tuner_probe_converted(dl_tuner_probe *probe, cl_uint nconv,
                              const cl_event *conv);
/* The launch's event (retained here) and the variant that really ran
 * (the runtime may fall back to plain); a NULL event abandons the probe. */
void dl_tuner_probe_launched(dl_tuner_probe *probe, cl_event launch,
                             int transformed);

/* The host-timed spans of a probe from its clock stamps: the marker
 * before the conversions completing (`start`), the marker after them
 * (`converted`; 0: none), the launch about to be enqueued (`launch_from`)
 * and completing (`launch_end`).  A stamp is never earlier than the event
 * it records: a callback runs after completion, at once when registered
 * on a complete event. */
void dl_tuner_host_times(uint64_t start, uint64_t converted,
                         uint64_t launch_from, uint64_t launch_end,
                         uint64_t *conv_ns, uint64_t *kernel_ns);

#endif
