/* rt_jobswap_plan.h - what rt_jobswap.c (the launches) and
 * rt_jobswap_plan.c (the planning thread) share. */
#ifndef DL_RT_JOBSWAP_PLAN_H
#define DL_RT_JOBSWAP_PLAN_H

#include "coalesce.h"
#include "rt_jobswap.h"
#include "rt_permute.h"
#include "rt_select.h"

/* The range a plan was made for: the launch's work-items, and where its
 * reference reads P (work-item t, step j: entry base + t * t_stride +
 * j * j_stride, j < steps). */
typedef struct rt_irregular_range {
    size_t global, base;
    uint64_t t_stride, j_stride, steps;
} rt_irregular_range;

/* One kernel's state; every field locked (rt_lock). */
typedef struct rt_irregular {
    unsigned refs; /* the kernel's, and a planning thread's */
    int reading;   /* P's read or its planning is in flight */
    int decided;   /* path is final */
    rt_irregular_path path;
    rt_irregular_range range; /* the range R and the pad were planned for */
    int range_said;           /* a launch of another range was logged at info */
    cl_kernel variant;        /* the job-swapped form, retained */
    cl_mem job;               /* R: global uints */
    int gone;                 /* the kernel was released */
    int announced;            /* its first job-swapped launch was logged */
    struct rt_pad *pad;       /* padding's A'' and Q' (rt_padding.h) */
    /* Under DL_POLICY=auto, before a planning starts (rt_jobswap.c,
     * planning_pays): the host time of the first launch, the launches
     * so far, and whether the wait was logged. */
    uint64_t first_ns;
    uint64_t launches;
    int deferred;
    struct rt_trips *trips; /* job swapping by trip count (rt_tripswap.h) */
} rt_irregular;

/* One planning: P's entries read at a launch, and what the thread needs
 * to count, choose, plan and build without the kernel. */
typedef struct rt_jobswap_plan {
    rt_irregular *st;
    char label[200]; /* "kernel 'k' arg x via col" */
    /* The kernel's other references, for the log of what each gets:
     * the arrays the permutation would move with this one (read only
     * through the same index buffer) and the rest ("w via col"). */
    char same_p[160], others[200];
    char *kernel, *source, *options;
    size_t source_len;
    cl_context context; /* retained */
    cl_device_id device;
    dl_irregular_mode mode;
    rt_select_facts facts; /* forms, writes, disturbance, budget */
    dl_coalesce_ref ref;
    dl_int_type type;
    void *host; /* P's entries from `base` on, `entries` of them */
    size_t entries, global;
    /* Work-item t reads entry t * t_stride + j * j_stride of host at
     * step j < steps (the reference's range, from its base). */
    uint64_t t_stride, j_stride, steps;
    size_t elements; /* A's, where the permutation may take it */
    /* What METIS's order is kept for (rt_permute_choose.c), where the
     * permutation may take it and P could be watched (else NULL). */
    rt_metis_key remap_key;
    int remap_keyed;
    cl_event read; /* retained until its callback */
    /* Padding (rt_padding.h), where facts.padding_form: the program's
     * kernel as dlayout's own object, A and P with their parameters, P's
     * bytes, the first entry read and P's version when read; the plan,
     * once made from the entries. */
    cl_kernel pad_kernel;
    cl_mem a_mem, p_mem;
    cl_uint array, via;
    size_t p_bytes, base;
    uint64_t version_p;
    struct dl_padding_slots *padding;
    /* Sharing (rt_sharing.h), where facts.sharing_form: the launch's
     * local size the groups are planned for; the plan, once made, and
     * whether it follows the job map pad_job (clustered). */
    size_t local;
    struct dl_sharing_slots *sharing;
    int sharing_clustered;
    /* The job map padding plans for, where the job-swapped form exists:
     * R over the whole range (the frequency order of the first `active`
     * work-items' first reads, then the rest in their own order). */
    size_t *pad_job;
} rt_jobswap_plan;

/* Hands a planning whose read is enqueued to its callback, which starts
 * a thread that does the rest and frees it.  -1 when it cannot (the
 * caller then frees it). */
