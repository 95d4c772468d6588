/* rt_internal.h - what the interposition runtime's files (rt_*.c) share:
 * the process-wide state, the object tables and the stats counters.
 *
 * Concurrency: one mutex (dl_rt.lock) guards every table and every entry.
 * It is never held across a call that can block on the device (blocking
 * reads, waits, program builds) nor across an application callback, and
 * no OpenCL callback of ours takes it, so it cannot deadlock with the
 * OpenCL implementation (lock_check builds abort on such a call:
 * clapi_check.c).  Fast paths test two atomics first and skip the
 * lock: `annotated` (some program with annotations exists) and
 * `transformed` (some buffer is not in its original layout).
 *
 * The launch memo (rt_memo.h) goes further: a launch with the same
 * inputs as the last one of its kernel, with nothing changed since, goes
 * straight to the real call without the lock.  A memo serves while its
 * `key_dim` is not 0.  The changes of the state that can make a memo wrong
 * (conversions, a buffer's layout reset or its entry dropped, a kernel
 * entry freed) happen under the lock, after rt_memos_invalidate() (once
 * per holding of the lock), which zeroes every memo's key_dim.  A fast launch
 * counts itself in `inflight` before it reads key_dim, and
 * rt_memos_invalidate() waits for `inflight` to drop to 0 after zeroing
 * them, so no change overtakes a fast launch that already decided to go
 * ahead.  Launches that change nothing (most slow launches of a loop of
 * several kernels) leave the other kernels' memos alone. */
#ifndef DL_RT_INTERNAL_H
#define DL_RT_INTERNAL_H

#include "annotations.h"
#include "clapi.h"
#include "controls.h"
#include "error.h"
#include "intercept.h"
#include "log.h"
#include "rt_hg.h"
#include "tuner.h"

#include <pthread.h>

/* ------------------------------------------------------------ hash maps */

/* Open addressing keyed by a pointer (never NULL), linear probing.
 * Changes need dl_rt.lock; rt_map_get also works without it (fast paths),
 * returning NULL or a value that was in the table during the call. */
typedef struct rt_map_table {
    size_t mask; /* capacity - 1; the capacity is a power of two */
    struct rt_map_table *retired;
    struct {
        const void *key; /* NULL: empty; RT_MAP_TOMB: deleted */
        void *val;
    } slot[];
} rt_map_table;

typedef struct rt_map {
    rt_map_table *table;
    size_t used; /* slots not empty (live + tombstones) */
    size_t live; /* entries; read without the lock by fast paths */
} rt_map;

#define RT_MAP_TOMB ((const void *)1)

static inline size_t rt_map_slot(const void *key, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & mask;
}

void *rt_map_get(const rt_map *map, const void *key);

/* The fast paths' lookup, inline and without a call (so that a caller
 * needs no stack frame): 0 if an empty slot comes before the key (so the
 * key is surely absent), 1 with *val if the key is found, else -1, and
 * then the caller asks rt_map_get.  Two slots: with the key's own slot
 * alone, a buffer the table does not know took the slow path whenever
 * another key sat there (about 1 in 20 buffers with 3 tracked ones).  Not
 * under helgrind, where only rt_map_get says what it needs to: the
 * callers test rt_hg_active (or a flag that says it) first. */
static inline int rt_map_probe(const rt_map *map, const void *key, void **val)
{
    const rt_map_table *t = __atomic_load_n(&map->table, __ATOMIC_ACQUIRE);
    if (!t)
        return 0;
    size_t i = rt_map_slot(key, t->mask);
    const void *k = __atomic_load_n(&t->slot[i].key, __ATOMIC_ACQUIRE);
    if (k != key) {
        if (__builtin_expect(!k, 1))
            return 0;
        i = (i + 1) & t->mask; /* another key sits there: rare */
        k = __atomic_load_n(&t->slot[i].key, __ATOMIC_ACQUIRE);
        if (k != key)
            return k ? -1 : 0;
    }
    *val = __atomic_load_n(&t->slot[i].val, __ATOMIC_ACQUIRE);
    return 1;
}

