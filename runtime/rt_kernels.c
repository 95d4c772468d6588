/* rt_kernels.c - the kernel table: for kernels created while annotated
 * programs exist, their annotation (if any), whether the build
 * transformed them, and every clSetKernelArg value (for dimension
 * expressions, buffer arguments and the replay into the plain variant). */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

/* Works without the lock too (see rt_map_get). */
rt_kernel *rt_kernel_find(cl_kernel kernel)
{
    return rt_map_get(&dl_rt.kernels, kernel);
}

static void free_kernel(rt_kernel *k)
{
    if (dl_rt.tuner)
        dl_tuner_forget(dl_rt.tuner, k);
    for (cl_uint i = 0; i < k->nargs; i++)
        free(k->args[i].heap);
    free(k->args);
    if (k->plain)
        dl_cl.clReleaseKernel(k->plain);
    if (k->prog)
        rt_program_unref(k->prog);
    free(k->name);
    free(k);
}

/* Registers a kernel that the application just created (unlocked). */
static void track_kernel(cl_kernel kernel)
{
    char name[512] = "";
    cl_uint nargs = 0;
    cl_program program = NULL;
    if (dl_cl.clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name,
                              name, NULL) != CL_SUCCESS ||
        dl_cl.clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs,
                              NULL) != CL_SUCCESS ||
        dl_cl.clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program,
                              &program, NULL) != CL_SUCCESS) {
        DL_LOG_WARN("cannot query kernel %p; dlayout treats it as unknown",
                    (void *)kernel);
        return;
    }
    rt_kernel *k = calloc(1, sizeof *k);
    rt_arg *args = calloc(nargs ? nargs : 1, sizeof *args);
    char *kname = strdup(name);
    if (!k || !args || !kname) {
        free(k);
        free(args);
        free(kname);
        DL_LOG_ERROR("out of memory tracking kernel '%s'", name);
        return;
    }
    k->kernel = kernel;
    k->name = kname;
    k->nargs = nargs;
    k->args = args;
    rt_lock();
    rt_program *p = rt_program_find(program);
    if (p) {
        for (uint32_t i = 0; i < p->annot->nkernels; i++)
            if (!strcmp(p->annot->kernels[i].name, name)) {
                k->annot = &p->annot->kernels[i];
                k->annot_index = i;
                k->transformed = p->activated && p->active && p->active[i];
            }
        k->prog = p;
        p->refs++;
    }
    for (cl_uint i = 0; k->transformed && i < nargs; i++)
        args[i].track = dl_annot_find_arg(k->annot, i) != NULL;
    rt_kernel *old = rt_map_del(&dl_rt.kernels, kernel);
    if (old) /* a stale entry of a released handle */
        free_kernel(old);
    if (rt_map_put(&dl_rt.kernels, kernel, k) != DL_SUCCESS) {
        DL_LOG_ERROR("out of memory tracking kernel '%s'", name);
        free_kernel(k);
    }
    rt_unlock();
    if (k->transformed)
        DL_LOG_INFO("kernel '%s' runs transformed", name);
}

cl_kernel dl_rt_clCreateKernel(cl_program program, const char *kernel_name,
                               cl_int *errcode_ret)
{
    cl_kernel kernel = dl_cl.clCreateKernel(program, kernel_name, errcode_ret);
    if (kernel && RT_LOAD(dl_rt.annotated))
        track_kernel(kernel);
    return kernel;
}

cl_int dl_rt_clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                      cl_kernel *kernels,
                                      cl_uint *num_kernels_ret)
{
    cl_uint n = 0;
    cl_int err =
        dl_cl.clCreateKernelsInProgram(program, num_kernels, kernels, &n);
    if (num_kernels_ret)
        *num_kernels_ret = n;
    if (err == CL_SUCCESS && kernels && RT_LOAD(dl_rt.annotated))
        for (cl_uint i = 0; i < n && i < num_kernels; i++)
            track_kernel(kernels[i]);
    return err;
}

/* Keeps a copy of a value of another size than 4 and 8 (none for
 * __local arguments). */
static void record_other(rt_arg *a, size_t size, const void *value)
{
    a->size = size;
    a->value = NULL;
    if (!value)
        return;
    if (size <= sizeof a->inline_value) {
        memcpy(a->inline_value, value, size);
        a->value = a->inline_value;
    } else if ((a->heap = malloc(size))) {
        memcpy(a->heap, value, size);
        a->value = a->heap;
    } else {
        a->size = 0; /* unknown: the launch treats it as not set */
    }
}

/* A buffer bound to an argument that may be converted is tracked from
 * now on, so that its later uses are known (the binding itself is
 * recorded at launches). */
static __attribute__((noinline)) void track_bound(cl_mem mem)
{
    rt_lock();
    rt_buffer_get(mem);
    rt_unlock();
}

/* The real call, then a copy of the value.  Without the lock: the
 * argument values belong to this kernel object, which OpenCL lets only
 * one thread change or enqueue at a time.  Values of 8 bytes (buffers)
 * and 4 bytes are copied without a call. */
static __attribute__((noinline)) cl_int
set_arg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
        const void *arg_value, rt_arg *a)
{
    cl_int err = dl_cl.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    if (__builtin_expect(err != CL_SUCCESS, 0))
        return err;
    if (__builtin_expect(a->heap != NULL, 0)) {
        free(a->heap);
        a->heap = NULL;
    }
    if (arg_size == sizeof(cl_mem) && arg_value) {
        cl_mem mem;
        memcpy(&mem, arg_value, sizeof mem);
        memcpy(a->inline_value, &mem, sizeof mem);
        a->value = a->inline_value;
        a->size = sizeof mem;
        if (a->track && mem && !rt_map_peek(&dl_rt.buffers, mem) &&
            !rt_buffer_find(mem))
            track_bound(mem);
    } else if (arg_size == 4 && arg_value) {
        memcpy(a->inline_value, arg_value, 4);
        a->value = a->inline_value;
        a->size = 4;
    } else {
        record_other(a, arg_size, arg_value);
    }
    return CL_SUCCESS;
}

/* The kernel's entry was not in its first slot (or helgrind watches). */
static __attribute__((noinline)) cl_int
set_kernel_arg_lookup(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                      const void *arg_value)
{
    rt_kernel *k = rt_kernel_find(kernel);
    if (!k || arg_index >= k->nargs)
        return dl_cl.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    return set_arg(kernel, arg_index, arg_size, arg_value,
                   &k->args[arg_index]);
}

cl_int dl_rt_clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                            size_t arg_size, const void *arg_value)
{
    if (!RT_LOAD(dl_rt.annotated))
        return dl_cl.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    rt_kernel *k = rt_map_peek(&dl_rt.kernels, kernel);
    if (!k)
        return set_kernel_arg_lookup(kernel, arg_index, arg_size, arg_value);
    if (arg_index >= k->nargs)
        return dl_cl.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    return set_arg(kernel, arg_index, arg_size, arg_value,
                   &k->args[arg_index]);
}

cl_int dl_rt_clReleaseKernel(cl_kernel kernel)
{
    if (!RT_LOAD(dl_rt.annotated))
        return dl_cl.clReleaseKernel(kernel);
    rt_lock();
    rt_kernel *k = rt_kernel_find(kernel);
    cl_uint refs = 0;
    if (k &&
        dl_cl.clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof refs,
                              &refs, NULL) == CL_SUCCESS &&
        refs == 1) {
        rt_map_del(&dl_rt.kernels, kernel);
        free_kernel(k);
    }
    rt_unlock();
    return dl_cl.clReleaseKernel(kernel);
}
