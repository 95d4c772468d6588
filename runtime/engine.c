/* engine.c - one engine per (context, device): device limits and the cache
 * of specialised marshal programs, so a repeated shape compiles nothing. */
#include "clapi.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct dl_program_entry {
    char *key; /* source name, NUL, specialisation text */
    size_t key_len;
    cl_program program;
    dl_program_entry *next;
};

void dl_plan_cache_clear(dl_engine *engine); /* plan.c */

dl_status dl_engine_create(cl_context context, cl_device_id device,
                           dl_engine **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "engine output is NULL");
    *out = NULL;
    DL_RETURN_ERROR_ON(!context, DL_INVALID_ARGUMENT, "context is NULL");
    DL_RETURN_ERROR_ON(!device, DL_INVALID_ARGUMENT, "device is NULL");

    dl_cl_init_default();
    dl_engine *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of host memory");
    cl_device_type type = 0;
    cl_device_local_mem_type local_type = CL_LOCAL;
    cl_int err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                 sizeof e->max_wg, &e->max_wg, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE,
                              sizeof e->local_mem, &e->local_mem, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS,
                              sizeof e->compute_units, &e->compute_units,
                              NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type,
                              NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_TYPE,
                              sizeof local_type, &local_type, NULL);
    if (err != CL_SUCCESS) {
        free(e);
        return dl_fail(DL_OPENCL_ERROR,
                       "querying the device failed with OpenCL error %d "
                       "(is it a device of this context?)", (int)err);
    }
    e->local_is_global = (type & CL_DEVICE_TYPE_CPU) || local_type != CL_LOCAL;
    if (e->compute_units == 0)
        e->compute_units = 1;
    err = dl_cl.clRetainContext(context);
    if (err != CL_SUCCESS) {
        free(e);
        return dl_fail(DL_OPENCL_ERROR, "clRetainContext failed (%d)",
                       (int)err);
    }
    e->context = context;
    e->device = device;
    pthread_mutex_init(&e->lock, NULL);
    *out = e;
    return DL_SUCCESS;
}

void dl_engine_release(dl_engine *e)
{
    if (!e)
        return;
    dl_plan_cache_clear(e);
    for (dl_program_entry *p = e->programs, *next; p; p = next) {
        next = p->next;
        dl_cl.clReleaseProgram(p->program);
        free(p->key);
        free(p);
    }
    dl_cl.clReleaseContext(e->context);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

void dl_engine_get_stats(const dl_engine *e, dl_engine_stats *stats)
{
    if (!e || !stats)
        return;
    dl_engine *m = (dl_engine *)e;
    pthread_mutex_lock(&m->lock);
    *stats = e->stats;
    pthread_mutex_unlock(&m->lock);
}

void dl_engine_count_launch(dl_engine *e)
{
    __atomic_add_fetch(&e->stats.launches, 1, __ATOMIC_RELAXED);
}

/* Compiles one specialised program; on failure the message carries the
 * first lines of the build log. */
static dl_status build_program(dl_engine *e, const char *source,
                               const dl_spec *spec, cl_program *out)
{
    const char *common = dl_kernel_source("common.cl");
    const char *body = dl_kernel_source(source);
    DL_RETURN_ERROR_ON(!common || !body, DL_UNSUPPORTED,
                       "no embedded marshal kernel named %s", source);
    const char *texts[3] = {spec->text ? spec->text : "", common, body};
    cl_int err;
    cl_program prog = dl_cl.clCreateProgramWithSource(e->context, 3, texts, NULL,
                                                &err);
    DL_RETURN_ON_CL(err, "clCreateProgramWithSource");
    err = dl_cl.clBuildProgram(prog, 1, &e->device, "-cl-std=CL1.2", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[1024] = "";
        dl_cl.clGetProgramBuildInfo(prog, e->device, CL_PROGRAM_BUILD_LOG,
                              sizeof log - 1, log, NULL);
        dl_cl.clReleaseProgram(prog);
        return dl_fail(DL_BUILD_ERROR, "building %s failed (%d): %.700s",
                       source, (int)err, log);
    }
    *out = prog;
    return DL_SUCCESS;
}

dl_status dl_engine_kernel(dl_engine *e, const char *source,
                           const dl_spec *spec, const char *kernel_name,
                           cl_kernel *out)
{
    DL_RETURN_ERROR_ON(spec->failed, DL_OUT_OF_MEMORY,
                       "out of host memory while specialising %s", source);
    size_t name_len = strlen(source) + 1;
    size_t key_len = name_len + spec->len;
    char *key = malloc(key_len);
    DL_RETURN_ERROR_ON(!key, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(key, source, name_len);
    if (spec->len)
        memcpy(key + name_len, spec->text, spec->len);

    pthread_mutex_lock(&e->lock);
    dl_program_entry *p = e->programs;
    while (p && (p->key_len != key_len || memcmp(p->key, key, key_len)))
        p = p->next;
    dl_status st = DL_SUCCESS;
    if (!p) {
        cl_program prog;
        st = build_program(e, source, spec, &prog);
        if (st == DL_SUCCESS) {
            p = malloc(sizeof *p);
            if (!p) {
                dl_cl.clReleaseProgram(prog);
                st = dl_fail(DL_OUT_OF_MEMORY, "out of host memory");
            } else {
                *p = (dl_program_entry){key, key_len, prog, e->programs};
                e->programs = p;
                key = NULL;
                e->stats.programs_built++;
            }
        }
    }
    cl_program prog = p ? p->program : NULL;
    pthread_mutex_unlock(&e->lock);
    free(key);
    DL_RETURN_IF_FAIL(st);

    cl_int err;
    *out = dl_cl.clCreateKernel(prog, kernel_name, &err);
    DL_RETURN_ERROR_ON(err != CL_SUCCESS, DL_BUILD_ERROR,
                       "kernel %s missing from %s (OpenCL error %d)",
                       kernel_name, source, (int)err);
    return DL_SUCCESS;
}
