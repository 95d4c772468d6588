/* rt_access.c - host-visible and raw accesses to buffers: the original
 * layout is restored before every read, map, copy, partial write or fill,
 * sub-buffer use and native kernel; a whole-buffer write or fill only
 * resets the state (the old bytes are overwritten anyway). */
#include "rt_internal.h"

#include <stdlib.h>

/* One access: the buffers it touches, and the wait list and event of the
 * real call. */
typedef struct access {
    cl_command_queue queue;
    cl_uint nwait; /* for the real call */
    const cl_event *wait;
    cl_event *event; /* for the real call */
    cl_event own;    /* ours when the caller passed NULL */
    cl_event *caller_event;
    rt_events done, joined;
    int tracked;  /* some buffer is in the table */
    int blocking; /* the caller asked for a blocking call */
} access;

/* Before the real call, which the caller makes non-blocking: the lock is
 * held from here to access_end, so that no other thread converts these
 * buffers between the restore and the command.  whole[i]: mems[i] is
 * overwritten entirely. */
static void access_begin(access *a, cl_command_queue queue, cl_uint nmem,
                         const cl_mem *mems, const int *whole, cl_uint nwait,
                         const cl_event *wait, cl_event *event, int blocking)
{
    *a = (access){.queue = queue,
                  .nwait = nwait,
                  .wait = wait,
                  .event = event,
                  .caller_event = event,
                  .blocking = blocking};
    rt_lock();
    for (cl_uint i = 0; i < nmem; i++) {
        if (!mems[i])
            continue;
        rt_buffer *b = rt_buffer_find(mems[i]);
        if (!b) {
            if (RT_LOAD(dl_rt.transformed))
                rt_buffer_restore_mem(mems[i], queue, nwait, wait, &a->done);
            continue;
        }
        a->tracked = 1;
        /* A sub-buffer's whole write is a partial write of its parent. */
        if (whole && whole[i] && !b->parent) {
            rt_buffer_reset(b);
            rt_buffer_order(b, queue, &a->done); /* not before a conversion */
        } else
            rt_buffer_restore(b, queue, nwait, wait, &a->done);
    }
    if (a->done.n)
        a->wait = rt_events_join(&a->joined, nwait, wait, &a->done, &a->nwait);
    if ((a->tracked || blocking) && !event)
        a->event = &a->own;
}

/* After it: the command is a use of each tracked buffer; a blocking call
 * waits here, without the lock.  Returns the call's status. */
static cl_int access_end(access *a, cl_uint nmem, const cl_mem *mems,
                         cl_int err)
{
    if (a->tracked && err == CL_SUCCESS && *a->event)
        for (cl_uint i = 0; i < nmem; i++) {
            rt_buffer *b = mems[i] ? rt_buffer_find(mems[i]) : NULL;
            if (b)
                rt_buffer_used(b, a->queue, *a->event);
        }
    rt_unlock();
    if (a->blocking && err == CL_SUCCESS && *a->event)
        err = dl_cl.clWaitForEvents(1, a->event);
    if (a->own)
        dl_cl.clReleaseEvent(a->own);
    rt_events_free(&a->joined);
    rt_events_free(&a->done);
    return err;
}

static size_t mem_size(cl_mem mem)
{
    size_t size = 0;
    if (dl_cl.clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, NULL) !=
        CL_SUCCESS)
        return 0;
    return size;
}

/* Nothing to do for buffers the table does not know (lock-free lookups):
 * every sub-buffer is tracked from its creation on (rt_buffers.c), so an
 * unknown buffer is no part of a transformed one, unless tracking a
 * sub-buffer once failed. */
static inline int untouched(cl_uint nmem, const cl_mem *mems)
{
    if (!__atomic_load_n(&dl_rt.buffers.live, __ATOMIC_RELAXED))
        return !RT_LOAD(dl_rt.transformed);
    for (cl_uint i = 0; i < nmem; i++)
        if (mems[i] && rt_buffer_find(mems[i]))
            return 0;
    return !RT_LOAD(dl_rt.transformed) || !RT_LOAD(dl_rt.untracked_subs);
}

/* The inline lookup in the buffer table (rt_map_probe).  Not under
 * helgrind (dl_rt.annotated < 0), which must see the lock. */
static inline int probe_buffer(cl_mem mem, rt_buffer **b)
{
    return rt_map_probe(&dl_rt.buffers, mem, (void **)b);
}

