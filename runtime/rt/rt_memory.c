/* rt_memory.c - the buffer entry points: creating buffers and
 * sub-buffers (a reused handle loses the state of the buffer that had
 * it; every sub-buffer is tracked), releasing them. */
#include "rt_internal.h"

/* A handle the implementation reuses must not inherit the state of a
 * buffer released behind our back. */
static cl_mem forget_reused(cl_mem mem)
{
    if (mem && __atomic_load_n(&dl_rt.buffers.live, __ATOMIC_RELAXED)) {
        rt_lock();
        rt_buffer *stale = rt_buffer_find(mem);
        if (stale)
            rt_forget_buffer(stale);
        rt_unlock();
    }
    return mem;
}

cl_mem dl_rt_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                            void *host_ptr, cl_int *errcode_ret)
{
    return forget_reused(
        rt_fwd.clCreateBuffer(context, flags, size, host_ptr, errcode_ret));
}

cl_mem dl_rt_clCreateBufferWithProperties(cl_context context,
                                          const cl_mem_properties *properties,
                                          cl_mem_flags flags, size_t size,
                                          void *host_ptr, cl_int *errcode_ret)
{
    return forget_reused(rt_fwd.clCreateBufferWithProperties(
        context, properties, flags, size, host_ptr, errcode_ret));
}

cl_mem dl_rt_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                               cl_buffer_create_type buffer_create_type,
                               const void *buffer_create_info,
                               cl_int *errcode_ret)
{
    cl_mem mem = rt_fwd.clCreateSubBuffer(buffer, flags, buffer_create_type,
                                          buffer_create_info, errcode_ret);
    if (mem) { /* rare: always tracked, see rt_launch.c apply() */
        rt_lock();
        rt_buffer *stale = rt_buffer_find(mem);
        if (stale)
            rt_forget_buffer(stale);
        if (!rt_buffer_get(mem)) /* records the parent */
            __atomic_store_n(&dl_rt.untracked_subs, 1, __ATOMIC_RELEASE);
        rt_unlock();
    }
    return mem;
}

/* Nothing to do here: the destructor callback (rt_buffer_get) drops the
 * state when the object really goes.  A buffer outlives its last release
 * while sub-buffers of it exist, and they see its bytes: restoring it is
 * then the business of the sub-buffers' accesses, as always. */
cl_int dl_rt_clReleaseMemObject(cl_mem memobj)
{
    return rt_fwd.clReleaseMemObject(memobj);
}
