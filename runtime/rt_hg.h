/* rt_hg.h - telling helgrind (and DRD) about the runtime's lock-free
 * fast paths, which they cannot see: C11 atomics look like plain racy
 * accesses to them.  Outside valgrind these are a few no-op instructions
 * (valgrind's client requests); without valgrind's header, nothing.
 *
 *   RT_HG_UNTRACKED(p, n)  [p, p+n) holds only atomics: do not check it
 *   RT_HG_PUBLISH(obj)     obj is complete; lock-free readers may use it
 *   RT_HG_ACQUIRE(obj)     this thread got obj from a lock-free read */
#ifndef DL_RT_HG_H
#define DL_RT_HG_H

#if defined(__has_include)
#if __has_include(<valgrind/helgrind.h>)
#include <valgrind/helgrind.h>
#define RT_HG_UNTRACKED(p, n) VALGRIND_HG_DISABLE_CHECKING((p), (n))
#define RT_HG_PUBLISH(obj) ANNOTATE_HAPPENS_BEFORE(obj)
#define RT_HG_ACQUIRE(obj) ANNOTATE_HAPPENS_AFTER(obj)
#endif
#endif

#ifndef RT_HG_UNTRACKED
#define RT_HG_UNTRACKED(p, n) ((void)(p), (void)(n))
#define RT_HG_PUBLISH(obj) ((void)(obj))
#define RT_HG_ACQUIRE(obj) ((void)(obj))
#endif

#endif