/* The wrappers' own test, inline and lock-free: no annotated program
 * yet, or buffers the table surely does not know (untouched() decides
 * the rest). */
static inline int unknown(cl_mem mem)
{
    rt_buffer *b;
    return !probe_buffer(mem, &b) && !RT_LOAD(dl_rt.untracked_subs);
}

static inline int passes(cl_mem a, cl_mem b)
{
    int annotated = RT_LOAD(dl_rt.annotated);
    return !annotated ||
           (annotated > 0 && unknown(a) && (!b || unknown(b)));
}

/* What a read or write goes through: straight to the real call, the same
 * counted in the buffer's host_busy, or the locked path.  A blocking read
 * or write of a buffer the table knows but never converted needs no lock:
 * it counts itself, and the buffer's first conversion (rt_buffers.c,
 * convert) marks it ever_converted before it looks at the count, and
 * gives way while an access is under way, so neither overtakes the
 * other.  A blocking call leaves no command to wait for.  Once converted,
 * a buffer's accesses take the locked path: a restore may still run.  So
 * do a sub-buffer's (marked ever_converted from the start): the locked
 * path restores its parent. */
typedef enum { ACCESS_PASS, ACCESS_COUNTED, ACCESS_LOCKED } access_path;

/* GCC's sibling calls reload and store back the stack arguments of these
 * 9- and 14-argument calls, on every path. */
#define RT_NO_SIBLING_CALLS                                                    \
    __attribute__((optimize("no-optimize-sibling-calls")))

static inline access_path path_of(cl_mem mem, cl_bool blocking,
                                  rt_buffer **b)
{
    int annotated = RT_LOAD(dl_rt.annotated);
    if (!annotated)
        return ACCESS_PASS;
    if (annotated < 0)
        return ACCESS_LOCKED;
    int found = probe_buffer(mem, b);
    if (!found)
        return RT_LOAD(dl_rt.untracked_subs) ? ACCESS_LOCKED : ACCESS_PASS;
    if (found < 0 || !blocking || !*b)
        return ACCESS_LOCKED;
    __atomic_add_fetch(&(*b)->host_busy, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&(*b)->ever_converted, __ATOMIC_SEQ_CST))
        return ACCESS_COUNTED;
    __atomic_sub_fetch(&(*b)->host_busy, 1, __ATOMIC_RELEASE);
    return ACCESS_LOCKED;
}

static inline void counted_done(access_path path, rt_buffer *b)
{
    if (path == ACCESS_COUNTED)
        __atomic_sub_fetch(&b->host_busy, 1, __ATOMIC_RELEASE);
}

static __attribute__((noinline)) cl_int
clEnqueueReadBuffer_slow(cl_command_queue command_queue, cl_mem buffer,
                         cl_bool blocking_read, size_t offset, size_t size,
                         void *ptr, cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueReadBuffer(
            command_queue, buffer, blocking_read, offset, size, ptr,
            num_events_in_wait_list, event_wait_list, event);
    access a;
    access_begin(&a, command_queue, 1, &buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, blocking_read);
    cl_int err =
        dl_cl.clEnqueueReadBuffer(command_queue, buffer, CL_FALSE, offset,
                                  size, ptr, a.nwait, a.wait, a.event);
    return access_end(&a, 1, &buffer, err);
}

RT_NO_SIBLING_CALLS cl_int dl_rt_clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                 cl_bool blocking_read, size_t offset,
                                 size_t size, void *ptr,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event)
{
    rt_buffer *b = NULL;
    access_path path = path_of(buffer, blocking_read, &b);
    if (path == ACCESS_LOCKED)
        return clEnqueueReadBuffer_slow(
            command_queue, buffer, blocking_read, offset, size, ptr,
            num_events_in_wait_list, event_wait_list, event);
    cl_int err = dl_cl.clEnqueueReadBuffer(
        command_queue, buffer, blocking_read, offset, size, ptr,
        num_events_in_wait_list, event_wait_list, event);
    counted_done(path, b);
    return err;
}

static __attribute__((noinline)) cl_int clEnqueueReadBufferRect_slow(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueReadBufferRect(
            command_queue, buffer, blocking_read, buffer_origin, host_origin,
            region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
            host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
            event);
    access a;
    access_begin(&a, command_queue, 1, &buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, blocking_read);
    cl_int err = dl_cl.clEnqueueReadBufferRect(
        command_queue, buffer, CL_FALSE, buffer_origin, host_origin, region,
        buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
        ptr, a.nwait, a.wait, a.event);
    return access_end(&a, 1, &buffer, err);
}

