/* rt_chunks.h - a reordered launch run as several launches over parts of
 * its range (docs/irregular.md, "Chunked launches"): for overlap, the
 * gather of chunk k+1's part of each A' runs on dlayout's own queue while
 * chunk k computes on the program's; for partial duplication, the chunks
 * whose part of A' does not fit DL_GATHER_BUDGET run the program's own
 * kernel.  Each work-item keeps its global id and does the same
 * arithmetic; only which launch runs it changes.  Only kernels that
 * dl-annotate marked `launch: chunks`, 1-D ranges, and references whose
 * chunks read disjoint intervals of P, in order. */
#ifndef DL_RT_CHUNKS_H
#define DL_RT_CHUNKS_H

#include "rt_launch.h"
#include "rt_reorder_job.h"
#include "tuner_timing.h"

#define RT_CHUNKS_MAX     16 /* chunks per launch, at most */
#define RT_CHUNKS_DEFAULT 4  /* DL_CHUNKS=auto                */

/* Work-items [first, first + count) of a launch, counted from its start
 * (its global offset not included). */
typedef struct rt_chunk {
    size_t first, count;
} rt_chunk;

/* Splits `global` work-items into at most `want` (1..RT_CHUNKS_MAX)
 * chunks of whole units of `unit` work-items (a work-group: every chunk
 * but the last starts and ends on a unit, the last takes the remainder),
 * as even as the units allow, into out[]; returns their count (0 when
 * global is 0). */
size_t rt_chunks_split(size_t global, size_t unit, size_t want, rt_chunk *out);

/* How one reordered launch runs. */
typedef struct rt_chunk_plan {
    size_t count;    /* chunks; 1: the launch runs whole, as before      */
    size_t gathered; /* chunks [0, gathered) run the variant, the rest
                        the program's kernel (partial duplication)       */
    int overlap;     /* the gathers of this launch are per chunk, on
                        dlayout's own queue                              */
    int measured;    /* DL_OVERLAP=auto times this launch               */
    int probed;      /* the tuner times this launch: its gathers stay
                        whole, where its probe sees them               */
    uint64_t start_ns;
    cl_command_queue side; /* dlayout's queue, once asked for     */
    cl_event before;       /* retained: the program's queue so far */
    rt_chunk chunk[RT_CHUNKS_MAX];
    /* Job j's entries of P for chunk i: [entry[j][i], entry[j][i + 1]). */
    size_t entry[RT_GATHERS][RT_CHUNKS_MAX + 1];
    cl_event ready[RT_GATHERS][RT_CHUNKS_MAX]; /* retained: chunk gathers */
} rt_chunk_plan;

/* The plan of launch c of k with its n jobs (their `at` evaluated):
 * chunks when the kernel, the range and every reference allow them
 * (else count 1, the reason logged at info once per kernel), every
 * chunk through the variant, no overlap yet. */
void rt_chunks_plan(const launch_call *c, rt_kernel *k, const gather_job *jobs,
                    uint32_t n, rt_chunk_plan *plan);

/* Partial duplication, when the jobs' copies exceed `budget` bytes: the
 * most chunks whose parts of every A' fit go through the variant; the
 * jobs' keys and sizes shrink to those parts.  0 when the launch is not
 * chunked or not even one chunk fits (nothing changed). */
int rt_chunks_fit(rt_chunk_plan *plan, gather_job *jobs, uint32_t n,
                  size_t budget);

/* Whether this launch's gathers overlap with its chunks: never while the
 * tuner's probe times it, else DL_OVERLAP on, or under auto the way that
 * measured faster for k (each way warmed up and timed once first).  Sets
 * plan->overlap and whether the launch is timed. */
void rt_chunks_choose_overlap(rt_kernel *k, rt_chunk_plan *plan);

/* Unlocked, after the launch was enqueued: a launch DL_OVERLAP=auto
 * times reports its net time, from before its gathers to the completion
 * of a marker after it on its queue, to k's measurements. */
void rt_chunks_time(const launch_call *c, rt_kernel *k,
                    const rt_chunk_plan *plan);

/* Unlocked, plan->overlap: gathers job j's part of A' for every chunk
 * through the variant, each on dlayout's own queue after `wait` (the
 * launch's list and its ordering events) and the program's queue so far;
 * j->ready becomes the last one.  NULL, or why not. */
const char *rt_chunks_gather(const launch_call *c, rt_chunk_plan *plan,
                             dl_engine *engine, uint32_t j, gather_job *job,
                             cl_uint nwait, const cl_event *wait);

/* Whether job j's ready event is chunk i's alone to wait for (the
 * chunked gathers), not the whole launch's. */
static inline int rt_chunks_per_chunk(const rt_chunk_plan *plan, uint32_t j)
{
    return plan->count > 1 && plan->ready[j][0] != NULL;
}

/* Locked: enqueues the chunks on the program's queue: those through the
 * variant `xform` (its arguments set) after `wait` and their own
 * gathers, the others with the program's kernel after `wait`; *event
 * (not NULL) completes after all of them.  CL_SUCCESS or the failing
 * call's error. */
cl_int rt_chunks_enqueue(const launch_call *c, cl_kernel xform,
                         rt_chunk_plan *plan, uint32_t njobs, cl_uint nwait,
                         const cl_event *wait, cl_event *event);

/* Releases what the plan holds. */
void rt_chunks_free(rt_chunk_plan *plan);

/* Locked: kernel entry k goes (its measurements with it). */
void rt_chunks_forget(rt_kernel *k);

#endif