int rt_jobswap_plan_start(rt_jobswap_plan *p);

/* The first work-items, all of whose entries were read: the jobs the
 * planning moves. */
size_t rt_jobswap_active(const rt_jobswap_plan *p);

/* What a launch of dlayout's own kernel object changes in the program's
 * arguments: R appended (the job-swapped form), A and P substituted (A
 * is the parameter `array`, P `via`; padding and sharing), sharing's
 * blocks appended, and the event the launch must also wait for. */
typedef struct rt_irregular_args {
    cl_mem job;
    cl_uint array, via;
    cl_mem a, p;
    cl_event ready;
    /* The shared form's parameters after them (sharing: block_pos not
     * NULL), the last one __local memory of local_bytes; the local size
     * where the launch gives none (NULL: the launch's). */
    cl_mem block_pos, block_size;
    size_t local_bytes;
    const size_t *local;
} rt_irregular_args;

/* Unlocked: enqueues `kernel` with the program's arguments changed by x
 * (NULL: the program's kernel as set), ordered like the program's
 * launch; DONE with the call's status in *err, or ASIS when an
 * argument's layout says the caller's path must run it. */
rt_irregular_launched rt_irregular_run(const launch_call *c, rt_kernel *k,
                                       cl_kernel kernel,
                                       const rt_irregular_args *x,
                                       cl_uint nwait, const cl_event *wait,
                                       cl_event *event, cl_int *err);

/* Frees a planning (and drops its hold on the state, locked). */
void rt_jobswap_plan_free(rt_jobswap_plan *p);

/* A planning thread (the selector's, or the permutation's:
 * rt_permute_plan.c) is to start (+1: 0 when the process is exiting: it
 * must not start) or has ended (-1).  The exit waits for those running,
 * which use OpenCL, before the process tears it down (30 s at most). */
int rt_irregular_flight(int delta);

/* Whether the process exits: a planning thread stops at its next step
 * (the exit waits for it). */
int rt_irregular_stopping(void);

/* Starts fn(arg) on a detached thread: 0, or -1. */
int rt_irregular_spawn(void *(*fn)(void *), void *arg);

/* R over `global` work-items on the device: job[t] for t < active, then
 * t itself.  NULL, or *why. */
cl_mem rt_jobswap_upload_map(cl_context context, const size_t *job,
                             size_t active, size_t global, const char **why);

/* The job-swapped form (`swap`), the shared form (`share`) or both of
 * `kernel`: `source` built with `options` and -D DL_JOBSWAP_<kernel>,
 * -D DL_SHARE_<kernel>.  NULL, or *why. */
cl_kernel rt_jobswap_build_forms(cl_context context, cl_device_id device,
                                 const char *source, size_t source_len,
                                 const char *options, const char *kernel,
                                 int swap, int share, const char **why);

/* The job-swapped form of `kernel`: `source` built with `options` and
 * -D DL_JOBSWAP_<kernel>=1.  NULL, or *why. */
cl_kernel rt_jobswap_build_form(cl_context context, cl_device_id device,
                                const char *source, size_t source_len,
                                const char *options, const char *kernel,
                                const char **why);

/* Locked: k's state, made at its first launch; NULL when out of memory. */
rt_irregular *rt_irregular_state(rt_kernel *k);

/* Whether dl-annotate wrote the job-swapped form (its dl_job parameter). */
int rt_irregular_jobswap_form(const dl_annot_kernel *ak);

/* Why launch c cannot be planned from (job swapping takes 1-D ranges
 * without an offset), or NULL. */
const char *rt_irregular_unplannable(const launch_call *c);

/* Unlocked: under DL_POLICY=auto with the selector and a tuner, whether
 * this launch of k (counted in st) may start a planning estimated at
 * `cost` ns: once the kernel's launches took (at their measured plain
 * speed, else the host time since its first) a few times that, after a
 * few launches.  Otherwise at once. */
int rt_irregular_plan_pays(const rt_kernel *k, rt_irregular *st, double cost);

/* Locked: drops one hold on st; the last frees it. */
void rt_irregular_unref(rt_irregular *st);

#endif
