/* device_pick.c - walks the platforms and devices in the order the
 * OpenCL API lists them and finds the one --platform/--device name. */
#include "device_pick.h"

#include <stdio.h>
#include <stdlib.h>

/* cl_khr_icd: the loader found no platform at all. */
#define PLATFORM_NOT_FOUND_KHR (-1001)

/* The platforms; *n = 0 when none is installed.  NULL on an error. */
static cl_platform_id *platforms(cl_uint *n, char *why, size_t room)
{
    *n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, n);
    if (err == PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && *n == 0)) {
        *n = 0;
        return calloc(1, sizeof(cl_platform_id));
    }
    cl_platform_id *plats =
        err == CL_SUCCESS ? calloc(*n, sizeof *plats) : NULL;
    if (plats && (err = clGetPlatformIDs(*n, plats, NULL)) == CL_SUCCESS)
        return plats;
    free(plats);
    snprintf(why, room, "clGetPlatformIDs failed: OpenCL error %d", (int)err);
    return NULL;
}

/* The devices of one platform (none when it has none). */
static cl_device_id *devices(cl_platform_id p, cl_uint *n)
{
    *n = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, n) != CL_SUCCESS)
        *n = 0;
    cl_device_id *devs = calloc(*n ? *n : 1, sizeof *devs);
    if (devs && *n &&
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, *n, devs, NULL) != CL_SUCCESS)
        *n = 0;
    return devs;
}

long device_for_each(device_visit_fn fn, void *ctx, char *why, size_t room)
{
    cl_uint np;
    cl_platform_id *plats = platforms(&np, why, room);
    if (!plats)
        return -1;
    long index = 0;
    int stop = 0;
    for (cl_uint p = 0; p < np && !stop; p++) {
        cl_uint nd;
        cl_device_id *devs = devices(plats[p], &nd);
        for (cl_uint d = 0; devs && d < nd && !stop; d++)
            stop = fn(ctx, index++, plats[p], devs[d]);
        free(devs);
    }
    free(plats);
    return index;
}

typedef struct flat_pick {
    long want;
    cl_platform_id platform;
    cl_device_id device;
} flat_pick;

static int pick_flat(void *ctx, long index, cl_platform_id p, cl_device_id d)
{
    flat_pick *k = ctx;
    if (index != k->want)
        return 0;
    k->platform = p;
    k->device = d;
    return 1;
}

/* --device N alone: the N-th device of all platforms. */
static int pick_by_index(long want, cl_platform_id *platform,
                         cl_device_id *device, char *why, size_t room)
{
    flat_pick k = {want, NULL, NULL};
    long n = device_for_each(pick_flat, &k, why, room);
    if (n < 0)
        return 0;
    if (!k.device && n == 0)
        snprintf(why, room, "no OpenCL device found (is an ICD installed?)");
    else if (!k.device)
        snprintf(why, room, "there is no OpenCL device %ld (%ld found)", want,
                 n);
    if (!k.device)
        return 0;
    *platform = k.platform;
    *device = k.device;
    return 1;
}

int device_pick(device_choice choice, cl_platform_id *platform,
                cl_device_id *device, char *why, size_t room)
{
    if (choice.platform == DEVICE_PICK_ALL_PLATFORMS)
        return pick_by_index(choice.device, platform, device, why, room);
    cl_uint np, nd = 0;
    cl_platform_id *plats = platforms(&np, why, room);
    if (!plats)
        return 0;
    cl_device_id *devs = NULL;
    if (choice.platform < 0 || choice.platform >= (long)np)
        snprintf(why, room, "there is no OpenCL platform %ld (%u found)",
                 choice.platform, np);
    else if (!(devs = devices(plats[choice.platform], &nd)) ||
             choice.device < 0 || choice.device >= (long)nd)
        snprintf(why, room,
                 "OpenCL platform %ld has no device %ld (%u "
                 "found)",
                 choice.platform, choice.device, nd);
    else {
        *platform = plats[choice.platform];
        *device = devs[choice.device];
    }
    int ok = devs && choice.device >= 0 && choice.device < (long)nd;
    free(devs);
    free(plats);
    return ok;
}
