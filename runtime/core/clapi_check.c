/* clapi_check.c - the lock rule, enforced: no OpenCL call that can block
 * (a wait, a finish, a build, a blocking read, write or map) while the
 * calling thread holds a dlayout lock.  A thread stalled there would stall
 * every other thread's buffer accesses, and a wait on a command gated by
 * the host (a user event another thread sets after it takes the lock)
 * would never end.
 *
 * In builds with DL_LOCK_CHECK (meson option lock_check: on in debug
 * builds and in the README's test command), dl_cl's blocking entries are
 * replaced by wrappers that abort when the calling thread holds a lock
 * (dl_cl_lock_enter/leave, kept by the lock's owners).  Other builds keep dl_cl
 * as it was installed. */
#include "clapi.h"
#include "log.h"

#include <stdlib.h>

#ifdef DL_LOCK_CHECK

#if defined(__has_include)
#if __has_include(<valgrind/helgrind.h>)
#include <valgrind/helgrind.h>
#endif
#endif

/* The thread that holds the lock, by its thread pointer (NULL: none).
 * One word and no thread-local lookup, so that a wrapper's test is a
 * load and a compare, and its real call stays a jump: the calls that
 * dlayout passes on for the application pay for it. */
static void *owner;

static inline void *this_thread(void)
{
    return __builtin_thread_pointer();
}

void dl_cl_lock_enter(void)
{
    __atomic_store_n(&owner, this_thread(), __ATOMIC_RELAXED);
}

void dl_cl_lock_leave(void)
{
    __atomic_store_n(&owner, NULL, __ATOMIC_RELAXED);
}

static __attribute__((noreturn, noinline, cold)) void
blocked_under_lock(const char *call)
{
    DL_LOG_ERROR("%s, which can block, was called under the dlayout lock "
                 "(lock_check build): aborting",
                 call);
    abort();
}

#define check(call)                                                            \
    do {                                                                       \
        if (__builtin_expect(__atomic_load_n(&owner, __ATOMIC_RELAXED) ==      \
                                 this_thread(),                                \
                             0))                                               \
            blocked_under_lock(call);                                          \
    } while (0)

static cl_icd_dispatch real;

static cl_int CL_API_CALL checked_clFinish(cl_command_queue q)
{
    check("clFinish");
    return real.clFinish(q);
}

static cl_int CL_API_CALL checked_clWaitForEvents(cl_uint n,
                                                  const cl_event *list)
{
    check("clWaitForEvents");
    return real.clWaitForEvents(n, list);
}

static cl_int CL_API_CALL checked_clBuildProgram(
    cl_program p, cl_uint ndev, const cl_device_id *dev, const char *options,
    void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    if (!notify) /* with a callback it may return before the build ends */
        check("clBuildProgram");
    return real.clBuildProgram(p, ndev, dev, options, notify, user);
}

static cl_int CL_API_CALL checked_clCompileProgram(
    cl_program p, cl_uint ndev, const cl_device_id *dev, const char *options,
    cl_uint nheaders, const cl_program *headers, const char **names,
    void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    if (!notify)
        check("clCompileProgram");
    return real.clCompileProgram(p, ndev, dev, options, nheaders, headers,
                                 names, notify, user);
}

static cl_program CL_API_CALL checked_clLinkProgram(
    cl_context ctx, cl_uint ndev, const cl_device_id *dev, const char *options,
    cl_uint nprogs, const cl_program *progs,
    void(CL_CALLBACK *notify)(cl_program, void *), void *user, cl_int *err)
{
    if (!notify)
        check("clLinkProgram");
    return real.clLinkProgram(ctx, ndev, dev, options, nprogs, progs, notify,
                              user, err);
}

static cl_int CL_API_CALL checked_clEnqueueReadBuffer(
    cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
    void *ptr, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueReadBuffer");
    return real.clEnqueueReadBuffer(q, m, blocking, offset, size, ptr, nwait,
                                    wait, ev);
}

