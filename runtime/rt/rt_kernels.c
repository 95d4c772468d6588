/* rt_kernels.c - the kernel table: for kernels created while annotated
 * programs exist, their annotation (if any), whether the build
 * plans to transform them, and every clSetKernelArg value (for dimension
 * expressions, buffer arguments and the replay into the activated
 * variant's kernel). */
#include "rt_chunks.h"
#include "rt_internal.h"
#include "rt_jobswap.h"
#include "rt_renumber.h"
#include "rt_reorder.h"
#include "rt_reorder_predict.h"
#include "rt_memo.h"

#include <stdlib.h>
#include <string.h>

/* Works without the lock too (see rt_map_get). */
rt_kernel *rt_kernel_find(cl_kernel kernel)
{
    return rt_map_get(&dl_rt.kernels, kernel);
}

/* Which values clSetKernelArg's fast path may take next (rt_arg).  On a
 * tracked argument, locked: rt_kernels_forget_buffer() changes `tracked`
 * and guard_mask from any thread. */
static void set_guard(rt_arg *a, cl_mem tracked)
{
    int inline48 =
        a->value == a->inline_value && (a->size == 4 || a->size == 8);
    if (a->track)
        a->tracked = tracked;
    __atomic_store_n(&a->guard_mask, a->track ? ~(uint64_t)0 : 0,
                     __ATOMIC_RELAXED);
    a->guard_key = !inline48   ? RT_GUARD_NONE
                   : !a->track ? 0
                   : tracked   ? (uint64_t)(uintptr_t)tracked
                               : RT_GUARD_NONE;
}

/* Locked: the argument's buffer left the table, so a buffer that reuses
 * its handle takes the slow path (and is tracked) again: a mask of 0
 * against the key of that buffer (not 0) lets no value through.  Only
 * these two fields: the others belong to the thread that sets the
 * arguments. */
static void untrack(rt_arg *a)
{
    a->tracked = NULL;
    __atomic_store_n(&a->guard_mask, 0, __ATOMIC_RELAXED);
}

static rt_kernel no_kernel; /* kernel NULL: matches no handle */
rt_kernel *rt_last_kernel = &no_kernel;
static rt_kernel *free_kernels; /* locked: entries to recycle */

/* Locked. */
static void free_kernel(rt_kernel *k)
{
    /* rt_last_kernel may still point here, and a NULL kernel (an invalid
     * call) then matches the entry: no memo, and no arguments, since
     * clSetKernelArg's fast path writes into any argument below nargs. */
    rt_memo_end(&k->memo);
    free(k->memo.bufs);
    k->memo.bufs = NULL;
    rt_memos_invalidate();
    __atomic_store_n(&k->kernel, NULL, __ATOMIC_RELEASE);
    rt_memo_count(&k->memo, &dl_rt.stats);
    if (dl_rt.tuner)
        dl_tuner_forget(dl_rt.tuner, k);
    rt_reorder_predict_forget(k);
    for (cl_uint i = 0; i < k->nargs; i++)
        free(k->args[i].heap);
    free(k->args);
    k->args = NULL;
    k->nargs = 0;
    if (k->xform)
        dl_cl.clReleaseKernel(k->xform);
    if (k->xform_flat)
        dl_cl.clReleaseKernel(k->xform_flat);
    rt_irregular_forget(k);
    rt_renumber_kernel_forget(k);
    rt_chunks_forget(k);
    if (k->prog)
        rt_program_unref(k->prog);
    free(k->name);
    k->next_free = free_kernels;
    free_kernels = k;
}

/* Locked.  A recycled entry keeps `kernel` NULL until it is complete. */
static rt_kernel *new_kernel(void)
{
    rt_kernel *k = free_kernels;
    if (!k)
        return calloc(1, sizeof *k);
    free_kernels = k->next_free;
    memset((char *)k + sizeof k->kernel, 0, sizeof *k - sizeof k->kernel);
    return k;
}