/* Returns DL_OUT_OF_MEMORY if the table cannot grow. */
dl_status rt_map_put(rt_map *map, const void *key, void *val);
void *rt_map_del(rt_map *map, const void *key);
void rt_map_free(rt_map *map);
/* Iteration (locked): for (i = 0; i < rt_map_cap(&m); i++) if
 * ((v = rt_map_at(&m, i))) ... */
size_t rt_map_cap(const rt_map *map);
void *rt_map_at(const rt_map *map, size_t i);

/* ------------------------------------------------------------- layouts */

/* A layout of one buffer: record, count, tile (1 AoS, DL_TILE_DA DA),
 * and DA's field stride (0: count; more: an offset DA, rt_offset.c). */
typedef struct rt_layout {
    dl_record *rec; /* retained; NULL: the original layout, unknown */
    size_t count;
    size_t tile;
    size_t stride;
} rt_layout;

int rt_layout_equal(const rt_layout *a, const rt_layout *b);
void rt_layout_set(rt_layout *dst, const rt_layout *src); /* retains */
void rt_layout_clear(rt_layout *l);
dl_layout rt_layout_dl(const rt_layout *l);

/* -------------------------------------------------------------- programs */

/* Where a launch's global range ends, per dimension (offset + global
 * size; 1 beyond work_dim).  The activated variant may be built for the
 * launches of one kernel that end at or before `end`
 * (DL_GLOBAL_END_<kernel>, docs/annotations.md).  set 0: no such bound
 * (a variant), unknown (a launch). */
typedef struct rt_global_end {
    int set;
    size_t end[3];
} rt_global_end;

typedef struct rt_program {
    cl_program program;
    cl_context context;
    unsigned refs; /* the application's handle + one per rt_kernel */
    char *source;  /* the text really built (injected or original) */
    size_t source_len;
    char *name; /* "<hash>.cl" or the injected file, for messages */
    dl_annot_program *annot;
    /* Set by the last clBuildProgram (the application's program is built
     * as written; the activated variant is a second program): */
    int activated;  /* some kernel is planned transformed (xform_options) */
    int *active;    /* per annot kernel: built with DL_ACTIVE_<name> */
    int *ran;       /* per annot kernel: ran transformed (rt_stats.c) */
    size_t **tiles; /* per annot kernel, per annot arg: the target tile */
    /* Per annot kernel, per annot arg: the pad (records) of the offset DA
     * the activated variant was built with (DLA_PAD_<kernel>_<arg>), 0
     * none; fixed with pads_fixed at its first build (rt_offset.c). */
    size_t **pads;
    int pads_fixed;
    char *pad_options;   /* their -D options, built into every variant */
    char *options;       /* the application's options ("" if none) */
    char *xform_options; /* options + activation macros, or NULL */
    uint64_t build_ns;   /* how long the application's build took: what
                            the activated variant's will take, about */
    cl_uint ndevices;
    cl_device_id *devices; /* NULL: all of the context's */
    /* The activated variant, built once on demand (rt_program_xform):
     * eagerly under DL_POLICY=always, at the first transformed launch
     * under auto, so that a program the tuner keeps plain builds once. */
    pthread_mutex_t xform_lock;
    cl_program xform;
    int xform_failed;
    /* The kernel xform was built for a bounded range, and the bound; a
     * launch of it beyond the bound runs the same variant built without
     * one, `wide` (rt_program_xform_wide). */
    char *bounded_kernel;
    rt_global_end bound;
    cl_program wide;
    int wide_failed;
    /* The activated variant with its tiled kernels in their flat ASTA
     * form (DL_FLAT_<kernel>), for ranges the tiled launch cannot take
     * (rt_program_xform_flat). */
    cl_program flat;
    int flat_failed;
} rt_program;

/* ------------------------------------------------------------- kernels */