RT_NO_SIBLING_CALLS cl_int dl_rt_clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    rt_buffer *b = NULL;
    access_path path = path_of(buffer, blocking_read, &b);
    if (path == ACCESS_LOCKED)
        return clEnqueueReadBufferRect_slow(
            command_queue, buffer, blocking_read, buffer_origin, host_origin,
            region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
            host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
            event);
    cl_int err = dl_cl.clEnqueueReadBufferRect(
        command_queue, buffer, blocking_read, buffer_origin, host_origin,
        region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
        host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
    counted_done(path, b);
    return err;
}

static __attribute__((noinline)) cl_int
clEnqueueWriteBuffer_slow(cl_command_queue command_queue, cl_mem buffer,
                          cl_bool blocking_write, size_t offset, size_t size,
                          const void *ptr, cl_uint num_events_in_wait_list,
                          const cl_event *event_wait_list, cl_event *event)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueWriteBuffer(
            command_queue, buffer, blocking_write, offset, size, ptr,
            num_events_in_wait_list, event_wait_list, event);
    access a;
    int whole = offset == 0 && size == mem_size(buffer);
    access_begin(&a, command_queue, 1, &buffer, &whole,
                 num_events_in_wait_list, event_wait_list, event,
                 blocking_write);
    cl_int err =
        dl_cl.clEnqueueWriteBuffer(command_queue, buffer, CL_FALSE, offset,
                                   size, ptr, a.nwait, a.wait, a.event);
    return access_end(&a, 1, &buffer, err);
}

RT_NO_SIBLING_CALLS cl_int dl_rt_clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                  cl_bool blocking_write, size_t offset,
                                  size_t size, const void *ptr,
                                  cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list,
                                  cl_event *event)
{
    rt_buffer *b = NULL;
    access_path path = path_of(buffer, blocking_write, &b);
    if (path == ACCESS_LOCKED)
        return clEnqueueWriteBuffer_slow(
            command_queue, buffer, blocking_write, offset, size, ptr,
            num_events_in_wait_list, event_wait_list, event);
    cl_int err = dl_cl.clEnqueueWriteBuffer(
        command_queue, buffer, blocking_write, offset, size, ptr,
        num_events_in_wait_list, event_wait_list, event);
    counted_done(path, b);
    return err;
}

static __attribute__((noinline)) cl_int clEnqueueWriteBufferRect_slow(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueWriteBufferRect(
            command_queue, buffer, blocking_write, buffer_origin, host_origin,
            region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
            host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
            event);
    /* A rect write is treated as partial, whatever its region. */
    access a;
    access_begin(&a, command_queue, 1, &buffer, NULL, num_events_in_wait_list,
                 event_wait_list, event, blocking_write);
    cl_int err = dl_cl.clEnqueueWriteBufferRect(
        command_queue, buffer, CL_FALSE, buffer_origin, host_origin, region,
        buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
        ptr, a.nwait, a.wait, a.event);
    return access_end(&a, 1, &buffer, err);
}

RT_NO_SIBLING_CALLS cl_int dl_rt_clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    rt_buffer *b = NULL;
    access_path path = path_of(buffer, blocking_write, &b);
    if (path == ACCESS_LOCKED)
        return clEnqueueWriteBufferRect_slow(
            command_queue, buffer, blocking_write, buffer_origin, host_origin,
            region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
            host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
            event);
    cl_int err = dl_cl.clEnqueueWriteBufferRect(
        command_queue, buffer, blocking_write, buffer_origin, host_origin,
        region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
        host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
    counted_done(path, b);
    return err;
}

static __attribute__((noinline)) cl_int
clEnqueueFillBuffer_slow(cl_command_queue command_queue, cl_mem buffer,
                         const void *pattern, size_t pattern_size,
                         size_t offset, size_t size,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueFillBuffer(
            command_queue, buffer, pattern, pattern_size, offset, size,
            num_events_in_wait_list, event_wait_list, event);
    access a;
    int whole = offset == 0 && size == mem_size(buffer);
    access_begin(&a, command_queue, 1, &buffer, &whole,
                 num_events_in_wait_list, event_wait_list, event, 0);
    cl_int err =
        dl_cl.clEnqueueFillBuffer(command_queue, buffer, pattern, pattern_size,
                                  offset, size, a.nwait, a.wait, a.event);
    return access_end(&a, 1, &buffer, err);
}

