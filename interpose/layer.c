/* layer.c - the same hooks as an ICD loader layer (libdlayout-layer.so).
 *
 * The loader (ocl-icd >= 2.3 reads OPENCL_LAYERS) loads the layer when
 * the program first calls OpenCL and routes every call through the
 * dispatch table clInitLayer returns.  That table is the next layer's (the
 * target's) with the entries of entries.def replaced.  Unlike the preload
 * this also catches programs that dlopen("libOpenCL.so.1") themselves. */
#include "shim.h"

#include <CL/cl_layer.h>
#include <stddef.h>
#include <string.h>

#define DL_ENTRY(ret, name, params, args, kind)                                \
    DL_SHIM_FIRST(ret, name, params, args)
#include "entries.def"
#undef DL_ENTRY

#ifdef DL_SHIM_ASM_ENTRY
#define DL_ENTRY(ret, name, params, args, kind)                                \
    DL_SHIM_OTHER(ret, name, params, args)                                     \
    __attribute__((visibility("hidden"))) ret CL_API_CALL layer_##name params; \
    DL_SHIM_ASM_ENTRY("layer_" #name, ".hidden", name);
#else
#define DL_ENTRY(ret, name, params, args, kind)                                \
    static ret CL_API_CALL layer_##name params                                 \
    {                                                                          \
        DL_SHIM_FORWARD(name, args);                                           \
    }
#endif
#include "entries.def"
#undef DL_ENTRY

static cl_icd_dispatch layer_table;

/* clInitLayer copied the target's table into dl_shim_real already. */
void dl_shim_find_real(cl_icd_dispatch *real)
{
    (void)real;
}

static cl_int copy_info(const void *value, size_t size, size_t param_value_size,
                        void *param_value, size_t *param_value_size_ret)
{
    if (param_value) {
        if (param_value_size < size)
            return CL_INVALID_VALUE;
        memcpy(param_value, value, size);
    }
    if (param_value_size_ret)
        *param_value_size_ret = size;
    return CL_SUCCESS;
}

__attribute__((visibility("default"))) cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param_name, size_t param_value_size,
               void *param_value, size_t *param_value_size_ret)
{
    static const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
    static const char name[] = "dlayout";
    switch (param_name) {
    case CL_LAYER_API_VERSION:
        return copy_info(&version, sizeof version, param_value_size,
                         param_value, param_value_size_ret);
    case CL_LAYER_NAME:
        return copy_info(name, sizeof name, param_value_size, param_value,
                         param_value_size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}

/* An older loader's table must still hold every hooked entry; if not, the
 * loader drops the layer and the program runs without dlayout. */
static int holds_every_entry(cl_uint num_entries)
{
#define DL_ENTRY(ret, name, params, args, kind)                                \
    if (offsetof(cl_icd_dispatch, name) >= num_entries * sizeof(void *))       \
        return 0;
#include "entries.def"
#undef DL_ENTRY
    return 1;
}

__attribute__((visibility("default"))) cl_int CL_API_CALL clInitLayer(
    cl_uint num_entries, const cl_icd_dispatch *target_dispatch,
    cl_uint *num_entries_ret, const cl_icd_dispatch **layer_dispatch_ret)
{
    const size_t ours = sizeof(cl_icd_dispatch) / sizeof(void *);
    if (!target_dispatch || !num_entries_ret || !layer_dispatch_ret ||
        !holds_every_entry(num_entries))
        return CL_INVALID_VALUE;
    size_t copied = num_entries < ours ? num_entries : ours;
    memset(&dl_shim_real, 0, sizeof dl_shim_real);
    memcpy(&dl_shim_real, target_dispatch, copied * sizeof(void *));
    layer_table = dl_shim_real;
#define DL_ENTRY(ret, name, params, args, kind) layer_table.name = layer_##name;
#include "entries.def"
#undef DL_ENTRY
    *num_entries_ret = (cl_uint)ours;
    *layer_dispatch_ret = &layer_table;
    return CL_SUCCESS;
}

/* The loader owns the layer and may unload it before exit handlers run:
 * print the stats line when the layer goes (the runtime prints it at most
 * once).  Nothing happens if no hooked call ever started the runtime. */
__attribute__((destructor)) static void layer_unload(void)
{
    if (__atomic_load_n(&dl_shim_state, __ATOMIC_ACQUIRE) != DL_SHIM_UNSTARTED)
        dl_rt_print_stats();
}
