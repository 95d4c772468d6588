/* rt_decide.c - the decision of a launch under DL_POLICY=auto
 * (docs/tuning.md): the device's calibration, the static prediction of
 * what a transformed launch gains and costs up front, the launch's
 * signature, and the tuner's choice (rt_launch.h). */
#include "rt_launch.h"
#include "rt_memo.h"
#include "rt_reshape.h"
#include "tuner_calib.h"

#include <stdint.h>
#include <string.h>

/* The launch shape the tuner tells patterns apart by: the work sizes and
 * the by-value arguments (record counts are usually among them).
 * Pointer-sized arguments are left out: they may be buffers, which a
 * ping-pong loop swaps at every step. */
static uint64_t launch_signature(const launch_call *c, const rt_kernel *k)
{
    uint64_t h = dl_tuner_signature(0, c->task ? 0 : c->work_dim);
    for (cl_uint d = 0; !c->task && d < c->work_dim; d++) {
        h = dl_tuner_signature(h, c->global[d]);
        h = dl_tuner_signature(h, c->local ? c->local[d] : 0);
    }
    for (cl_uint i = 0; i < k->nargs; i++) {
        const rt_arg *a = &k->args[i];
        if (!a->size || !a->value || a->size == sizeof(cl_mem) || a->size > 8)
            continue;
        uint64_t v = 0;
        memcpy(&v, a->value, a->size);
        h = dl_tuner_signature(h, v);
    }
    return h;
}

/* Bytes of the record's smallest field: small fields convert slowly. */
static uint32_t smallest_field(const dl_record *rec)
{
    uint32_t min = dl_record_size(rec);
    for (uint32_t i = 0; i < dl_record_nfields(rec); i++) {
        uint32_t size = dl_record_field(rec, i).size;
        min = size < min ? size : min;
    }
    return min;
}

/* What building one marshal program costs: the calibration's measured
 * build of a program served from POCL's cache (tens of milliseconds; a
 * build from source costs far more, a one-off of a machine's first run).
 * Without a calibration, the application's own build, at most this. */
#define MARSHAL_BUILD_MAX_NS 50e6

static double marshal_build_ns(const dl_calibration *calib, double app_build)
{
    if (calib && calib->build_ms > 0)
        return calib->build_ms * 1e6;
    return app_build < MARSHAL_BUILD_MAX_NS ? app_build : MARSHAL_BUILD_MAX_NS;
}

/* The static prediction for this launch (docs/tuning.md): every
 * converted argument, at the record count of this launch, converted to
 * the activated variant's layout; first_ns is what the first transformed
 * launch costs besides: the activated variant's build, unless built, and
 * that of the marshal programs its conversions need, unless planned. */
static dl_tuner_prediction launch_prediction(const rt_kernel *k,
                                             const dl_dims_env *env,
                                             const dl_calibration *calib,
                                             cl_command_queue queue)
{
    dl_tuner_prediction none = {0};
    dl_tuner_kernel_info info[16];
    size_t n = 0;
    size_t *tiles = k->prog->tiles ? k->prog->tiles[k->annot_index] : NULL;
    double build = (double)k->prog->build_ns;
    double unit = marshal_build_ns(calib, build);
    double first = k->xform ? 0 : build;
    rt_layout seen[16];
    for (uint32_t j = 0; j < k->annot->nargs; j++) {
        const dl_annot_arg *arg = &k->annot->args[j];
        size_t count = 0;
        if (!arg->record)
            continue;
        if (n == 16 ||
            dl_dims_eval_count(arg->count, env, &count) != DL_SUCCESS)
            return none;
        rt_layout from = rt_host_layout(arg, count);
        rt_layout to = {arg->record, count, tiles ? tiles[j] : 0, 0};
        /* Arguments of one shape share their programs. */
        int again = 0;
        for (size_t i = 0; i < n; i++)
            again |=
                seen[i].count == count && seen[i].tile == to.tile &&
                dl_record_size(seen[i].rec) == dl_record_size(arg->record) &&
                dl_record_nfields(seen[i].rec) ==
                    dl_record_nfields(arg->record);
        if (!again && to.tile && !rt_layout_equal(&from, &to))
            first += unit * rt_conversion_builds(queue, &from, &to);
        seen[n] = to;
        info[n++] = (dl_tuner_kernel_info){
            dl_record_size(arg->record),
            dl_record_nfields(arg->record),
            NULL,
            count,
            16,
            dl_rt.controls.tile,
            to.tile,
            smallest_field(arg->record),
            rt_offset_buffer_bytes(k, j, rt_launch_arg_mem(k, arg->index))};
    }
    dl_tuner_prediction p =
        calib ? dl_tuner_predict_launch(calib, info, n) : none;
    p.first_ns = first;
    return p;
}

