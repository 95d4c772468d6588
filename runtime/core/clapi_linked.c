/* clapi_linked.c - the entry points of the libOpenCL that libdlayout links
 * (the standalone library).  The shim is built without this file, so it
 * does not link libOpenCL: it installs the real entry points instead. */
/* clGetExtensionFunctionAddress (OpenCL 1.1, deprecated): how
 * rt_dispatch.c recognises the ICD loader. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include "clapi.h"

/* The entry points libdlayout uses (keep in sync with its sources: a
 * missing one is a NULL call, caught by the tests at once). */
#define DL_CL_USED(X)                                                          \
    X(clGetDeviceInfo)                                                         \
    X(clGetPlatformInfo)                                                       \
    X(clGetEventProfilingInfo)                                                 \
    X(clSetEventCallback)                                                      \
    X(clCreateContext)                                                         \
    X(clCreateContextFromType)                                                 \
    X(clRetainContext)                                                         \
    X(clReleaseContext)                                                        \
    X(clGetCommandQueueInfo)                                                   \
    X(clGetMemObjectInfo)                                                      \
    X(clCreateBuffer)                                                          \
    X(clReleaseMemObject)                                                      \
    X(clCreateProgramWithSource)                                               \
    X(clBuildProgram)                                                          \
    X(clGetProgramBuildInfo)                                                   \
    X(clReleaseProgram)                                                        \
    X(clCreateKernel)                                                          \
    X(clReleaseKernel)                                                         \
    X(clSetKernelArg)                                                          \
    X(clEnqueueNDRangeKernel)                                                  \
    X(clEnqueueFillBuffer)                                                     \
    X(clEnqueueCopyBuffer)                                                     \
    X(clEnqueueMarkerWithWaitList)                                             \
    X(clWaitForEvents)                                                         \
    X(clFlush)                                                                 \
    X(clFinish)                                                                \
    X(clReleaseEvent)                                                          \
    X(clGetEventInfo)                                                          \
    X(clCreateUserEvent)                                                       \
    X(clSetUserEventStatus)                                                    \
    X(clRetainEvent)                                                           \
    X(clRetainCommandQueue)                                                    \
    X(clReleaseCommandQueue)                                                   \
    X(clCreateSubBuffer)                                                       \
    X(clGetProgramInfo)                                                        \
    X(clCreateProgramWithBinary)                                               \
    X(clCreateKernelsInProgram)                                                \
    X(clGetKernelInfo)                                                         \
    X(clEnqueueTask)                                                           \
    X(clEnqueueNativeKernel)                                                   \
    X(clEnqueueReadBuffer)                                                     \
    X(clEnqueueReadBufferRect)                                                 \
    X(clEnqueueWriteBuffer)                                                    \
    X(clEnqueueWriteBufferRect)                                                \
    X(clEnqueueCopyBufferRect)                                                 \
    X(clEnqueueCopyBufferToImage)                                              \
    X(clEnqueueMapBuffer)                                                      \
    X(clSetMemObjectDestructorCallback)                                        \
    X(clGetExtensionFunctionAddress)

void dl_cl_fill_linked(cl_icd_dispatch *table)
{
#define DL_CL_SET(name) table->name = name;
    DL_CL_USED(DL_CL_SET)
#undef DL_CL_SET
}