/* rt_arg.guard_mask / guard_key: clSetKernelArg's fast path takes a
 * value v of 4 or 8 bytes if (v & guard_mask) == guard_key.  Any value
 * (0, 0) once the last value was inline and of 4 or 8 bytes; only the
 * buffer `tracked` (~0, tracked) on a tracked argument; none (0, 1) before
 * the first value and after other kinds of values; none either (0, the
 * buffer) once the buffer table dropped `tracked`.  The thread that sets
 * the kernel's arguments owns the record; only `tracked` (locked) and
 * guard_mask (atomic) change from other threads, when the buffer table
 * drops `tracked` (rt_kernels_forget_buffer). */
#define RT_GUARD_NONE 1u

typedef struct rt_arg {
    /* size, the first 8 bytes of inline_value, prev_size and prev_value
     * are contiguous so that the fast path moves them as pairs. */
    size_t size; /* 0: not set (or its value is unknown) */
    unsigned char inline_value[16];
    size_t prev_size;    /* the value before the last fast clSetKernelArg, */
    uint64_t prev_value; /* put back if the real call fails             */
    void *value;         /* inline_value, heap, or NULL (__local) */
    void *heap;          /* the copy of a value over 16 bytes, else NULL */
    uint64_t guard_mask, guard_key;
    int track; /* annotated in a transformed kernel: a buffer bound here
                  may be converted, so it is tracked from then on */
    /* The last buffer bound here that is in the buffer table; cleared
     * when its entry is dropped (rt_kernels_forget_buffer).  Locked. */
    cl_mem tracked;
} rt_arg;

/* Causes of a plain launch, each warned once per kernel. */
enum {
    RT_CAUSE_DIMS = 1u << 0,
    RT_CAUSE_SIZE = 1u << 1,
    RT_CAUSE_ALIAS = 1u << 2,
    RT_CAUSE_SUBBUF = 1u << 3,
    RT_CAUSE_ENGINE = 1u << 4,
    RT_CAUSE_NOTMEM = 1u << 5,
    RT_CAUSE_RESHAPE = 1u << 6, /* rt_reshape.h */
    RT_CAUSE_PINNED = 1u << 7,  /* rt_buffer.pinned */
    RT_CAUSE_OFFSET = 1u << 8   /* rt_offset.c */
};

/* The inputs of a kernel's last transformed launch that converted
 * nothing more than it needed, for rt_launch.c's fast path.  Written
 * under the lock at the end of a launch; read without it (see above). */
typedef struct rt_memo {
    int hits_left;        /* atomic: launches it may still serve; <= 0: none */
    int hits_given;       /* hits_left when it was made */
    cl_kernel run_kernel; /* the variant the decision launched */
    /* The real clEnqueueNDRangeKernel for its queue (rt_memo_enqueue). */
    cl_api_clEnqueueNDRangeKernel enqueue;
    int plain; /* run_kernel is the plain variant, decided */
    /* The launch's inputs (rt_memo_claim). */
    cl_command_queue queue;
    /* atomic: work_dim | RT_MEMO_TILED, or RT_MEMO_TASK; 0 while it
     * serves nothing (rt_memo_make, clSetKernelArg, ended memos). */
    cl_uint key_dim;
    size_t offset[3], global[3], local[3];
    /* The range the real call gets when rt_reshape.h tiled it: run_dim
     * 2, with run_local NULL if OpenCL picks the local size.  Otherwise
     * run_dim is 0 and the real call gets the caller's range. */
    cl_uint run_dim;
    const size_t *run_local;
    size_t run_offset[3], run_global[3], run_local_size[3];
    /* The memo's launches keep the event of the last one (retained; in
     * order on an in-order queue, busy keeps the real call and the swap
     * together), and the buffers they use get it as a use when the memo
     * ends (rt_memo_harvest): a conversion then waits for that launch,
     * and for nothing enqueued after it. */
    cl_event last;                 /* atomic */
    int busy;                      /* atomic: a launch is storing `last` */
    cl_api_clRetainEvent retain;   /* for the queue's events, */
    cl_api_clReleaseEvent release; /* as rt_memo_enqueue picks them */
    struct rt_buffer **bufs;       /* the buffers its launches use */
    cl_uint nbufs;
    /* bufs[0, nwritten): written by its launches and read by reordered
     * copies (rt_reorder.h): each launch moves their versions on. */
    cl_uint nwritten;
} rt_memo;

