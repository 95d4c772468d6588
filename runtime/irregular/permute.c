/* permute.c - the permutation layout's launches (permute.h,
 * marshal_kernels/permute.cl): a plan's tables on the device, the two
 * launches that permute A in place, and the redirection of P's values. */
#include "permute.h"
#include "clapi.h"
#include "internal.h"

#define REDIRECT_LOCAL   256 /* GPUs: entries of P per group */
#define REDIRECT_CPU_RUN 256 /* CPUs: consecutive entries per work-item */

/* The widest word (16, 8, 4, 2 or 1 bytes) dividing the element. */
static size_t word_bytes(size_t elem)
{
    size_t w = 16;
    while (elem % w)
        w /= 2;
    return w;
}

static dl_status perm_kernel(dl_engine *e, size_t elem, unsigned index_bytes,
                             size_t run, const char *name, cl_kernel *out)
{
    size_t w = word_bytes(elem);
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_define(&spec, "DL_W", "%zu", w);
    dl_spec_define(&spec, "DL_WORD", "%s", dl_spec_word_type((uint32_t)w));
    dl_spec_define(&spec, "DL_RW", "%zuu", elem / w);
    dl_spec_define(&spec, "DL_UNIFORM", "1");
    dl_spec_define(&spec, "DL_INDEX", "%s", index_bytes == 8 ? "long" : "int");
    dl_spec_define(&spec, "DL_RUN", "%zuUL", run);
    dl_status st = dl_engine_kernel(e, "permute.cl", &spec, name, out);
    dl_spec_free(&spec);
    return st;
}

