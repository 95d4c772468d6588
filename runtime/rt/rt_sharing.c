/* rt_sharing.c - sharing on the device (rt_sharing.h): whether it may
 * serve a launch, its plan and facts on the planning thread, and its
 * upload as a pad with blocks; the launches are padding's
 * (rt_padding.c). */
#include "rt_sharing.h"
#include "sharing_slots.h"

#include <stdlib.h>
#include <string.h>

int rt_sharing_form(const dl_annot_kernel *ak)
{
    for (uint32_t i = 0; i < ak->nparams; i++)
        if (!strcmp(ak->params[i].name, "dl_share"))
            return 1;
    return 0;
}

const char *rt_sharing_unwanted(cl_command_queue queue)
{
    cl_device_id device = NULL;
    cl_device_local_mem_type type = CL_LOCAL;
    if (dl_cl.clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device,
                                    &device, NULL) == CL_SUCCESS &&
        dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_TYPE, sizeof type,
                              &type, NULL) == CL_SUCCESS &&
        type == CL_GLOBAL)
        return "the device's __local memory is global memory: no gain";
    return NULL;
}

const char *rt_sharing_unfit(rt_kernel *k, const dl_annot_indirect *r,
                             int a_written)
{
    if (!rt_sharing_form(k->annot))
        return "the source has no shared form (dl-annotate --explain says "
               "why)";
    return rt_padding_unfit(k, r, a_written);
}

/* dlayout's local size for a launch that gives none: at most this. */
#define SHARE_GROUP_MAX 64
/* ... and at least this, else the blocks would hardly be shared. */
#define SHARE_GROUP_MIN 16

const char *rt_sharing_group(const launch_call *c, size_t *group)
{
    if (c->local) {
        *group = c->local[0];
        return NULL;
    }
    cl_device_id device = NULL;
    size_t most = 0;
    if (dl_cl.clGetCommandQueueInfo(c->queue, CL_QUEUE_DEVICE, sizeof device,
                                    &device, NULL) != CL_SUCCESS ||
        dl_cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                              sizeof most, &most, NULL) != CL_SUCCESS)
        most = 0;
    for (*group = SHARE_GROUP_MAX; *group >= SHARE_GROUP_MIN; *group /= 2)
        if (*group <= most && c->global[0] % *group == 0)
            return NULL;
    *group = 0;
    return "the launch has no local size, and none from 16 to 64 divides "
           "its range";
}

/* ---------------------------------------------------------- planning */

static void decline(rt_jobswap_plan *p, const char *why)
{
    p->facts.sharing_form = 0;
    p->facts.no_sharing = why;
}

/* The transactions of the groups' coalesced loads: the segments their
 * blocks span (each starts a segment). */
static uint64_t block_loads(const dl_sharing_slots *s, unsigned per_segment)
{
    uint64_t tx = 0;
    for (size_t g = 0; g < s->groups; g++)
        tx += (s->block_size[g] + per_segment - 1) / per_segment;
    return tx;
}

/* The device's __local memory, 0 when unknown. */
static cl_ulong local_memory(cl_device_id device)
{
    cl_ulong bytes = 0;
    if (!device ||
        dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof bytes,
                              &bytes, NULL) != CL_SUCCESS)
        return 0;
    return bytes;
}

static const char *planned(rt_jobswap_plan *p, dl_status st)
{
    const dl_sharing_slots *s = p->sharing;
    if (st == DL_UNSUPPORTED)
        return "an entry of the index buffer is read by work-items of two "
               "groups";
    if (st != DL_SUCCESS)
        return "out of host memory for its plan";
    if (!s->tables.slots)
        return "the launch reads no entry";
    if (s->tables.slots > UINT32_MAX)
        return "A_s has more slots than its 32-bit blocks can place";
    if ((cl_ulong)s->max_block * p->ref.elem_bytes > local_memory(p->device))
        return "the largest block exceeds the device's __local memory";
    return NULL;
}

void rt_sharing_plan(rt_jobswap_plan *p, const int64_t *all,
                     const dl_coalesce_geometry *g,
                     const dl_coalesce_range *as_read)
{
    unsigned per = g->segment_bytes / p->ref.elem_bytes;
    p->sharing = calloc(1, sizeof *p->sharing);
    if (!p->sharing) {
        decline(p, "out of host memory for its plan");
        return;
    }
    dl_status st =
        dl_sharing_slots_build(all, p->entries, p->ref.offset, as_read,
                               p->sharing_clustered ? p->pad_job : NULL,
                               p->local, per ? per : 1, p->sharing);
    const char *why = planned(p, st);
    if (why) {
        decline(p, why);
        return;
    }
    const dl_sharing_slots *s = p->sharing;
    p->facts.tx_sharing = block_loads(s, per ? per : 1);
    p->facts.bytes_sharing =
        s->tables.slots * (p->ref.elem_bytes + rt_padding_e_bytes(&s->tables)) +
        p->p_bytes + 2 * s->groups * sizeof(uint32_t);
}

/* ------------------------------------------------------------ upload */

static cl_mem upload_blocks(cl_context ctx, const size_t *v, size_t n)
{
    uint32_t *u = malloc((n ? n : 1) * sizeof *u);
    if (!u)
        return NULL;
    for (size_t i = 0; i < n; i++)
        u[i] = (uint32_t)v[i];
    cl_int err = CL_SUCCESS;
    cl_mem m =
        dl_cl.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             (n ? n : 1) * sizeof *u, u, &err);
    free(u);
    return m;
}

rt_pad *rt_sharing_upload(rt_jobswap_plan *p, cl_kernel variant, cl_mem job,
                          const char **why)
{
    const dl_sharing_slots *s = p->sharing;
    rt_pad *pad = rt_padding_upload(p, &s->tables, variant, job, why);
    if (!pad)
        return NULL;
    pad->block_pos = upload_blocks(p->context, s->block_pos, s->groups);
    pad->block_size = upload_blocks(p->context, s->block_size, s->groups);
    pad->group = p->local;
    pad->groups = s->groups;
    pad->max_block = s->max_block;
    pad->local_bytes = (s->max_block ? s->max_block : 1) * p->ref.elem_bytes;
    if (!pad->block_pos || !pad->block_size) {
        *why = "the blocks cannot be allocated on the device";
        rt_padding_unref(pad);
        return NULL;
    }
    return pad;
}