/* What rt_reorder.c saw of a kernel's gathered copies at its launches
 * under DL_POLICY=auto: the versions of the last (A, P) pairs, and how
 * many of the copies' bytes were stale at a launch (A or P written since
 * the kernel's previous launch) out of those seen (locked). */
#define RT_SEEN_PAIRS 8
typedef struct rt_reorder_seen {
    cl_mem a[RT_SEEN_PAIRS], p[RT_SEEN_PAIRS];
    uint64_t version[RT_SEEN_PAIRS];
    unsigned next; /* the slot replaced next */
    double stale_bytes, seen_bytes;
    const char *stale_most; /* the array last seen stale */
} rt_reorder_seen;

typedef struct rt_kernel {
    cl_kernel kernel;
    char *name;
    rt_program *prog;             /* NULL: not an annotated program */
    const dl_annot_kernel *annot; /* NULL: no annotation            */
    size_t annot_index;           /* into prog->active / tiles      */
    int transformed;              /* planned with DL_ACTIVE_<name>  */
    /* Planned with DL_ACTIVE_<name> for its indirect reads alone: its
     * launches run through rt_reorder.c, not the layout path. */
    int reorder;
    int reorder_warned; /* a decline of rt_reorder.c was logged (locked) */
    int chunks_warned;  /* why it runs whole was logged (locked)         */
    rt_reorder_seen reorder_seen;
    /* DL_OVERLAP=auto's measurements (rt_chunks.c), shared with their
     * pending callbacks: NULL until the first. */
    struct rt_overlap_times *overlap;
    /* The method of its indirect references (rt_jobswap.h), made at its
     * first launch (locked). */
    struct rt_irregular *irregular;
    cl_uint nargs;
    rt_arg *args;
    /* The same kernel of the activated variant, made at its first
     * transformed launch; its arguments are replayed from args[] when
     * args_gen moved on since xform_gen. */
    cl_kernel xform;
    rt_global_end xform_bound; /* the range xform was built for */
    unsigned xform_gen;
    /* The same kernel of the flat variant (rt_program.flat), made at the
     * first launch whose range cannot be tiled; its arguments as xform's. */
    cl_kernel xform_flat;
    unsigned flat_gen;
    int flat_said;     /* the info line on its first use was logged */
    int flat_form;     /* rt_reshape_flat_form: 0 not asked yet, 1 yes, 2 no */
    unsigned warned;   /* RT_CAUSE_ bits already logged  */
    unsigned args_gen; /* counts clSetKernelArg calls    */
    rt_memo memo;
    /* rt_permute.c: 0 until looked for, then its reference that may run
     * on a permuted array + 1, or -1 (locked). */
    int perm_ref;
    /* rt_renumber.c: whether it may run on a renumbered graph, and its
     * renumbering (locked); NULL until its first launch considered. */
    struct rt_renum_kernel *renum;
    struct rt_kernel *next_free; /* rt_kernels.c: entries are recycled */
} rt_kernel;

/* ------------------------------------------------------------- buffers */

/* A growing list of retained events (rt_buffers.c). */
typedef struct rt_events {
    cl_event *ev;
    cl_uint n, cap;
    int failed; /* out of memory: some event could not be kept */
} rt_events;

/* Past this many uses, those known complete are dropped. */
#define RT_MAX_USES 8

