/* rt_hg.h - telling helgrind (and DRD) about the runtime's lock-free
 * fast paths, which they cannot see: C11 atomics look like plain racy
 * accesses to them.  These are valgrind's client requests (no-ops
 * outside valgrind); without valgrind's header, nothing.
 *
 *   RT_HG_UNTRACKED(p, n)  [p, p+n) holds only atomics: do not check it
 *   RT_HG_PUBLISH(obj)     obj is complete; lock-free readers may use it
 *   RT_HG_ACQUIRE(obj)     this thread got obj from a lock-free read
 *
 * PUBLISH and ACQUIRE sit on the per-call fast paths, so they run only
 * under the tools that read them (rt_hg_active, set once at start):
 * elsewhere, callgrind included, they cost a load and a branch. */
#ifndef DL_RT_HG_H
#define DL_RT_HG_H

/* Nonzero when the process runs under helgrind or DRD (rt_init.c). */
extern __attribute__((visibility("hidden"))) int rt_hg_active;

/* The client requests themselves, out of line: a request inline would
 * make every fast path that contains one build a stack frame. */
void rt_hg_publish(const void *obj);
void rt_hg_acquire(const void *obj);

#define RT_HG_PUBLISH(obj)                                                     \
    do {                                                                       \
        if (__builtin_expect(rt_hg_active, 0))                                 \
            rt_hg_publish(obj);                                                \
    } while (0)
#define RT_HG_ACQUIRE(obj)                                                     \
    do {                                                                       \
        if (__builtin_expect(rt_hg_active, 0))                                 \
            rt_hg_acquire(obj);                                                \
    } while (0)

#if defined(__has_include)
#if __has_include(<valgrind/helgrind.h>)
#include <valgrind/helgrind.h>
#define RT_HG_UNTRACKED(p, n) VALGRIND_HG_DISABLE_CHECKING((p), (n))
#endif
#endif

#ifndef RT_HG_UNTRACKED
#define RT_HG_UNTRACKED(p, n) ((void)(p), (void)(n))
#endif

#endif
