/* rt_jobswap_plan.h - what rt_jobswap.c (the launches) and
 * rt_jobswap_plan.c (the planning thread) share. */
#ifndef DL_RT_JOBSWAP_PLAN_H
#define DL_RT_JOBSWAP_PLAN_H

#include "coalesce.h"
#include "rt_jobswap.h"
#include "rt_select.h"

/* One kernel's state; every field locked (rt_lock). */
typedef struct rt_irregular {
    unsigned refs; /* the kernel's, and a planning thread's */
    int reading;   /* P's read or its planning is in flight */
    int decided;   /* path is final */
    rt_irregular_path path;
    size_t global;     /* the range R was planned for */
    cl_kernel variant; /* the job-swapped form, retained */
    cl_mem job;        /* R: global uints */
    int gone;          /* the kernel was released */
    int announced;     /* its first job-swapped launch was logged */
} rt_irregular;

/* One planning: P's entries read at a launch, and what the thread needs
 * to count, choose, plan and build without the kernel. */
typedef struct rt_jobswap_plan {
    rt_irregular *st;
    char label[200]; /* "kernel 'k' arg x via col" */
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
    cl_event read;   /* retained until its callback */
} rt_jobswap_plan;

/* Hands a planning whose read is enqueued to its callback, which starts
 * a thread that does the rest and frees it.  -1 when it cannot (the
 * caller then frees it). */
int rt_jobswap_plan_start(rt_jobswap_plan *p);

/* The first work-items, all of whose entries were read: the jobs the
 * planning moves. */
size_t rt_jobswap_active(const rt_jobswap_plan *p);

/* Frees a planning (and drops its hold on the state, locked). */
void rt_jobswap_plan_free(rt_jobswap_plan *p);

/* A planning thread (the selector's, or the permutation's:
 * rt_permute_plan.c) is to start (+1: 0 when the process is exiting: it
 * must not start) or has ended (-1).  The exit waits for those running,
 * which use OpenCL, before the process tears it down (30 s at most). */
int rt_irregular_flight(int delta);

/* Locked: drops one hold on st; the last frees it. */
void rt_irregular_unref(rt_irregular *st);

#endif
