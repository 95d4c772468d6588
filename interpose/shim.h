/* shim.h - what the two shims (preload.c, layer.c) share: the table of
 * real entry points, the mode, and the one body of every intercepted
 * entry point.
 *
 * The shim is thin on purpose.  An intercepted call loads the mode (one
 * atomic load) and jumps either to the runtime's dl_rt_<name> or to the
 * real <name>.  Only the very first intercepted call of the process takes
 * the slow path, dl_shim_start(), which finds the real entry points and
 * starts the runtime.  Nothing runs before that: processes that load the
 * shim but never call OpenCL (POCL's `ld` child inherits LD_PRELOAD) do
 * not notice it. */
#ifndef DL_SHIM_H
#define DL_SHIM_H

#include "intercept.h"

/* dl_shim_state: DL_SHIM_UNSTARTED until the first intercepted call has
 * started the runtime, then the mode dl_rt_init() chose. */
enum {
    DL_SHIM_UNSTARTED = 0,
    DL_SHIM_PASSTHROUGH = 1 + DL_RT_PASSTHROUGH,
    DL_SHIM_ACTIVE = 1 + DL_RT_ACTIVE
};

extern int dl_shim_state;

/* The real entry points: the ICD loader's (preload) or the next layer's
 * (ICD layer).  Written once before dl_shim_state leaves UNSTARTED. */
extern cl_icd_dispatch dl_shim_real;

/* Each shim defines this: fills `real` on the first intercepted call
 * (preload: dlsym; layer: already copied by clInitLayer). */
void dl_shim_find_real(cl_icd_dispatch *real);

/* The slow path of the first call: once per process and thread-safe
 * (concurrent first calls wait for the one that starts).  Returns the
 * new state. */
int dl_shim_start(void);

/* Acquire, not relaxed: a passthrough call then reads dl_shim_real as it
 * was written before the state.  On x86-64 both are one plain load. */
static inline int dl_shim_active(void)
{
    int state = __atomic_load_n(&dl_shim_state, __ATOMIC_ACQUIRE);
    if (__builtin_expect(state == DL_SHIM_UNSTARTED, 0))
        state = dl_shim_start();
    return state == DL_SHIM_ACTIVE;
}

/* The body of every entry of entries.def. */
#define DL_SHIM_FORWARD(name, args)                                            \
    if (dl_shim_active())                                                      \
        return dl_rt_##name args;                                              \
    return dl_shim_real.name args

#endif