static dl_status table_buffer(cl_context ctx, const uint32_t *data,
                              size_t count, cl_mem *out)
{
    cl_int err;
    size_t bytes = (count ? count : 1) * sizeof *data;
    *out = dl_cl.clCreateBuffer(
        ctx, CL_MEM_READ_ONLY | (count ? CL_MEM_COPY_HOST_PTR : 0), bytes,
        count ? (void *)data : NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (permutation table)");
    return DL_SUCCESS;
}

dl_status dl_perm_device_create(cl_context context, const dl_perm_plan *plan,
                                size_t elem_bytes, dl_perm_device *out)
{
    DL_RETURN_ERROR_ON(!context || !plan || !out || elem_bytes == 0,
                       DL_INVALID_ARGUMENT, "permute: NULL argument");
    *out =
        (dl_perm_device){.segments = plan->segments, .elem_bytes = elem_bytes};
    cl_int err = CL_SUCCESS;
    dl_status st = table_buffer(context, plan->order, plan->moved, &out->order);
    if (st == DL_SUCCESS)
        st = table_buffer(context, plan->seg, 3 * plan->segments, &out->seg);
    if (st == DL_SUCCESS) {
        size_t bytes = (plan->segments ? plan->segments : 1) * elem_bytes;
        out->saved =
            dl_cl.clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        if (err != CL_SUCCESS)
            st = dl_fail(DL_OPENCL_ERROR,
                         "clCreateBuffer (permutation's saved elements) "
                         "failed with OpenCL error %d",
                         (int)err);
    }
    if (st != DL_SUCCESS)
        dl_perm_device_release(out);
    return st;
}

void dl_perm_device_release(dl_perm_device *dev)
{
    if (!dev)
        return;
    cl_mem *mems[] = {&dev->order, &dev->seg, &dev->saved};
    for (size_t i = 0; i < 3; i++) {
        if (*mems[i])
            dl_cl.clReleaseMemObject(*mems[i]);
        *mems[i] = NULL;
    }
}

static size_t redirect_run(const dl_engine *e)
{
    return e->local_is_global ? REDIRECT_CPU_RUN : 1;
}

dl_status dl_perm_warm(dl_engine *engine, size_t elem_bytes,
                       unsigned index_bytes)
{
    const char *names[] = {"dl_perm_save", "dl_perm_shift"};
    cl_kernel k;
    for (int i = 0; i < 2; i++) {
        DL_RETURN_IF_FAIL(perm_kernel(engine, elem_bytes, 4, 1, names[i], &k));
        dl_cl.clReleaseKernel(k);
    }
    DL_RETURN_IF_FAIL(perm_kernel(engine, 4, index_bytes, redirect_run(engine),
                                  "dl_perm_redirect", &k));
    dl_cl.clReleaseKernel(k);
    return DL_SUCCESS;
}

/* dl_perm_save or dl_perm_shift over every segment. */
static dl_status chain_segments(dl_chain *c, cl_mem a,
                                const dl_perm_device *dev, const char *name)
{
    cl_kernel k;
    DL_RETURN_IF_FAIL(perm_kernel(c->engine, dev->elem_bytes, 4, 1, name, &k));
    cl_ulong segments = dev->segments;
    const void *values[] = {&a, &dev->order, &dev->seg, &dev->saved, &segments};
    const size_t sizes[] = {sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
                            sizeof(cl_mem), sizeof segments};
    dl_status st = DL_SUCCESS;
    for (cl_uint i = 0; i < 5 && st == DL_SUCCESS; i++)
        st = dl_set_arg(k, i, sizes[i], values[i]);
    size_t global = dev->segments;
    if (st == DL_SUCCESS)
        st = dl_chain_kernel(c, k, 1, &global, NULL);
    dl_cl.clReleaseKernel(k);
    return st;
}

dl_status dl_enqueue_permute(dl_engine *engine, cl_command_queue queue,
                             cl_mem a, const dl_perm_device *dev,
                             cl_uint num_events, const cl_event *wait_list,
                             cl_event *event)
{
    DL_RETURN_ERROR_ON(!engine || !queue || !a || !dev, DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    DL_RETURN_ERROR_ON(num_events && !wait_list, DL_INVALID_ARGUMENT,
                       "permute: %u events but no wait list", num_events);
    dl_chain chain;
    dl_chain_begin(&chain, engine, queue, num_events, wait_list);
    if (dev->segments) {
        DL_RETURN_IF_FAIL(chain_segments(&chain, a, dev, "dl_perm_save"));
        DL_RETURN_IF_FAIL(chain_segments(&chain, a, dev, "dl_perm_shift"));
    }
    return dl_chain_end(&chain, event);
}

dl_status dl_enqueue_redirect(dl_engine *engine, cl_command_queue queue,
                              cl_mem p, unsigned index_bytes, size_t count,
                              cl_mem map, size_t n, cl_uint num_events,
                              const cl_event *wait_list, cl_event *event)
{
    DL_RETURN_ERROR_ON(!engine || !queue || !p || !map, DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    DL_RETURN_ERROR_ON(
        index_bytes != 4 && index_bytes != 8, DL_INVALID_ARGUMENT,
        "permute: index entries of %u bytes (4 or 8)", index_bytes);
    DL_RETURN_ERROR_ON(num_events && !wait_list, DL_INVALID_ARGUMENT,
                       "permute: %u events but no wait list", num_events);
    dl_chain chain;
    dl_chain_begin(&chain, engine, queue, num_events, wait_list);
    if (count) {
        /* CPUs: a run of entries per work-item, groups of one (as gather). */
        size_t run = redirect_run(engine);
        size_t local = run > 1 ? 1 : REDIRECT_LOCAL;
        size_t global = dl_div_up(dl_div_up(count, run), local) * local;
        cl_kernel k;
        DL_RETURN_IF_FAIL(
            perm_kernel(engine, 4, index_bytes, run, "dl_perm_redirect", &k));
        cl_ulong cnt = count, nn = n;
        dl_status st = dl_set_arg(k, 0, sizeof p, &p);
        if (st == DL_SUCCESS)
            st = dl_set_arg(k, 1, sizeof map, &map);
        if (st == DL_SUCCESS)
            st = dl_set_arg(k, 2, sizeof cnt, &cnt);
        if (st == DL_SUCCESS)
            st = dl_set_arg(k, 3, sizeof nn, &nn);
        if (st == DL_SUCCESS)
            st = dl_chain_kernel(&chain, k, 1, &global, &local);
        dl_cl.clReleaseKernel(k);
        DL_RETURN_IF_FAIL(st);
    }
    return dl_chain_end(&chain, event);
}