cl_int dl_rt_clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                 const void *pattern, size_t pattern_size,
                                 size_t offset, size_t size,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event)
{
    if (passes(buffer, NULL))
        return dl_cl.clEnqueueFillBuffer(
            command_queue, buffer, pattern, pattern_size, offset, size,
            num_events_in_wait_list, event_wait_list, event);
    return clEnqueueFillBuffer_slow(
        command_queue, buffer, pattern, pattern_size, offset, size,
        num_events_in_wait_list, event_wait_list, event);
}

static __attribute__((noinline)) cl_int
clEnqueueCopyBuffer_slow(cl_command_queue command_queue, cl_mem src_buffer,
                         cl_mem dst_buffer, size_t src_offset,
                         size_t dst_offset, size_t size,
                         cl_uint num_events_in_wait_list,
                         const cl_event *event_wait_list, cl_event *event)
{
    if (untouched(2, ((cl_mem[2]){src_buffer, dst_buffer})))
        return dl_cl.clEnqueueCopyBuffer(
            command_queue, src_buffer, dst_buffer, src_offset, dst_offset,
            size, num_events_in_wait_list, event_wait_list, event);
    access a;
    cl_mem mems[2] = {src_buffer, dst_buffer};
    int whole[2] = {0, src_buffer != dst_buffer && dst_offset == 0 &&
                           size == mem_size(dst_buffer)};
    access_begin(&a, command_queue, 2, mems, whole, num_events_in_wait_list,
                 event_wait_list, event, 0);
    cl_int err = dl_cl.clEnqueueCopyBuffer(command_queue, src_buffer,
                                           dst_buffer, src_offset, dst_offset,
                                           size, a.nwait, a.wait, a.event);
    return access_end(&a, 2, mems, err);
}

cl_int dl_rt_clEnqueueCopyBuffer(cl_command_queue command_queue,
                                 cl_mem src_buffer, cl_mem dst_buffer,
                                 size_t src_offset, size_t dst_offset,
                                 size_t size, cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event)
{
    if (passes(src_buffer, dst_buffer))
        return dl_cl.clEnqueueCopyBuffer(
            command_queue, src_buffer, dst_buffer, src_offset, dst_offset,
            size, num_events_in_wait_list, event_wait_list, event);
    return clEnqueueCopyBuffer_slow(
        command_queue, src_buffer, dst_buffer, src_offset, dst_offset, size,
        num_events_in_wait_list, event_wait_list, event);
}

static __attribute__((noinline)) cl_int clEnqueueCopyBufferRect_slow(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    if (untouched(2, ((cl_mem[2]){src_buffer, dst_buffer})))
        return dl_cl.clEnqueueCopyBufferRect(
            command_queue, src_buffer, dst_buffer, src_origin, dst_origin,
            region, src_row_pitch, src_slice_pitch, dst_row_pitch,
            dst_slice_pitch, num_events_in_wait_list, event_wait_list, event);
    access a;
    cl_mem mems[2] = {src_buffer, dst_buffer};
    access_begin(&a, command_queue, 2, mems, NULL, num_events_in_wait_list,
                 event_wait_list, event, 0);
    cl_int err = dl_cl.clEnqueueCopyBufferRect(
        command_queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
        src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
        a.nwait, a.wait, a.event);
    return access_end(&a, 2, mems, err);
}

cl_int dl_rt_clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    if (passes(src_buffer, dst_buffer))
        return dl_cl.clEnqueueCopyBufferRect(
            command_queue, src_buffer, dst_buffer, src_origin, dst_origin,
            region, src_row_pitch, src_slice_pitch, dst_row_pitch,
            dst_slice_pitch, num_events_in_wait_list, event_wait_list, event);
    return clEnqueueCopyBufferRect_slow(
        command_queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
        src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
        num_events_in_wait_list, event_wait_list, event);
}

static __attribute__((noinline)) cl_int clEnqueueCopyBufferToImage_slow(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    if (untouched(1, &src_buffer))
        return dl_cl.clEnqueueCopyBufferToImage(
            command_queue, src_buffer, dst_image, src_offset, dst_origin,
            region, num_events_in_wait_list, event_wait_list, event);
    access a;
    access_begin(&a, command_queue, 1, &src_buffer, NULL,
                 num_events_in_wait_list, event_wait_list, event, 0);
    cl_int err = dl_cl.clEnqueueCopyBufferToImage(
        command_queue, src_buffer, dst_image, src_offset, dst_origin, region,
        a.nwait, a.wait, a.event);
    return access_end(&a, 1, &src_buffer, err);
}