typedef struct rt_buffer {
    cl_mem mem;
    cl_context context;
    size_t size;
    cl_mem parent;   /* sub-buffers: the buffer they view, else NULL */
    unsigned nsubs;  /* live sub-buffers we know of                  */
    int transformed; /* cur differs from orig                        */
    rt_layout orig;  /* the host's layout (valid while transformed)  */
    rt_layout cur;
    cl_command_queue queue; /* retained while transformed: where to
                               restore it if the app releases it      */
    /* Commands since the last conversion (the conversion first): the
     * next conversion waits for them, on whatever queue they ran. */
    rt_events uses;
    /* The last conversion (retained) until it is known complete: every
     * command that touches the buffer, on any queue, waits for it, but
     * for the commands that come after it on its own in-order queue. */
    cl_event converted;
    cl_command_queue converted_on; /* retained with `converted` */
    int converted_in_order;
    cl_kernel bound_kernel; /* the last kernel argument it was bound to */
    cl_uint bound_index;
    /* Blocking reads and writes without the lock (rt_access.c), allowed
     * until the buffer's first conversion. */
    int ever_converted; /* atomic                                     */
    unsigned host_busy; /* atomic: such accesses under way            */
    /* Why the buffer must stay in the program's layout for good (the
     * host shares its memory, an image views it: rt_marks.c), or NULL. */
    const char *pinned;
    /* Bumped (locked) at every write dlayout sees: host writes, fills,
     * maps for writing, copies into it, writes through a sub-buffer,
     * launches that may write it (rt_reorder.h).  A reordered copy of
     * the buffer is current while its version is. */
    uint64_t version;
    int gathered; /* read by a cached reordered copy (rt_reorder.c) */
    /* The permutation pair (rt_permute.h) it is the array or the index
     * buffer of, or NULL. */
    struct rt_perm *perm;
    /* The renumbering (rt_renumber.h) whose pi its vertex array is kept
     * permuted by, or NULL. */
    struct rt_renum *renum;
    int gone; /* OpenCL destroyed it; its entry is being dropped (locked) */
    /* The program released its context: the entry keeps no events (they
     * would keep the context alive if the buffer's destruction came after
     * the program's last call into dlayout, as nothing drops it then). */
    int closed;
} rt_buffer;

/* Offset DA (rt_offset.c, docs/layouts.md).  Locked: where argument j
 * of k's annotation goes from AoS to DA at this launch, sets to->stride:
 * the variant's pad once built (RT_CAUSE_OFFSET when the buffer lacks
 * the slack it needs: the launch runs plain), else the pad the tuner's
 * rule wants for a variant still to build, which goes to *want_pad. */
unsigned rt_offset_plan(const rt_kernel *k, uint32_t j, const rt_buffer *b,
                        const rt_layout *from, rt_layout *to, size_t *want_pad);
/* Under xform_lock, before the program's first variant build: fixes the
 * pads of `kernel`'s arguments (per annot arg, NULL: none) and their
 * -D options.  0 when out of memory (no pads then). */
int rt_offset_fix(rt_program *p, const char *kernel, const size_t *pads);
void rt_offset_free(rt_program *p);
/* Locked: the size of argument j's buffer `mem` for the tuner's
 * prediction (dl_tuner_kernel_info.buffer_bytes) where the launch could
 * run an offset DA of it, else 0. */
size_t rt_offset_buffer_bytes(const rt_kernel *k, uint32_t j, cl_mem mem);
/* Whether some DA variant of the program's source takes a pad. */
int rt_offset_possible(const rt_program *p);

/* ----------------------------------------------------------- the state */

/* A buffer OpenCL destroyed, waiting to be dropped (rt_lock.c). */
typedef struct rt_destroyed {
    cl_mem mem;
    struct rt_destroyed *next;
} rt_destroyed;

/* kernels_planned: kernels built with DL_ACTIVE_<name> (planned
 * transformed); kernels_transformed: those of them that ran a transformed
 * variant at least once (the tuner may keep a planned kernel plain).
 * marshal_ns: host time spent enqueueing conversions (rt_stats.c). */
