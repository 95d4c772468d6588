/* rt_launch.h - what the launch path's files share: rt_launch.c (the
 * buffers' state at a launch, the conversions and the enqueue) and
 * rt_decide.c (the decision: calibration, prediction, the tuner). */
#ifndef DL_RT_LAUNCH_H
#define DL_RT_LAUNCH_H

#include "rt_internal.h"

/* The application's launch, as it called it. */
typedef struct launch_call {
    cl_command_queue queue;
    cl_kernel kernel;
    int task;
    cl_uint work_dim;
    const size_t *offset, *global, *local;
} launch_call;

/* The layout the host's data of an annotated argument is in. */
static inline rt_layout rt_host_layout(const dl_annot_arg *arg, size_t count)
{
    rt_layout l = {arg->record, count,
                   arg->from.kind == DL_KIND_AOS  ? 1
                   : arg->from.kind == DL_KIND_DA ? DL_TILE_DA
                                                  : arg->from.tile,
                   0};
    return l;
}

/* Argument i of k as a buffer, or NULL. */
static inline cl_mem rt_launch_arg_mem(const rt_kernel *k, cl_uint i)
{
    const rt_arg *a = i < k->nargs ? &k->args[i] : NULL;
    if (!a || a->size != sizeof(cl_mem) || !a->value)
        return NULL;
    return *(const cl_mem *)a->value;
}

/* Makes k->xform, the activated variant's kernel, fit for a launch that
 * ends at *end (unlocked: it may build the variant): the first build is
 * specialised for that range, a wider launch later gets the variant
 * built without a bound.  Returns it, or NULL: the kernel runs plain. */
cl_kernel rt_launch_xform_kernel(rt_kernel *k, const rt_global_end *end,
                                 const size_t *pads);

/* Locked.  Gives k->xform the application's argument values, unless it
 * has them already. */
cl_int rt_launch_sync_args(rt_kernel *k);

/* Whether the tuner decides this launch (DL_POLICY=auto). */
static inline int rt_launch_tuned(const rt_kernel *k)
{
    return k->transformed && dl_rt.tuner &&
           dl_rt.controls.policy == DL_POLICY_AUTO;
}

/* The decision: plain or transformed, and whether to measure (always
 * transformed when the tuner is not asked).  Unlocked: the tuner may
 * wait for a probe's times, the calibration measures the device once;
 * the prediction is read under the lock.  `env`: the launch's record
 * counts. */
dl_tuner_choice rt_launch_decide(const launch_call *c, rt_kernel *k,
                                 const dl_dims_env *env);

#endif
