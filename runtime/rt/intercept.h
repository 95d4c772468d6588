/* intercept.h - what the shim (interpose/) calls: the runtime's side of
 * every intercepted OpenCL entry point.
 *
 * The shim is thin.  For each entry point of its list it does one thing:
 * if the runtime is active, call the dl_rt_ function of the same name
 * below; otherwise call the real function.  Every dl_rt_ function has the
 * exact OpenCL signature and contract of the call it stands for: it looks
 * up the runtime state of its objects, runs the policy (record a source,
 * marshal buffers, restore them), and forwards to the real implementation
 * through dl_cl (clapi.h), which dl_rt_init() filled with the real entry
 * points.  So nothing here ever re-enters the shim.
 *
 * A dl_rt_ function never fails because of dlayout: when its own work
 * fails it logs one message, leaves the data in (or returns it to) the
 * layout the program expects, and forwards the call unchanged.  The
 * return value and out parameters are those of the real call. */
#ifndef DL_INTERCEPT_H
#define DL_INTERCEPT_H

#include <CL/cl_gl.h>
#include <CL/cl_icd.h>

/* The runtime's mode, fixed by dl_rt_init(). */
typedef enum dl_rt_mode {
    DL_RT_PASSTHROUGH = 0, /* DL_DISABLE, or initialisation failed */
    DL_RT_ACTIVE = 1
} dl_rt_mode;

/* Called once by the shim, on the first intercepted call of the process
 * (never from a constructor: processes that do not use OpenCL must not
 * notice the shim).  `real` holds the real entry points: the ICD loader's
 * (preload) or the next layer's (ICD layer).  Loads the DL_* controls,
 * configures the log, registers the DL_STATS exit line, and returns the
 * mode the shim must use from now on.  Thread-safe; later calls return the
 * first call's mode. */
dl_rt_mode dl_rt_init(const cl_icd_dispatch *real);

/* Whether the shim must call dl_rt_timed_<name> instead of dl_rt_<name>
 * (DL_STATS: the runtime accounts its own time, rt_self.c).  Fixed by
 * dl_rt_init(). */
int dl_rt_timed(void);

/* Prints the dlayout-stats line now if DL_STATS is set and it was not
 * printed yet (dl_rt_init registers it with atexit; the ICD layer can also
 * call it from its destructor). */
void dl_rt_print_stats(void);

/* The dl_rt_ function of every entry of interpose/entries.def, in its
 * order, and its dl_rt_timed_ form, generated from it (by
 * interpose/gen_entries.py). */
#include "intercept_entries.h"

#endif
