/* clapi.c - the table of OpenCL entry points libdlayout calls. */
#include "clapi.h"

#include <pthread.h>

cl_icd_dispatch dl_cl;

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static int installed;

/* The entry points libdlayout uses (keep in sync with its sources: a
 * missing one is a NULL call, caught by the tests at once). */
#define DL_CL_USED(X)                                                          \
    X(clGetDeviceInfo)                                                         \
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
    X(clReleaseEvent)

static void fill_default(void)
{
    if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE))
        return;
#define DL_CL_SET(name) dl_cl.name = name;
    DL_CL_USED(DL_CL_SET)
#undef DL_CL_SET
}

void dl_cl_init_default(void) { pthread_once(&default_once, fill_default); }

void dl_cl_install(const cl_icd_dispatch *real)
{
    dl_cl = *real;
    __atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
}
