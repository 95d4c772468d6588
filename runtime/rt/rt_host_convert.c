/* rt_host_convert.c - a conversion on the host, the last resort when the
 * device cannot convert (rt_buffers.c, restore_on_host): read the buffer,
 * convert the bytes with the host reference, write them back.  Nothing
 * blocks (the caller holds the lock): the read's completion callback
 * converts and then sets a user event, which the write waits for. */
#include "rt_internal.h"

#include <stdlib.h>

/* What the callbacks share; freed by the last of them (refs). */
typedef struct host_job {
    void *host;
    size_t bytes;
    dl_layout from, to; /* records retained */
    cl_event converted; /* user event: the bytes are in `to` */
    int refs;           /* atomic: callbacks still to run */
} host_job;

static void job_unref(host_job *j)
{
    if (__atomic_sub_fetch(&j->refs, 1, __ATOMIC_ACQ_REL))
        return;
    dl_cl.clReleaseEvent(j->converted);
    dl_record_release((dl_record *)j->from.record);
    dl_record_release((dl_record *)j->to.record);
    free(j->host);
    free(j);
}

static void CL_CALLBACK on_read(cl_event ev, cl_int status, void *user)
{
    (void)ev;
    host_job *j = user;
    dl_status st =
        status != CL_COMPLETE
            ? dl_fail(DL_OPENCL_ERROR, "the read failed (%d)", (int)status)
            : dl_convert_host(j->host, j->bytes, &j->from, &j->to);
    if (st != DL_SUCCESS)
        DL_LOG_ERROR("converting a buffer on the host failed: %s",
                     dl_last_error());
    /* A negative status ends the write unexecuted. */
    dl_cl.clSetUserEventStatus(j->converted,
                               st == DL_SUCCESS ? CL_COMPLETE : -1);
    job_unref(j);
}

static void CL_CALLBACK on_written(cl_event ev, cl_int status, void *user)
{
    (void)ev, (void)status;
    job_unref(user);
}

dl_status rt_host_convert(cl_command_queue queue, cl_mem mem,
                          cl_context context, const dl_layout *from,
                          const dl_layout *to, cl_uint nwait,
                          const cl_event *wait, cl_event *ev)
{
    size_t bytes = dl_layout_bytes(from);
    host_job *j = calloc(1, sizeof *j);
    void *host = malloc(bytes ? bytes : 1);
    cl_int err = CL_OUT_OF_HOST_MEMORY;
    cl_event converted =
        j && host ? dl_cl.clCreateUserEvent(context, &err) : NULL;
    if (!converted) {
        free(j);
        free(host);
        return dl_fail(DL_OPENCL_ERROR, "no user event (%d)", (int)err);
    }
    *j = (host_job){host, bytes, *from, *to, converted, 2};
    dl_record_retain((dl_record *)j->from.record);
    dl_record_retain((dl_record *)j->to.record);
    cl_event read = NULL;
    err = dl_cl.clEnqueueReadBuffer(queue, mem, CL_FALSE, 0, bytes, host, nwait,
                                    wait, &read);
    if (err == CL_SUCCESS)
        err = dl_cl.clSetEventCallback(read, CL_COMPLETE, on_read, j);
    if (read)
        dl_cl.clReleaseEvent(read);
    if (err != CL_SUCCESS) {
        /* A read that may still fill `host` keeps the job (leaked). */
        if (!read) {
            j->refs = 1;
            job_unref(j);
        }
        return dl_fail(DL_OPENCL_ERROR, "clEnqueueReadBuffer failed (%d)",
                       (int)err);
    }
    err = dl_cl.clEnqueueWriteBuffer(queue, mem, CL_FALSE, 0, bytes, host, 1,
                                     &converted, ev);
    if (err == CL_SUCCESS &&
        dl_cl.clSetEventCallback(*ev, CL_COMPLETE, on_written, j) ==
            CL_SUCCESS) {
        dl_cl.clFlush(queue);
        return DL_SUCCESS;
    }
    if (err == CL_SUCCESS) /* the write runs; the job outlives it */
        return DL_SUCCESS;
    job_unref(j); /* on_read frees it */
    return dl_fail(DL_OPENCL_ERROR, "clEnqueueWriteBuffer failed (%d)",
                   (int)err);
}