typedef struct rt_stats {
    uint64_t programs_annotated, kernels_planned, kernels_transformed, launches,
        marshals, unmarshals, bytes_marshaled, marshal_ns, declined,
        plain_launches, decided_transform, decided_plain;
    /* Reordering with index redirection (rt_reorder.c): gathers
     * enqueued, launches served by a cached copy, cached copies found
     * stale (A or P written since). */
    uint64_t reorders, reorder_hits, reorder_invalidations;
    /* Chunked launches (rt_chunks.c): launches run as several, gathers
     * of one chunk enqueued on dlayout's own queue, and launches whose
     * last chunks ran as written (partial duplication). */
    uint64_t chunked_launches, overlapped_gathers, partial_launches;
    /* The permutation layout (rt_permute.c): pairs applied, restored. */
    uint64_t permutations_applied, permutations_restored;
    /* The selector's plannings started (rt_jobswap.c): under auto only
     * where the kernel's plain time so far could pay one. */
    uint64_t irregular_plans;
    /* Job swapping by trip count (rt_tripswap.c): plannings started,
     * launches run with the jobs sorted. */
    uint64_t trip_plans, trip_launches;
    /* dlayout's own time (rt_self.c, only with DL_STATS): wall time inside
     * the intercepted calls less their forwards, and the part of it the
     * tuner waited for launch times; CPU time of its threads
     * (rt_stats_thread_done); conversions' time as the tuner's probes
     * measured it (dl_tuner_own_times). */
    uint64_t self_ns, tuner_wait_ns, thread_cpu_ns, device_ns;
} rt_stats;

typedef struct rt_state {
    dl_controls controls;
    dl_rt_mode mode;
    int annotated;      /* atomic: some annotated program was created
                         * (1; -1 under helgrind, see rt_access.c)       */
    int transformed;    /* atomic: buffers not in their original layout   */
    int untracked_subs; /* atomic: a sub-buffer could not be tracked     */
    pthread_mutex_t lock;
    unsigned inflight;     /* atomic: memo launches going on (see above)     */
    int memos_invalidated; /* locked: this holding ended the memos       */
    rt_map programs, kernels, buffers;
    rt_destroyed *destroyed; /* atomic: see rt_lock.c */
    rt_stats stats;          /* atomic adds */
    dl_tuner *tuner; /* DL_POLICY=auto: per-launch decisions; NULL: always */
    /* Reordered copies of indirectly read arrays (rt_reorder.c), made at
     * the first one; locked. */
    struct dl_reorder_cache *reorder;
    /* atomic: launches of kernels dlayout does not know, which may have
     * written any buffer: added to every buffer's version. */
    uint64_t wild_writes;
} rt_state;

extern __attribute__((visibility("hidden"))) rt_state dl_rt;

#define RT_LOAD(x)   __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define RT_ADD(x, v) __atomic_add_fetch(&(x), (v), __ATOMIC_RELAXED)

/* rt_lock.c: takes the lock, then forgets the buffers OpenCL destroyed
 * meanwhile. */
void rt_lock(void);
void rt_unlock(void);
/* Forgets a buffer (locked): its entry and the kernels' records of it. */
void rt_forget_buffer(struct rt_buffer *buf);
/* Locked, before any change a launch memo depends on (see above): ends
 * every memo (once per holding of the lock) and waits for the memo
 * launches under way (rt_memo.c). */
void rt_memos_invalidate(void);

/* Test support: while positive, each device conversion fails (and
 * decrements it), to exercise the fallbacks. */
extern int rt_fault_conversions;

/* Test support: the live controls (change them before creating the
 * objects they should affect) and a snapshot of the counters. */
dl_controls *dl_rt_controls(void);
void dl_rt_get_stats(rt_stats *out);
/* Arms the exit stats line for this process (not its fork() children). */
void rt_stats_register(void);
/* Locked: k launched its transformed variant; the first such launch of
 * its program's kernel counts in kernels_transformed. */
void rt_stats_ran_transformed(rt_kernel *k);
/* The stats line, without newline. */
int dl_rt_format_stats(const rt_stats *s, char *buf, size_t size);
/* At the end of each of dlayout's threads (or after each job of one that
 * never ends): adds its CPU time since the last call to thread_cpu_ns. */
void rt_stats_thread_done(void);

/* rt_self.c: where the runtime forwards the program's own command (the
 * real call an intercepted entry stands for): dl_cl's entries, or with
 * DL_STATS entries that also time it.  dlayout's own calls use dl_cl. */
extern __attribute__((visibility("hidden"))) cl_icd_dispatch rt_fwd;
/* Once dl_cl holds the real entry points: rt_fwd copies them. */
void rt_self_init(void);
/* With DL_STATS, after rt_self_init: from now on the forwards are timed,
 * and dl_rt_timed() says so to the shim. */