cl_int dl_rt_clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
    size_t src_offset, const size_t *dst_origin, const size_t *region,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    if (passes(src_buffer, NULL))
        return dl_cl.clEnqueueCopyBufferToImage(
            command_queue, src_buffer, dst_image, src_offset, dst_origin,
            region, num_events_in_wait_list, event_wait_list, event);
    return clEnqueueCopyBufferToImage_slow(
        command_queue, src_buffer, dst_image, src_offset, dst_origin, region,
        num_events_in_wait_list, event_wait_list, event);
}

static __attribute__((noinline)) void *clEnqueueMapBuffer_slow(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
    cl_map_flags map_flags, size_t offset, size_t size,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event, cl_int *errcode_ret)
{
    if (untouched(1, &buffer))
        return dl_cl.clEnqueueMapBuffer(
            command_queue, buffer, blocking_map, map_flags, offset, size,
            num_events_in_wait_list, event_wait_list, event, errcode_ret);
    access a;
    int whole = (map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && offset == 0 &&
                size == mem_size(buffer);
    access_begin(&a, command_queue, 1, &buffer, &whole,
                 num_events_in_wait_list, event_wait_list, event,
                 blocking_map);
    cl_int err = CL_SUCCESS;
    void *ptr =
        dl_cl.clEnqueueMapBuffer(command_queue, buffer, CL_FALSE, map_flags,
                                 offset, size, a.nwait, a.wait, a.event, &err);
    err = access_end(&a, 1, &buffer, err);
    if (errcode_ret)
        *errcode_ret = err;
    return err == CL_SUCCESS ? ptr : NULL;
}

void *dl_rt_clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                               cl_bool blocking_map, cl_map_flags map_flags,
                               size_t offset, size_t size,
                               cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list,
                               cl_event *event, cl_int *errcode_ret)
{
    if (passes(buffer, NULL))
        return dl_cl.clEnqueueMapBuffer(
            command_queue, buffer, blocking_map, map_flags, offset, size,
            num_events_in_wait_list, event_wait_list, event, errcode_ret);
    return clEnqueueMapBuffer_slow(
        command_queue, buffer, blocking_map, map_flags, offset, size,
        num_events_in_wait_list, event_wait_list, event, errcode_ret);
}

static __attribute__((noinline)) cl_int
clEnqueueNativeKernel_slow(cl_command_queue command_queue,
                           void(CL_CALLBACK *user_func)(void *), void *args,
                           size_t cb_args, cl_uint num_mem_objects,
                           const cl_mem *mem_list, const void **args_mem_loc,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event)
{
    cl_uint nmem = mem_list ? num_mem_objects : 0;
    if (untouched(nmem, mem_list))
        return dl_cl.clEnqueueNativeKernel(
            command_queue, user_func, args, cb_args, num_mem_objects, mem_list,
            args_mem_loc, num_events_in_wait_list, event_wait_list, event);
    access a;
    access_begin(&a, command_queue, nmem, mem_list, NULL,
                 num_events_in_wait_list, event_wait_list, event, 0);
    cl_int err = dl_cl.clEnqueueNativeKernel(
        command_queue, user_func, args, cb_args, num_mem_objects, mem_list,
        args_mem_loc, a.nwait, a.wait, a.event);
    return access_end(&a, nmem, mem_list, err);
}

cl_int
dl_rt_clEnqueueNativeKernel(cl_command_queue command_queue,
                            void(CL_CALLBACK *user_func)(void *), void *args,
                            size_t cb_args, cl_uint num_mem_objects,
                            const cl_mem *mem_list, const void **args_mem_loc,
                            cl_uint num_events_in_wait_list,
                            const cl_event *event_wait_list, cl_event *event)
{
    if (!RT_LOAD(dl_rt.annotated))
        return dl_cl.clEnqueueNativeKernel(
            command_queue, user_func, args, cb_args, num_mem_objects, mem_list,
            args_mem_loc, num_events_in_wait_list, event_wait_list, event);
    return clEnqueueNativeKernel_slow(
        command_queue, user_func, args, cb_args, num_mem_objects, mem_list,
        args_mem_loc, num_events_in_wait_list, event_wait_list, event);
}
