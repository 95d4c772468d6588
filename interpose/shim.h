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
 * started the runtime, then the mode dl_rt_init() chose; DL_SHIM_TIMED is
 * the active runtime under DL_STATS, which times every entry
 * (dl_rt_timed_<name>, runtime/rt/rt_self.c) so that the state the
 * default path compares stays DL_SHIM_ACTIVE. */
enum {
    DL_SHIM_UNSTARTED = 0,
    DL_SHIM_PASSTHROUGH = 1 + DL_RT_PASSTHROUGH,
    DL_SHIM_ACTIVE = 1 + DL_RT_ACTIVE,
    DL_SHIM_TIMED
};
/* DL_SHIM_ACTIVE for the assembly entries (DL_SHIM_ASM_ENTRY). */
#define DL_SHIM_ACTIVE_VALUE 2
_Static_assert(DL_SHIM_ACTIVE == DL_SHIM_ACTIVE_VALUE, "DL_SHIM_ACTIVE_VALUE");

extern __attribute__((visibility("hidden"))) int dl_shim_state;

/* The real entry points: the ICD loader's (preload) or the next layer's
 * (ICD layer).  Written once before dl_shim_state leaves UNSTARTED. */
extern __attribute__((visibility("hidden"))) cl_icd_dispatch dl_shim_real;

/* Each shim defines this: fills `real` on the first intercepted call
 * (preload: dlsym; layer: already copied by clInitLayer). */
void dl_shim_find_real(cl_icd_dispatch *real);

/* The slow path of the first call: once per process and thread-safe
 * (concurrent first calls wait for the one that starts).  Returns the
 * new state. */
int dl_shim_start(void);

/* The body of every entry of entries.def (the acquire load makes a
 * passthrough call read dl_shim_real as written before the state; on
 * x86-64 it is one plain load): only jumps, so that the
 * compiler needs no stack frame (a call here made it save and copy the
 * arguments passed on the stack: 18 instructions for
 * clEnqueueNDRangeKernel, now 11, and 4 for most entries). */
#define DL_SHIM_FORWARD(name, args)                                            \
    int state_ = __atomic_load_n(&dl_shim_state, __ATOMIC_ACQUIRE);            \
    if (__builtin_expect(state_ == DL_SHIM_ACTIVE, 1))                         \
        return dl_rt_##name args;                                              \
    if (__builtin_expect(state_ == DL_SHIM_PASSTHROUGH, 1))                    \
        return dl_shim_real.name args;                                         \
    if (state_ == DL_SHIM_TIMED)                                               \
        return dl_rt_timed_##name args;                                        \
    return dl_shim_first_##name args

/* The first intercepted call of the process, one per entry (each shim
 * expands entries.def with this before its entries): starts, then goes
 * where the mode says. */
#define DL_SHIM_FIRST(ret, name, params, args)                                 \
    static __attribute__((noinline, cold)) ret dl_shim_first_##name params     \
    {                                                                          \
        int state_ = dl_shim_start();                                          \
        if (state_ == DL_SHIM_ACTIVE)                                          \
            return dl_rt_##name args;                                          \
        if (state_ == DL_SHIM_TIMED)                                           \
            return dl_rt_timed_##name args;                                    \
        return dl_shim_real.name args;                                         \
    }

/* The entry itself.  On x86-64 ELF it is three instructions of assembly
 * (compare the state, jump to the runtime, or else to the C body of
 * DL_SHIM_FORWARD in dl_shim_other_<name>): the same code in C costs
 * 11 instructions on the 9-argument clEnqueueNDRangeKernel, because GCC
 * reloads and stores back the stack arguments of a sibling call.  The
 * jumps leave every argument, in registers or on the stack, where the
 * caller put it, so the same three instructions fit every signature.
 * `symbol` is the exported name (preload: binding ".globl") or a hidden
 * one (layer: ".hidden"); the caller declares it with the entry's
 * prototype.  Other targets use the C body as the entry. */
#define DL_SHIM_OTHER(ret, name, params, args)                                 \
    __attribute__((visibility("hidden"), noinline))                            \
    ret dl_shim_other_##name params;                                           \
    ret dl_shim_other_##name params                                            \
    {                                                                          \
        DL_SHIM_FORWARD(name, args);                                           \
    }

#if defined(__x86_64__) && defined(__ELF__)
#define DL_SHIM_STR_(x) #x
#define DL_SHIM_STR(x)  DL_SHIM_STR_(x)
#define DL_SHIM_ASM_ENTRY(symbol, binding, name)                               \
    __asm__(".text\n"                                                          \
            ".p2align 4\n" binding " " symbol "\n"                             \
            ".type " symbol ", @function\n" symbol ":\n"                       \
            "\tcmpl $" DL_SHIM_STR(                                            \
                DL_SHIM_ACTIVE_VALUE) ", dl_shim_state(%rip)\n"                \
                                      "\tjne dl_shim_other_" #name "\n"        \
                                      "\tjmp dl_rt_" #name "\n"                \
                                      ".size " symbol ", .-" symbol "\n")
#endif

#endif
