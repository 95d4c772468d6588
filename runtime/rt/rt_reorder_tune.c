/* rt_reorder_tune.c - what the tuner is told before a reordered kernel's
 * launch (rt_reorder_tune.h).  Every cost the first reordered launch pays
 * up front is counted, so that a program too short to pay it stays plain
 * and builds nothing:
 * - the activated variant's build, unless built: as long as the
 *   program's own build took;
 * - the gather program's, unless one was built in this process: the
 *   program's own build, at most 50 ms, or the calibration's measured
 *   build of a cached program if longer, where the device has one cached
 *   (never measured here: that takes seconds);
 * - the gathers: the bytes they move (index entries read, the copy
 *   written, as many bytes of A read through them) at the calibration's
 *   copy bandwidth, else at GATHER_BYTES_PER_NS, but at least what the
 *   plain kernel's reads through P take, which they redo (the tuner: the
 *   predicted saving's share of a measured plain launch; a 2M-row SpMV's
 *   gather took 150 ms here against 19 predicted by bandwidth); the
 *   copies' memory is this first write of them, bounded by
 *   DL_GATHER_BUDGET before any of this (rt_reorder.c).
 * The gathers recur only when A or P is written: the share of the
 * launches so far at which a copy would have been stale (rt_reorder.c
 * watches A's and P's versions at every launch) is the share of them
 * that would gather again; where that eats the saving, no probe
 * (tuner_predict.c).  A probe measures them.
 * The cost is weighed against the launches run so far (past_horizon):
 * a gather costs a few plain launches, which a three-launch program never
 * gets back.  The analyser's predicted transactions
 * (rt_reorder_predict.h) bound the saving before a probe. */
#include "rt_reorder_tune.h"
#include "rt_reorder_predict.h"
#include "tuner_calib.h"

#include <pthread.h>

#define GATHER_BUILD_MAX_NS 50e6
/* Without a calibration: a gather reads A at random, slower than a copy
 * (POCL's copy here: 21 bytes/ns). */
#define GATHER_BYTES_PER_NS 4.0

uint64_t rt_reorder_signature(const launch_call *c)
{
    uint64_t sig = dl_tuner_signature(0, c->task ? 0 : c->work_dim);
    for (cl_uint d = 0; !c->task && d < c->work_dim; d++)
        sig = dl_tuner_signature(sig, c->global[d]);
    return sig;
}

/* The calibration cached for the first device asked about (its file,
 * read once; nothing measured): copy bandwidth and a cached build. */
static pthread_mutex_t calib_lock = PTHREAD_MUTEX_INITIALIZER;
static int calib_read, calib_ok;
static cl_device_id calib_device;
static dl_calibration calib;

static const dl_calibration *cached_calibration(cl_command_queue queue)
{
    cl_device_id dev = NULL;
    if (dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                    NULL) != CL_SUCCESS)
        return NULL;
    pthread_mutex_lock(&calib_lock);
    if (!calib_read) {
        calib_read = 1;
        calib_device = dev;
        calib_ok = dl_calib_cached(dev, &calib) == DL_SUCCESS;
    }
    int ok = calib_ok && calib_device == dev;
    pthread_mutex_unlock(&calib_lock);
    return ok ? &calib : NULL;
}

/* The analyser's transactions, when counted (rt_reorder_predict.h). */
static void refresh(dl_tuner_prediction *p)
{
    rt_reorder_predicted(p->refresh_kernel, p->refresh_signature,
                         &p->transactions_before, &p->transactions_after);
}

static dl_tuner_prediction prediction(const launch_call *c, const rt_kernel *k,
                                      uint64_t sig, const rt_reorder_sizes *s,
                                      int gather_built)
{
    const dl_calibration *cal = cached_calibration(c->queue);
    double build = k->prog ? (double)k->prog->build_ns : 0;
    double gather_build =
        build < GATHER_BUILD_MAX_NS ? build : GATHER_BUILD_MAX_NS;
    if (cal && cal->build_ms * 1e6 > gather_build)
        gather_build = cal->build_ms * 1e6;
    double rate = cal && cal->copy_bytes_per_ns > 0 ? cal->copy_bytes_per_ns
                                                    : GATHER_BYTES_PER_NS;
    rt_lock();
    int built = k->xform != NULL;
    rt_unlock();
    dl_tuner_prediction p = {0};
    p.first_ns = (built ? 0 : build) + (gather_built ? 0 : gather_build);
    if (s->gathers)
        p.conversion_ns =
            ((double)s->index_bytes + 2.0 * (double)s->copy_bytes) / rate;
    p.past_horizon = 1;
    p.conversion_rereads = s->gathers > 0;
    p.regather_share = s->stale_share;
    p.regathered = s->stale_array;
    p.refresh = refresh;
    p.refresh_kernel = k;
    p.refresh_signature = sig;
    refresh(&p);
    DL_LOG_DEBUG("reorder: kernel '%s': trying it costs %.3f ms of builds "
                 "(variant %.3f, gather program %.3f) and %.3f ms of gathers "
                 "(%.1f MiB at %.1f bytes/ns); predicted transactions %.2f "
                 "-> %.2f; stale at %.0f%% of the launches",
                 k->name, p.first_ns / 1e6, built ? 0 : build / 1e6,
                 gather_built ? 0 : gather_build / 1e6, p.conversion_ns / 1e6,
                 (double)(s->index_bytes + 2 * s->copy_bytes) / 1048576.0, rate,
                 p.transactions_before, p.transactions_after,
                 100.0 * p.regather_share);
    return p;
}

dl_tuner_choice rt_reorder_tune(const launch_call *c, rt_kernel *k,
                                uint64_t sig, const rt_reorder_sizes *sizes,
                                int gather_built)
{
    dl_tuner_prediction p = prediction(c, k, sig, sizes, gather_built);
    dl_tuner_launch l = {k, k->name, sig, &p, 0};
    return dl_tuner_choose(dl_rt.tuner, &l);
}