/* The device's calibration, measured once per process (it blocks, so
 * never under the lock). */
static const dl_calibration *launch_calibration(const launch_call *c)
{
    cl_context ctx = NULL;
    cl_device_id dev = NULL;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_CONTEXT, sizeof ctx,
                                    &ctx, NULL) != CL_SUCCESS ||
        dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof dev, &dev,
                                    NULL) != CL_SUCCESS)
        return NULL;
    return dl_calib_for_device(ctx, dev, c->queue);
}

/* Whether the launch's queue is on a CPU device. */
static int on_cpu(const launch_call *c)
{
    cl_device_id dev = NULL;
    cl_device_type type = 0;
    return dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof dev,
                                       &dev, NULL) == CL_SUCCESS &&
           dl_cl.clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type,
                                 NULL) == CL_SUCCESS &&
           (type & CL_DEVICE_TYPE_CPU);
}

/* Why a launch that could only use the flat ASTA index runs plain on a
 * CPU device: that index, (i / T * S + s) * T + i % T, keeps the accesses
 * scalar where the program's own layout vectorises (Parboil LBM's
 * ASTA(8) flat form ran 13-37% slower than AoS on POCL; SpMV at a range
 * no tile divides 12-13 ms against 10-11).  The calibration does not tell
 * the flat index from the tiled one (its ASTA kernel is one streaming
 * loop, that says ASTA(8) beats AoS at 19 floats), so it cannot say the
 * flat form pays: a probe would only pay the variant's build and two
 * conversions to find it slower. */
static const char *flat_plain_reason(rt_flat_only flat)
{
    if (flat == RT_FLAT_KERNEL)
        return "its ASTA variant can only use the flat index here (it has "
               "no tiled launch, e.g. it calls get_local_id or get_group_id: "
               "`dl-annotate --explain` says why), which is slower than the "
               "program's layout on this CPU device; DL_POLICY=always forces "
               "it";
    return "its ASTA variant can only use the flat index for this range (the "
           "tiled launch needs a 1-D range whose offset and size are "
           "multiples of the tile), which is slower than the program's "
           "layout on this CPU device; DL_POLICY=always forces it";
}

/* The prediction is read under the lock: it asks the engines what the
 * conversions would build.  A launch that could only use the flat ASTA
 * index on a CPU device runs plain without a probe or a calibration. */
dl_tuner_choice rt_launch_decide(const launch_call *c, rt_kernel *k,
                                 const dl_dims_env *env)
{
    dl_tuner_choice always = {1, 0, 0, 0};
    if (!rt_launch_tuned(k))
        return always;
    rt_lock();
    rt_flat_only flat = rt_reshape_flat_only(k, env);
    /* Once the tiled variant ran, the buffers may hold ASTA already: the
     * flat form then runs them without a conversion, the tuner decides. */
    if (flat == RT_FLAT_RANGE && k->xform)
        flat = RT_FLAT_NO;
    rt_unlock();
    dl_tuner_prediction pred = {0};
    if (flat != RT_FLAT_NO && on_cpu(c)) {
        pred.plain_reason = flat_plain_reason(flat);
    } else {
        const dl_calibration *calib = launch_calibration(c);
        rt_lock();
        pred = launch_prediction(k, env, calib, c->queue);
        rt_unlock();
    }
    /* The memo's launches since the last one that asked. */
    dl_tuner_launch tl = {k, k->name, launch_signature(c, k), &pred,
                          rt_memo_served(&k->memo)};
    return dl_tuner_choose(dl_rt.tuner, &tl);
}