static cl_int CL_API_CALL checked_clEnqueueWriteBuffer(
    cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
    const void *ptr, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueWriteBuffer");
    return real.clEnqueueWriteBuffer(q, m, blocking, offset, size, ptr, nwait,
                                     wait, ev);
}

static cl_int CL_API_CALL checked_clEnqueueReadBufferRect(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *bo,
    const size_t *ho, const size_t *region, size_t brp, size_t bsp, size_t hrp,
    size_t hsp, void *ptr, cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueReadBufferRect");
    return real.clEnqueueReadBufferRect(q, m, blocking, bo, ho, region, brp,
                                        bsp, hrp, hsp, ptr, nwait, wait, ev);
}

static cl_int CL_API_CALL checked_clEnqueueWriteBufferRect(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *bo,
    const size_t *ho, const size_t *region, size_t brp, size_t bsp, size_t hrp,
    size_t hsp, const void *ptr, cl_uint nwait, const cl_event *wait,
    cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueWriteBufferRect");
    return real.clEnqueueWriteBufferRect(q, m, blocking, bo, ho, region, brp,
                                         bsp, hrp, hsp, ptr, nwait, wait, ev);
}

static void *CL_API_CALL checked_clEnqueueMapBuffer(
    cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
    size_t offset, size_t size, cl_uint nwait, const cl_event *wait,
    cl_event *ev, cl_int *err)
{
    if (blocking)
        check("a blocking clEnqueueMapBuffer");
    return real.clEnqueueMapBuffer(q, m, blocking, flags, offset, size, nwait,
                                   wait, ev, err);
}

static cl_int CL_API_CALL checked_clEnqueueReadImage(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *origin,
    const size_t *region, size_t row, size_t slice, void *ptr, cl_uint nwait,
    const cl_event *wait, cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueReadImage");
    return real.clEnqueueReadImage(q, m, blocking, origin, region, row, slice,
                                   ptr, nwait, wait, ev);
}

static cl_int CL_API_CALL checked_clEnqueueWriteImage(
    cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *origin,
    const size_t *region, size_t row, size_t slice, const void *ptr,
    cl_uint nwait, const cl_event *wait, cl_event *ev)
{
    if (blocking)
        check("a blocking clEnqueueWriteImage");
    return real.clEnqueueWriteImage(q, m, blocking, origin, region, row, slice,
                                    ptr, nwait, wait, ev);
}

static void *CL_API_CALL checked_clEnqueueMapImage(
    cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
    const size_t *origin, const size_t *region, size_t *row, size_t *slice,
    cl_uint nwait, const cl_event *wait, cl_event *ev, cl_int *err)
{
    if (blocking)
        check("a blocking clEnqueueMapImage");
    return real.clEnqueueMapImage(q, m, blocking, flags, origin, region, row,
                                  slice, nwait, wait, ev, err);
}

#define WRAP(name)                                                             \
    if (table->name)                                                           \
        table->name = checked_##name;

void dl_cl_check_blocking(cl_icd_dispatch *table)
{
#ifdef VALGRIND_HG_DISABLE_CHECKING
    /* Relaxed atomics, which helgrind cannot see: `owner` only ever
     * equals this thread's pointer when this thread wrote it. */
    VALGRIND_HG_DISABLE_CHECKING(&owner, sizeof owner);
#endif
    real = *table;
    WRAP(clFinish)
    WRAP(clWaitForEvents)
    WRAP(clBuildProgram)
    WRAP(clCompileProgram)
    WRAP(clLinkProgram)
    WRAP(clEnqueueReadBuffer)
    WRAP(clEnqueueWriteBuffer)
    WRAP(clEnqueueReadBufferRect)
    WRAP(clEnqueueWriteBufferRect)
    WRAP(clEnqueueMapBuffer)
    WRAP(clEnqueueReadImage)
    WRAP(clEnqueueWriteImage)
    WRAP(clEnqueueMapImage)
}

#else

void dl_cl_lock_enter(void) {}
void dl_cl_lock_leave(void) {}
void dl_cl_check_blocking(cl_icd_dispatch *table)
{
    (void)table;
}

#endif
