/* intercept.h - what the shim (interpose/) calls: the runtime's side of
 * every intercepted OpenCL entry point.
 *
 * The shim is thin.  For each entry point of its list it does one thing:
 * if the runtime is active, call the dl_rt_ function of the same name
 * below; otherwise call the real function.  Every dl_rt_ function has the
 * exact OpenCL signature and contract of the call it stands for: it looks
 * up the runtime state of its objects, runs the policy (record a source,
 * marshal buffers, restore them), and forwards to the real implementation
 * through dl_cl (clapi.h), which dl_rt_init() filled with the real entry
 * points.  So nothing here ever re-enters the shim.
 *
 * A dl_rt_ function never fails because of dlayout: when its own work
 * fails it logs one message, leaves the data in (or returns it to) the
 * layout the program expects, and forwards the call unchanged.  The
 * return value and out parameters are those of the real call. */
#ifndef DL_INTERCEPT_H
#define DL_INTERCEPT_H

#include <CL/cl_icd.h>

/* The runtime's mode, fixed by dl_rt_init(). */
typedef enum dl_rt_mode {
    DL_RT_PASSTHROUGH = 0, /* DL_DISABLE, or initialisation failed */
    DL_RT_ACTIVE = 1
} dl_rt_mode;

/* Called once by the shim, on the first intercepted call of the process
 * (never from a constructor: processes that do not use OpenCL must not
 * notice the shim).  `real` holds the real entry points: the ICD loader's
 * (preload) or the next layer's (ICD layer).  Loads the DL_* controls,
 * configures the log, registers the DL_STATS exit line, and returns the
 * mode the shim must use from now on.  In a setuid or setgid process
 * (AT_SECURE) it reads no control, writes nothing and returns
 * DL_RT_PASSTHROUGH.  Thread-safe; later calls return the first call's
 * mode. */
dl_rt_mode dl_rt_init(const cl_icd_dispatch *real);

/* Prints the dlayout-stats line now if DL_STATS is set and it was not
 * printed yet (dl_rt_init registers it with atexit; the ICD layer can also
 * call it from its destructor). */
void dl_rt_print_stats(void);

/* ---------------------------------------------------------- contexts */
cl_context dl_rt_clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices,
    const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret);
cl_context dl_rt_clCreateContextFromType(
    const cl_context_properties *properties, cl_device_type device_type,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
    void *user_data, cl_int *errcode_ret);
cl_int dl_rt_clRetainContext(cl_context context);
cl_int dl_rt_clReleaseContext(cl_context context);

/* ---------------------------------------------------------- programs */
cl_program dl_rt_clCreateProgramWithSource(cl_context context, cl_uint count,
                                           const char **strings,
                                           const size_t *lengths,
                                           cl_int *errcode_ret);
cl_int dl_rt_clBuildProgram(cl_program program, cl_uint num_devices,
                            const cl_device_id *device_list,
                            const char *options,
                            void(CL_CALLBACK *pfn_notify)(cl_program,
                                                          void *),
                            void *user_data);
cl_int dl_rt_clReleaseProgram(cl_program program);

/* ----------------------------------------------------------- kernels */
cl_kernel dl_rt_clCreateKernel(cl_program program, const char *kernel_name,
                               cl_int *errcode_ret);
cl_int dl_rt_clCreateKernelsInProgram(cl_program program,
                                      cl_uint num_kernels,
                                      cl_kernel *kernels,
                                      cl_uint *num_kernels_ret);
cl_int dl_rt_clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                            size_t arg_size, const void *arg_value);
cl_int dl_rt_clReleaseKernel(cl_kernel kernel);

/* ------------------------------------------------------------ memory */
cl_mem dl_rt_clCreateBuffer(cl_context context, cl_mem_flags flags,
                            size_t size, void *host_ptr,
                            cl_int *errcode_ret);
cl_mem dl_rt_clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                               cl_buffer_create_type buffer_create_type,
                               const void *buffer_create_info,
                               cl_int *errcode_ret);
cl_int dl_rt_clReleaseMemObject(cl_mem memobj);

/* ---------------------------------------------------------- launches */
cl_int dl_rt_clEnqueueNDRangeKernel(cl_command_queue command_queue,
                                    cl_kernel kernel, cl_uint work_dim,
                                    const size_t *global_work_offset,
                                    const size_t *global_work_size,
                                    const size_t *local_work_size,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event *event_wait_list,
                                    cl_event *event);
cl_int dl_rt_clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                           cl_uint num_events_in_wait_list,
                           const cl_event *event_wait_list, cl_event *event);
cl_int dl_rt_clEnqueueNativeKernel(cl_command_queue command_queue,
                                   void(CL_CALLBACK *user_func)(void *),
                                   void *args, size_t cb_args,
                                   cl_uint num_mem_objects,
                                   const cl_mem *mem_list,
                                   const void **args_mem_loc,
                                   cl_uint num_events_in_wait_list,
                                   const cl_event *event_wait_list,
                                   cl_event *event);

/* ---------------------------------- host-visible and raw buffer access */
cl_int dl_rt_clEnqueueReadBuffer(cl_command_queue command_queue,
                                 cl_mem buffer, cl_bool blocking_read,
                                 size_t offset, size_t size, void *ptr,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event);
cl_int dl_rt_clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int dl_rt_clEnqueueWriteBuffer(cl_command_queue command_queue,
                                  cl_mem buffer, cl_bool blocking_write,
                                  size_t offset, size_t size,
                                  const void *ptr,
                                  cl_uint num_events_in_wait_list,
                                  const cl_event *event_wait_list,
                                  cl_event *event);
cl_int dl_rt_clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin,
    const size_t *region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
    size_t host_row_pitch, size_t host_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event);
cl_int dl_rt_clEnqueueFillBuffer(cl_command_queue command_queue,
                                 cl_mem buffer, const void *pattern,
                                 size_t pattern_size, size_t offset,
                                 size_t size,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event);
cl_int dl_rt_clEnqueueCopyBuffer(cl_command_queue command_queue,
                                 cl_mem src_buffer, cl_mem dst_buffer,
                                 size_t src_offset, size_t dst_offset,
                                 size_t size,
                                 cl_uint num_events_in_wait_list,
                                 const cl_event *event_wait_list,
                                 cl_event *event);
cl_int dl_rt_clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
    const size_t *src_origin, const size_t *dst_origin, const size_t *region,
    size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event);
cl_int dl_rt_clEnqueueCopyBufferToImage(cl_command_queue command_queue,
                                        cl_mem src_buffer, cl_mem dst_image,
                                        size_t src_offset,
                                        const size_t *dst_origin,
                                        const size_t *region,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event *event_wait_list,
                                        cl_event *event);
void *dl_rt_clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                               cl_bool blocking_map, cl_map_flags map_flags,
                               size_t offset, size_t size,
                               cl_uint num_events_in_wait_list,
                               const cl_event *event_wait_list,
                               cl_event *event, cl_int *errcode_ret);

#endif
