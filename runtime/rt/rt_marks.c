/* rt_marks.c - the entry points dlayout intercepts only to mark what it
 * cannot follow (the MARKS entries of interpose/entries.def).
 *
 * Images that view a buffer read and write its bytes through calls
 * dlayout does not intercept, SVM pointers reach kernels without going
 * through a recorded argument, GL shares a buffer with another API, and
 * programs compiled, linked or made from IL have no source dlayout can
 * activate.  Each is marked once, with an info-level message: the buffer
 * stays in the program's layout, the kernel runs as written. */
#include "rt_internal.h"

#include <CL/cl_gl.h>

/* ---------------------------------------------------------------- buffers */

void rt_buffer_pin(rt_buffer *b, const char *why)
{
    if (b->parent) {
        rt_buffer *p = rt_buffer_get(b->parent);
        if (p)
            rt_buffer_pin(p, why);
    }
    if (b->pinned)
        return;
    DL_LOG_INFO("a buffer stays in the program's layout from now on: %s", why);
    rt_memos_invalidate(); /* a memo may hold it transformed */
    b->pinned = why;
    if (!b->transformed || !b->queue)
        return;
    /* On the queue of its last conversion, after its uses there: a
     * command on that queue that the program enqueues next sees the
     * original bytes. */
    cl_command_queue queue = b->queue;
    rt_events done = {0};
    rt_buffer_restore(b, queue, 0, NULL, &done);
    rt_events_free(&done);
    dl_cl.clFlush(queue);
}

/* Pins the buffer an image is made from (image_desc->buffer), if any. */
static void pin_viewed(const cl_image_desc *desc)
{
    if (!desc || !desc->buffer)
        return;
    rt_lock();
    rt_buffer *b = rt_buffer_get(desc->buffer);
    if (b)
        rt_buffer_pin(b, "an image views it");
    rt_unlock();
}

cl_mem dl_rt_clCreateImage(cl_context context, cl_mem_flags flags,
                           const cl_image_format *image_format,
                           const cl_image_desc *image_desc, void *host_ptr,
                           cl_int *errcode_ret)
{
    pin_viewed(image_desc);
    return rt_fwd.clCreateImage(context, flags, image_format, image_desc,
                                host_ptr, errcode_ret);
}

cl_mem dl_rt_clCreateImageWithProperties(cl_context context,
                                         const cl_mem_properties *properties,
                                         cl_mem_flags flags,
                                         const cl_image_format *image_format,
                                         const cl_image_desc *image_desc,
                                         void *host_ptr, cl_int *errcode_ret)
{
    pin_viewed(image_desc);
    return rt_fwd.clCreateImageWithProperties(context, properties, flags,
                                              image_format, image_desc,
                                              host_ptr, errcode_ret);
}

cl_mem dl_rt_clCreateFromGLBuffer(cl_context context, cl_mem_flags flags,
                                  cl_GLuint bufobj, cl_int *errcode_ret)
{
    cl_mem mem =
        rt_fwd.clCreateFromGLBuffer(context, flags, bufobj, errcode_ret);
    if (mem) {
        rt_lock();
        rt_buffer *b = rt_buffer_get(mem);
        if (b)
            rt_buffer_pin(b, "it is shared with OpenGL");
        rt_unlock();
    }
    return mem;
}

/* ---------------------------------------------------------------- kernels */

/* The kernel runs as written from now on: its arguments no longer say
 * everything it touches.  Argument `index` (if below nargs) holds no
 * buffer any more. */
static void run_as_written(cl_kernel kernel, cl_uint index, const char *why)
{
    rt_lock();
    rt_kernel *k = rt_kernel_find(kernel);
    if (k && index < k->nargs)
        k->args[index].size = 0; /* the launch sees no buffer there */
    if (k)
        k->reorder = 0;
    if (k && k->transformed) {
        rt_memos_invalidate();
        k->transformed = 0;
        RT_ADD(dl_rt.stats.declined, 1);
        DL_LOG_INFO("kernel '%s' runs untransformed from now on: %s", k->name,
                    why);
    }
    rt_unlock();
}

cl_int dl_rt_clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                      const void *arg_value)
{
    cl_int err = rt_fwd.clSetKernelArgSVMPointer(kernel, arg_index, arg_value);
    if (err == CL_SUCCESS && RT_LOAD(dl_rt.annotated))
        run_as_written(kernel, arg_index,
                       "an argument is an SVM pointer "
                       "(clSetKernelArgSVMPointer)");
    return err;
}

cl_int dl_rt_clSetKernelExecInfo(cl_kernel kernel,
                                 cl_kernel_exec_info param_name,
                                 size_t param_value_size,
                                 const void *param_value)
{
    cl_int err = rt_fwd.clSetKernelExecInfo(kernel, param_name,
                                            param_value_size, param_value);
    if (err == CL_SUCCESS && RT_LOAD(dl_rt.annotated))
        run_as_written(kernel, (cl_uint)-1,
                       "it may use SVM its arguments do not show "
                       "(clSetKernelExecInfo)");
    return err;
}

/* --------------------------------------------------------------- programs */

cl_int dl_rt_clCompileProgram(cl_program program, cl_uint num_devices,
                              const cl_device_id *device_list,
                              const char *options, cl_uint num_input_headers,
                              const cl_program *input_headers,
                              const char **header_include_names,
                              void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                              void *user_data)
{
    DL_LOG_INFO("a program compiled with clCompileProgram runs as written: "
                "dlayout activates only programs built from source by "
                "clBuildProgram");
    return rt_fwd.clCompileProgram(program, num_devices, device_list, options,
                                   num_input_headers, input_headers,
                                   header_include_names, pfn_notify, user_data);
}

cl_program dl_rt_clLinkProgram(cl_context context, cl_uint num_devices,
                               const cl_device_id *device_list,
                               const char *options, cl_uint num_input_programs,
                               const cl_program *input_programs,
                               void(CL_CALLBACK *pfn_notify)(cl_program,
                                                             void *),
                               void *user_data, cl_int *errcode_ret)
{
    DL_LOG_INFO("a program linked by clLinkProgram runs as written: dlayout "
                "activates only programs built from source by "
                "clBuildProgram");
    return rt_fwd.clLinkProgram(context, num_devices, device_list, options,
                                num_input_programs, input_programs, pfn_notify,
                                user_data, errcode_ret);
}

cl_program dl_rt_clCreateProgramWithIL(cl_context context, const void *il,
                                       size_t length, cl_int *errcode_ret)
{
    DL_LOG_INFO("a program made from IL runs as written: dlayout reads "
                "annotations in OpenCL C source only");
    return rt_fwd.clCreateProgramWithIL(context, il, length, errcode_ret);
}
