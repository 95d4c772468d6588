/* device_pick.h - the OpenCL device that `--platform P --device D` name,
 * one helper for dl-bench and the dl-app programs so that they agree.
 * It needs only OpenCL: the apps stay ordinary OpenCL programs. */
#ifndef DL_DEVICE_PICK_H
#define DL_DEVICE_PICK_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stddef.h>

/* No --platform: --device counts the devices of all platforms in order
 * (the INDEX of `dl-bench devices`); with one platform both agree. */
#define DEVICE_PICK_ALL_PLATFORMS (-1L)

typedef struct device_choice {
    long platform; /* index in clGetPlatformIDs order, or ..._ALL_...   */
    long device;   /* index in clGetDeviceIDs order (CL_DEVICE_TYPE_ALL) */
} device_choice;

/* Calls fn for every device of every platform, in order, until it returns
 * nonzero.  Returns the number of devices visited (0 when no platform is
 * installed), or -1 with a message in why[room] on an OpenCL error. */
typedef int (*device_visit_fn)(void *ctx, long index, cl_platform_id p,
                               cl_device_id d);
long device_for_each(device_visit_fn fn, void *ctx, char *why, size_t room);

/* The device of `choice`: 1, or 0 with a message (naming what exists) in
 * why[room]. */
int device_pick(device_choice choice, cl_platform_id *platform,
                cl_device_id *device, char *why, size_t room);

#endif