void rt_kernels_forget_buffer(cl_mem mem)
{
    rt_kernel *k;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.kernels); i++)
        if ((k = rt_map_at(&dl_rt.kernels, i)))
            for (cl_uint j = 0; j < k->nargs; j++)
                if (k->args[j].tracked == mem)
                    untrack(&k->args[j]);
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
    rt_arg *args = calloc(nargs ? nargs : 1, sizeof *args);
    char *kname = strdup(name);
    rt_lock();
    rt_kernel *k = args && kname ? new_kernel() : NULL;
    if (!k) {
        rt_unlock();
        free(args);
        free(kname);
        DL_LOG_ERROR("out of memory tracking kernel '%s'", name);
        return;
    }
    k->name = kname;
    k->nargs = nargs;
    k->args = args;
    rt_program *p = rt_program_find(program);
    if (p) {
        for (uint32_t i = 0; i < p->annot->nkernels; i++)
            if (!strcmp(p->annot->kernels[i].name, name)) {
                k->annot = &p->annot->kernels[i];
                k->annot_index = i;
                k->transformed = p->activated && p->active && p->active[i];
                /* Its indirect reads alone: not the layout path. */
                k->reorder = k->transformed && rt_reorder_planned(k->annot);
                k->transformed &= !k->reorder;
            }
        k->prog = p;
        p->refs++;
    }
    for (cl_uint i = 0; i < nargs; i++) {
        args[i].track = k->transformed && dl_annot_find_arg(k->annot, i);
        args[i].guard_key = RT_GUARD_NONE;
    }
    rt_kernel *old = rt_map_del(&dl_rt.kernels, kernel);
    if (old) /* a stale entry of a released handle */
        free_kernel(old);
    __atomic_store_n(&k->kernel, kernel, __ATOMIC_RELEASE);
    if (rt_map_put(&dl_rt.kernels, kernel, k) != DL_SUCCESS) {
        DL_LOG_ERROR("out of memory tracking kernel '%s'", name);
        free_kernel(k);
        k = NULL;
    }
    int transformed = k && k->transformed;
    rt_unlock();
    /* Planned: under DL_POLICY=auto the tuner may still keep it plain. */
    if (transformed && dl_rt.tuner && dl_rt.controls.policy == DL_POLICY_AUTO)
        DL_LOG_INFO("kernel '%s' has a transformed variant; the tuner "
                    "decides at its first launches whether it runs",
                    name);
    else if (transformed)
        DL_LOG_INFO("kernel '%s' runs transformed", name);
}

cl_kernel dl_rt_clCreateKernel(cl_program program, const char *kernel_name,
                               cl_int *errcode_ret)
{
    cl_kernel kernel = rt_fwd.clCreateKernel(program, kernel_name, errcode_ret);
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
        rt_fwd.clCreateKernelsInProgram(program, num_kernels, kernels, &n);
    if (num_kernels_ret)
        *num_kernels_ret = n;
    if (err == CL_SUCCESS && kernels && RT_LOAD(dl_rt.annotated))
        for (cl_uint i = 0; i < n && i < num_kernels; i++)
            track_kernel(kernels[i]);
    return err;
}

/* Keeps a copy of the value (none for __local arguments). */
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
 * recorded at launches).  Under the lock, which `tracked` needs. */
static void track_bound(rt_arg *a, cl_mem mem)
{
    rt_lock();
    if (mem && mem != a->tracked && !rt_buffer_get(mem))
        mem = NULL;
    set_guard(a, mem);
    rt_unlock();
}

/* The general case: the real call, then a copy of the value (without
 * the lock: the argument values belong to this kernel object, which
 * OpenCL lets only one thread change or enqueue at a time). */
