/* clapi.h - every OpenCL call libdlayout makes goes through dl_cl, a
 * Khronos dispatch table.  Standalone, it holds the linked entry points;
 * under the dlayout shim (preload or ICD layer) the shim installs the real
 * driver entry points first, so marshal launches never re-enter the hooks. */
#ifndef DL_CLAPI_H
#define DL_CLAPI_H

#include <CL/cl_icd.h>

/* Hidden: referenced directly, not through the GOT (hot paths). */
extern __attribute__((visibility("hidden"))) cl_icd_dispatch dl_cl;

/* Fills dl_cl with the linked entry points unless the shim installed a
 * table already.  Called by dl_engine_create; idempotent, thread-safe. */
void dl_cl_init_default(void);

/* Fills `table` with the entry points of the linked libOpenCL
 * (clapi_linked.c), or does nothing in builds without one
 * (clapi_unlinked.c, the shim). */
void dl_cl_fill_linked(cl_icd_dispatch *table);

/* Used by the shim: from now on libdlayout calls `real`. */
void dl_cl_install(const cl_icd_dispatch *real);

/* The lock rule (clapi_check.c): no OpenCL call that can block while the
 * calling thread holds the runtime's lock, which says so with enter
 * (after taking it) and leave (before releasing it).  In
 * DL_LOCK_CHECK builds dl_cl's blocking entries abort on a call made
 * under a lock (dl_cl_check_blocking wraps them in `table`); elsewhere
 * these do nothing. */
void dl_cl_lock_enter(void);
void dl_cl_lock_leave(void);
void dl_cl_check_blocking(cl_icd_dispatch *table);

#endif