void rt_self_start(void);

/* ------------------------------------------------ between the rt_ files */

/* rt_programs.c */
rt_program *rt_program_find(cl_program program); /* locked */
void rt_program_unref(rt_program *p);            /* locked */
/* Builds (once) the activated variant; returns NULL after logging why,
 * and then every kernel of the program runs as written.  The first build
 * may specialise `kernel` for launches that end within *want (NULL: no
 * bound) and give its annotated arguments the offset DA pads `pads`
 * (records, per annot arg; NULL none); *got (if not NULL) receives the
 * bound `kernel` has in the variant returned. */
cl_program rt_program_xform(rt_program *p, const char *kernel,
                            const rt_global_end *want, rt_global_end *got,
                            const size_t *pads); /* unlocked */
/* The activated variant with no kernel bounded: xform, or a second build
 * if xform has a bounded kernel.  NULL as rt_program_xform. */
cl_program rt_program_xform_wide(rt_program *p); /* unlocked */
/* The activated variant with every tiled kernel in its flat form, built
 * once on demand; NULL if that build failed (logged).  Unlocked. */
cl_program rt_program_xform_flat(rt_program *p);

/* rt_kernels.c */
rt_kernel *rt_kernel_find(cl_kernel kernel); /* locked */

/* The entry of the kernel used last, by any thread.  Entries are never
 * freed, only recycled (their `kernel` is NULL while free), so the
 * pointer stays readable and `kernel` says whether it is still this
 * kernel's.  Never set under helgrind, which must see the lock. */
extern __attribute__((visibility("hidden"))) rt_kernel *rt_last_kernel;

/* The kernel's entry without the lock: NULL if it has none (a NULL
 * kernel has none, though it matches a free entry's handle). */
static inline rt_kernel *rt_kernel_get(cl_kernel kernel)
{
    if (!kernel)
        return NULL;
    rt_kernel *k = __atomic_load_n(&rt_last_kernel, __ATOMIC_ACQUIRE);
    if (__atomic_load_n(&k->kernel, __ATOMIC_ACQUIRE) == kernel)
        return k;
    k = rt_kernel_find(kernel);
    if (k && !rt_hg_active)
        __atomic_store_n(&rt_last_kernel, k, __ATOMIC_RELEASE);
    return k;
}

void rt_events_push(rt_events *e, cl_event ev);      /* retains */
void rt_events_push_once(rt_events *e, cl_event ev); /* unless there */
void rt_events_free(rt_events *e);                   /* releases */
/* The caller's wait list followed by `extra` (a new array, or the
 * caller's own when extra is empty). */
const cl_event *rt_events_join(rt_events *joined, cl_uint nwait,
                               const cl_event *wait, const rt_events *extra,
                               cl_uint *n);

/* rt_host_convert.c: converts mem's bytes from -> to on the host, after
 * `wait`; *ev is the command that writes them back.  Does not block. */
dl_status rt_host_convert(cl_command_queue queue, cl_mem mem,
                          cl_context context, const dl_layout *from,
                          const dl_layout *to, cl_uint nwait,
                          const cl_event *wait, cl_event *ev);

/* A buffer entry goes: no argument record may say it is tracked. */
void rt_kernels_forget_buffer(cl_mem mem); /* locked */

/* rt_contexts.c (locked): the engine for the queue's context and device,
 * made on first use; fails for a context the program has released. */
dl_status rt_context_engine(cl_command_queue queue, dl_engine **out);
/* rt_contexts.c (locked): dlayout's own in-order queue on the queue's
 * context and device (the overlapped gathers of rt_chunks.c), made on
 * first use and released with the context's engines. */
dl_status rt_context_side_queue(cl_command_queue queue, cl_command_queue *out);
/* Locked: the same, held for use without the lock (a planning thread
 * building kernels): the program releasing the context meanwhile leaves
 * it to the unhold, locked, to release. */
dl_status rt_context_engine_hold(cl_command_queue queue, dl_engine **out,
                                 void **hold);
void rt_context_engine_unhold(void *hold);
/* rt_contexts.c (locked): whether the program has released the context
 * (its buffers' entries then keep no events). */