static __attribute__((noinline)) cl_int
set_arg_slow(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
             const void *arg_value, rt_arg *a)
{
    cl_int err = rt_fwd.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    if (err != CL_SUCCESS)
        return err;
    free(a->heap);
    a->heap = NULL;
    record_other(a, arg_size, arg_value);
    cl_mem mem = NULL;
    if (!a->track) {
        set_guard(a, NULL);
        return CL_SUCCESS;
    }
    if (arg_size == sizeof mem && arg_value)
        memcpy(&mem, arg_value, sizeof mem);
    track_bound(a, mem);
    return CL_SUCCESS;
}

/* The real call failed after set_arg recorded the value: the kernel
 * keeps its old one, and so must the record. */
static __attribute__((noinline, cold)) cl_int set_arg_failed(rt_arg *a,
                                                             cl_int err)
{
    a->size = a->prev_size;
    memcpy(a->inline_value, &a->prev_value, sizeof a->prev_value);
    return err;
}

/* The common case, kept short because every clSetKernelArg of a kernel
 * dlayout knows pays it: a value of 4 or 8 bytes where the last one was
 * too (so the record is inline), and on a tracked argument a buffer
 * already tracked.  Records the value first, keeping the old one, so
 * that the real call can be the last thing done. */
static inline cl_int set_arg(rt_kernel *k, cl_uint arg_index, size_t arg_size,
                             const void *arg_value)
{
    rt_arg *a = &k->args[arg_index];
    k->args_gen++;
    __atomic_store_n(&k->memo.key_dim, 0, __ATOMIC_RELAXED); /* rt_memo.h */
    uint64_t v;
    if (__builtin_expect(!arg_value, 0))
        goto slow;
    if (arg_size == 8)
        memcpy(&v, arg_value, 8);
    else if (arg_size == 4)
        v = *(const uint32_t *)arg_value;
    else
        goto slow;
    if (__builtin_expect(
            (v & __atomic_load_n(&a->guard_mask, __ATOMIC_RELAXED)) !=
                a->guard_key,
            0))
        goto slow;
    memcpy(&a->prev_size, &a->size, 16); /* size and 8 value bytes */
    memcpy(a->inline_value, &v, sizeof v);
    a->size = arg_size;
    cl_int err =
        rt_fwd.clSetKernelArg(k->kernel, arg_index, arg_size, arg_value);
    if (__builtin_expect(err != CL_SUCCESS, 0))
        return set_arg_failed(a, err);
    __asm__("" : "+r"(err)); /* return it as it is: saves a zeroing */
    return err;
slow:
    return set_arg_slow(k->kernel, arg_index, arg_size, arg_value, a);
}

/* The kernel was not the last one used (or helgrind watches). */
static __attribute__((noinline)) cl_int
set_kernel_arg_lookup(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                      const void *arg_value)
{
    rt_kernel *k = rt_kernel_get(kernel);
    if (!k || arg_index >= k->nargs)
        return rt_fwd.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    return set_arg(k, arg_index, arg_size, arg_value);
}

cl_int dl_rt_clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
                            size_t arg_size, const void *arg_value)
{
    rt_kernel *k = __atomic_load_n(&rt_last_kernel, __ATOMIC_ACQUIRE);
    if (__builtin_expect(
            __atomic_load_n(&k->kernel, __ATOMIC_ACQUIRE) != kernel, 0)) {
        if (!RT_LOAD(dl_rt.annotated))
            return rt_fwd.clSetKernelArg(kernel, arg_index, arg_size,
                                         arg_value);
        return set_kernel_arg_lookup(kernel, arg_index, arg_size, arg_value);
    }
    if (arg_index >= k->nargs)
        return rt_fwd.clSetKernelArg(kernel, arg_index, arg_size, arg_value);
    return set_arg(k, arg_index, arg_size, arg_value);
}

cl_int dl_rt_clReleaseKernel(cl_kernel kernel)
{
    if (!RT_LOAD(dl_rt.annotated))
        return rt_fwd.clReleaseKernel(kernel);
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
    return rt_fwd.clReleaseKernel(kernel);
}
