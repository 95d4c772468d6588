/* chain.c - enqueue the commands of one conversion in order, on in-order
 * and out-of-order queues alike, honouring the caller's wait list. */
#include "clapi.h"
#include "internal.h"

void dl_chain_begin(dl_chain *c, dl_engine *engine, cl_command_queue queue,
                    cl_uint num_wait, const cl_event *wait_list)
{
    *c = (dl_chain){engine, queue, num_wait, wait_list, NULL};
}

/* The wait list for the next command, and bookkeeping once it is queued. */
static cl_uint next_wait(dl_chain *c, const cl_event **list)
{
    if (c->last) {
        *list = &c->last;
        return 1;
    }
    *list = c->num_wait ? c->wait_list : NULL;
    return c->num_wait;
}

static void advance(dl_chain *c, cl_event ev)
{
    if (c->last)
        dl_cl.clReleaseEvent(c->last);
    c->last = ev;
    dl_engine_count_launch(c->engine);
}

dl_status dl_chain_kernel(dl_chain *c, cl_kernel kernel, cl_uint dims,
                          const size_t *global, const size_t *local)
{
    for (cl_uint d = 0; d < dims; d++)
        if (global[d] == 0)
            return DL_SUCCESS; /* nothing to do: an empty NDRange is invalid */
    const cl_event *wait;
    cl_uint n = next_wait(c, &wait);
    cl_event ev;
    cl_int err = dl_cl.clEnqueueNDRangeKernel(c->queue, kernel, dims, NULL,
                                              global, local, n, wait, &ev);
    DL_RETURN_ON_CL(err, "clEnqueueNDRangeKernel (marshal kernel)");
    advance(c, ev);
    return DL_SUCCESS;
}

dl_status dl_chain_fill(dl_chain *c, cl_mem mem, size_t bytes)
{
    const cl_event *wait;
    cl_uint n = next_wait(c, &wait);
    cl_uint zero = 0;
    cl_event ev;
    cl_int err = dl_cl.clEnqueueFillBuffer(c->queue, mem, &zero, sizeof zero, 0,
                                           bytes, n, wait, &ev);
    DL_RETURN_ON_CL(err, "clEnqueueFillBuffer (done bits)");
    advance(c, ev);
    return DL_SUCCESS;
}

dl_status dl_chain_copy(dl_chain *c, cl_mem src, cl_mem dst, size_t bytes)
{
    const cl_event *wait;
    cl_uint n = next_wait(c, &wait);
    cl_event ev;
    cl_int err = dl_cl.clEnqueueCopyBuffer(c->queue, src, dst, 0, 0, bytes, n,
                                           wait, &ev);
    DL_RETURN_ON_CL(err, "clEnqueueCopyBuffer (marshal temporary)");
    advance(c, ev);
    return DL_SUCCESS;
}

/* `src` is read when the write runs, not now: it must outlive the command. */
dl_status dl_chain_write(dl_chain *c, cl_mem dst, const void *src, size_t bytes)
{
    const cl_event *wait;
    cl_uint n = next_wait(c, &wait);
    cl_event ev;
    cl_int err = dl_cl.clEnqueueWriteBuffer(c->queue, dst, CL_FALSE, 0, bytes,
                                            src, n, wait, &ev);
    DL_RETURN_ON_CL(err, "clEnqueueWriteBuffer (marshal temporary)");
    advance(c, ev);
    return DL_SUCCESS;
}

dl_status dl_chain_end(dl_chain *c, cl_event *event)
{
    if (!c->last) {
        /* Nothing moved (identity or empty): still honour the wait list
         * and give the caller an event. */
        if (!event && c->num_wait == 0)
            return DL_SUCCESS;
        cl_event ev;
        cl_int err = dl_cl.clEnqueueMarkerWithWaitList(c->queue, c->num_wait,
                                                       c->wait_list, &ev);
        DL_RETURN_ON_CL(err, "clEnqueueMarkerWithWaitList");
        c->last = ev;
    }
    if (event)
        *event = c->last;
    else
        dl_cl.clReleaseEvent(c->last);
    c->last = NULL;
    return DL_SUCCESS;
}

dl_status dl_set_arg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
    cl_int err = dl_cl.clSetKernelArg(k, index, size, value);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_OPENCL_ERROR,
                       "clSetKernelArg(%u) failed with OpenCL error %d", index,
                       (int)err);
    return DL_SUCCESS;
}

dl_status dl_chain_tail_tile(dl_chain *c, const struct dl_step *s,
                             cl_kernel tail, cl_mem buf, size_t local)
{
    cl_ulong count = s->desc.count;
    if (count % s->desc.tile <= 1)
        return DL_SUCCESS;
    DL_RETURN_IF_FAIL(dl_set_arg(tail, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(tail, 1, sizeof count, &count));
    return dl_chain_kernel(c, tail, 1, &local, &local);
}
