/* preload.c - the LD_PRELOAD shim (libdlayout-preload.so).
 *
 * Exports the entry points of entries.def under their OpenCL names, so
 * that a program linked with libOpenCL calls them instead of the ICD
 * loader's.  The real ones are found with dlsym(RTLD_NEXT) on the first
 * call.  A program that dlopen()s libOpenCL itself bypasses the preload:
 * that is what the ICD layer (layer.c) is for. */
#define _GNU_SOURCE
#include "shim.h"

#include <dlfcn.h>
#include <stddef.h>

#define DL_ENTRY(ret, name, params, args, kind)                                \
    DL_SHIM_FIRST(ret, name, params, args)
#include "entries.def"
#undef DL_ENTRY

#ifdef DL_SHIM_ASM_ENTRY
/* CL/cl.h declares each entry: the assertion keeps entries.def true to it,
 * as the C definition below does by compiling. */
#define DL_ENTRY(ret, name, params, args, kind)                                \
    DL_SHIM_OTHER(ret, name, params, args)                                     \
    DL_SHIM_ASM_ENTRY(#name, ".globl", name);                                  \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name),             \
                                                ret(CL_API_CALL *) params),    \
                   "entries.def: " #name " differs from CL/cl.h");
#else
#define DL_ENTRY(ret, name, params, args, kind)                                \
    __attribute__((visibility("default"))) ret CL_API_CALL name params         \
    {                                                                          \
        DL_SHIM_FORWARD(name, args);                                           \
    }
#endif
#include "entries.def"
#undef DL_ENTRY

/* dispatch.def is exactly cl_icd_dispatch: same members, same order. */
enum {
#define DL_DISPATCH(name) dispatch_index_##name,
#include "dispatch.def"
#undef DL_DISPATCH
    dispatch_count
};
#define DL_DISPATCH(name)                                                      \
    _Static_assert(offsetof(cl_icd_dispatch, name) ==                          \
                       dispatch_index_##name * sizeof(void *),                 \
                   "dispatch.def: " #name " is out of order");
#include "dispatch.def"
#undef DL_DISPATCH
_Static_assert(sizeof(cl_icd_dispatch) == dispatch_count * sizeof(void *),
               "dispatch.def misses members of cl_icd_dispatch");

static void find_in(void *handle, cl_icd_dispatch *real)
{
#define DL_DISPATCH(name)                                                      \
    if (!real->name)                                                           \
        real->name = (__typeof__(real->name))dlsym(handle, #name);
#include "dispatch.def"
#undef DL_DISPATCH
}

void dl_shim_find_real(cl_icd_dispatch *real)
{
    find_in(RTLD_NEXT, real);
    /* RTLD_NEXT sees only the global scope.  A library loaded with
     * RTLD_LOCAL that links libOpenCL (a Python extension, a plugin) still
     * binds its calls to this shim, while libOpenCL is not global: take
     * what is missing from the loaded libOpenCL itself. */
    void *opencl = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (opencl) {
        find_in(opencl, real);
        dlclose(opencl); /* drops only the reference NOLOAD took */
    }
}
