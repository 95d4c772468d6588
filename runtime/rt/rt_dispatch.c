/* rt_dispatch.c - which clEnqueueNDRangeKernel a launch memo calls.
 *
 * dl_cl holds the ICD loader's entry points (preload) or the entries the
 * loader gave the ICD layer.  When the loader sends calls to no layer, or
 * when dlayout is the last layer, those only check the queue and call the
 * entry of the dispatch table that every ICD object starts with
 * (cl_khr_icd).  A memo launch repeats a launch that already went that
 * way with the same queue, so it may call that entry itself: with
 * ocl-icd this saves the loader's 16 instructions on every repeated
 * launch, a third of what the memo path costs.
 *
 * Only where that is certain (DL_DIRECT_DISPATCH, docs/architecture.md):
 * - the object that holds dl_cl's entry also answers
 *   clGetICDLoaderInfoOCLICD, as ocl-icd and the Khronos loader do: it is
 *   the loader, not another preloaded library nor another layer;
 * - if the entry is the loader's exported clEnqueueNDRangeKernel (the
 *   preload), OPENCL_LAYERS is empty, so the loader calls no layer; an
 *   entry of the loader's that it does not export is the one it gives the
 *   last layer;
 * - the queue's table is a complete one: not the placeholder of a
 *   cl_khr_icd 2 driver, whose entries the loader keeps elsewhere.
 * Otherwise, and for every other call, dl_cl's entry is used; under
 * DL_STATS rt_fwd's, which times the call (rt_self.c). */
#define _GNU_SOURCE /* dladdr, secure_getenv */
#include "rt_memo.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* cl_khr_icd 2.0.0: the value a placeholder table holds in its
 * clGetPlatformIDs entry. */
#if UINTPTR_MAX == 0xffffffffu
#define ICD2_TAG ((uintptr_t)0x434C3331u)
#else
#define ICD2_TAG ((uintptr_t)0x4F50454E434C3331u)
#endif

/* Whether dl_cl's clEnqueueNDRangeKernel is an ICD loader's entry that
 * calls the queue's own table, and no layer. */
static int loader_dispatches_by_object(void)
{
    if (!dl_rt.controls.direct_dispatch || !dl_cl.clGetExtensionFunctionAddress)
        return 0;
    void *enqueue = (void *)dl_cl.clEnqueueNDRangeKernel;
    void *loader_info =
        dl_cl.clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD");
    Dl_info at, info_at;
    if (!loader_info || !dladdr(enqueue, &at) ||
        !dladdr(loader_info, &info_at) || info_at.dli_fbase != at.dli_fbase)
        return 0;
    const char *layers = secure_getenv("OPENCL_LAYERS");
    int exported = at.dli_saddr == enqueue && at.dli_sname &&
                   !strcmp(at.dli_sname, "clEnqueueNDRangeKernel");
    return !exported || !layers || !*layers;
}

static int direct = -1; /* locked: loader_dispatches_by_object(), once */

void rt_memo_enqueue_reset(void)
{
    direct = -1;
}

/* The queue's own table where its entries may be called directly. */
static const cl_icd_dispatch *direct_table(cl_command_queue queue)
{
    if (direct < 0) {
        direct = loader_dispatches_by_object();
        DL_LOG_DEBUG("memo launches call %s",
                     direct ? "the driver's entry points directly"
                            : "through the ICD loader");
    }
    const cl_icd_dispatch *table =
        direct ? *(const cl_icd_dispatch *const *)queue : NULL;
    if (table && (uintptr_t)table->clGetPlatformIDs != ICD2_TAG)
        return table;
    return NULL;
}

cl_api_clEnqueueNDRangeKernel rt_memo_enqueue(cl_command_queue queue)
{
    if (dl_rt_timed()) /* DL_STATS: the timed forward (rt_self.c) */
        return rt_fwd.clEnqueueNDRangeKernel;
    const cl_icd_dispatch *table = direct_table(queue);
    if (table && table->clEnqueueNDRangeKernel)
        return table->clEnqueueNDRangeKernel;
    return dl_cl.clEnqueueNDRangeKernel;
}

/* The queue's events come from the same driver: its table holds their
 * entries too. */
void rt_memo_event_calls(cl_command_queue queue, cl_api_clRetainEvent *retain,
                         cl_api_clReleaseEvent *release)
{
    const cl_icd_dispatch *table = direct_table(queue);
    int both = table && table->clRetainEvent && table->clReleaseEvent;
    *retain = both ? table->clRetainEvent : dl_cl.clRetainEvent;
    *release = both ? table->clReleaseEvent : dl_cl.clReleaseEvent;
}