int rt_context_closed(cl_context context);

/* rt_buffers.c (all locked) */
rt_buffer *rt_buffer_find(cl_mem mem);
/* Finds or creates the entry (queries size, context and parent). */
rt_buffer *rt_buffer_get(cl_mem mem);
/* Converts buf (in its original layout) from `from` to `to` on queue,
 * after `nwait` events and the buffer's earlier uses; the conversion's
 * event goes to `done`.  On failure logs and leaves the data and the state
 * as they were. */
dl_status rt_buffer_marshal(rt_buffer *buf, cl_command_queue queue,
                            const rt_layout *from, const rt_layout *to,
                            cl_uint nwait, const cl_event *wait,
                            rt_events *done);
/* Brings buf (and, for a sub-buffer, its parent) back to the original
 * layout if needed; `done` receives the conversions the command that
 * follows must wait for (rt_buffer_order). */
dl_status rt_buffer_restore(rt_buffer *buf, cl_command_queue queue,
                            cl_uint nwait, const cl_event *wait,
                            rt_events *done);
/* Marshal programs that a conversion from -> to and its restore would
 * build on the engine of `queue`: 0 once planned in this process. */
unsigned rt_conversion_builds(cl_command_queue queue, const rt_layout *from,
                              const rt_layout *to);
/* Unlocked (takes the lock only to find the engine): plans the
 * conversion from -> to and its restore, building their marshal
 * programs, with DL_ALGO or, where that can perform no step, the
 * automatic algorithm.  rt_buffer_marshal and rt_buffer_restore convert
 * only with plans made here (building under the lock would block): 0
 * when they cannot (a failed build, a full plan cache). */
int rt_conversion_prepare(cl_command_queue queue, const rt_layout *from,
                          const rt_layout *to);
/* The buffer is overwritten entirely: original layout, no conversion. */
void rt_buffer_reset(rt_buffer *buf);
/* Records a command that used the buffer (the event is retained); a
 * sub-buffer's use is also its parent's.  `queue` is unused. */
void rt_buffer_used(rt_buffer *buf, cl_command_queue queue, cl_event event);
/* rt_marks.c (locked): the buffer (and the buffer it is part of) stays in
 * the program's layout from now on; restored on its last queue if it is
 * not.  `why` is a static string, logged at info level. */
void rt_buffer_pin(rt_buffer *buf, const char *why);
/* The program released `context`: restores its buffers and releases the
 * events and queues their entries hold. */
void rt_buffers_close_context(cl_context context);
/* A conversion of buf that is not a layout's (rt_permute.c): what it
 * waits for (the wait list and the buffer's uses), and, once enqueued,
 * its event recorded as the buffer's last conversion. */
void rt_buffer_conversion_waits(const rt_buffer *buf, cl_uint nwait,
                                const cl_event *wait, rt_events *all);
void rt_buffer_converted(rt_buffer *buf, cl_command_queue queue, cl_event ev);
/* Adds to `wait` the conversion of buf (and of its parent) that may still
 * run: a command on `queue` that touches buf must wait for it, unless
 * `queue` is the conversion's own in-order queue.  rt_buffer_restore and
 * rt_buffer_restore_mem do this themselves. */
void rt_buffer_order(rt_buffer *buf, cl_command_queue queue, rt_events *wait);
/* Drops the entry (locked; rt_forget_buffer also clears the kernels'
 * records of it). */
void rt_buffer_drop(rt_buffer *buf);
/* The buffers OpenCL destroyed since the last call (locked; the caller
 * frees each node). */
rt_destroyed *rt_buffers_take_destroyed(void);
/* Restores every transformed buffer of the queue's context. */
void rt_buffer_restore_all(cl_command_queue queue, cl_uint nwait,
                           const cl_event *wait, rt_events *done);
/* Restores before a use of `mem` that needs the original layout; creates
 * no entry for buffers that were never involved. */
void rt_buffer_restore_mem(cl_mem mem, cl_command_queue queue, cl_uint nwait,
                           const cl_event *wait, rt_events *done);

#endif
