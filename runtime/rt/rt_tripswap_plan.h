/* rt_tripswap_plan.h - what rt_tripswap.c (the launches) and
 * rt_tripswap_plan.c (the planning thread) share. */
#ifndef DL_RT_TRIPSWAP_PLAN_H
#define DL_RT_TRIPSWAP_PLAN_H

#include "rt_jobswap_plan.h"
#include "rt_tripswap.h"

/* One kernel's trip-count state; every field locked (rt_lock). */
typedef struct rt_trips {
    int reading;   /* a planning is in flight */
    int ready;     /* R and the variant are stored */
    int declined;  /* final: launches take the caller's path */
    size_t global; /* the range R was planned for */
    cl_kernel variant;
    cl_mem job;
    /* The key arrays and their versions when read: a launch that finds
     * them changed plans again. */
    cl_mem key_mem[2];
    uint64_t version[2];
    uint64_t steps_before, steps_after; /* at the device's W */
    double cost_ns; /* the planning, the build and the upload */
    int announced;
} rt_trips;

/* One planning: the key arrays' entries read after a launch. */
typedef struct rt_trips_plan {
    rt_irregular *st; /* held */
    char *kernel, *source, *options;
    size_t source_len;
    cl_context context; /* retained */
    cl_device_id device;
    int forced; /* DL_IRREGULAR=jobswap */
    int build;  /* the variant is still to be built */
    unsigned nterms;
    dl_int_type type[2];
    void *host[2]; /* term i's entries from its first, entries[i] */
    size_t entries[2];
    uint64_t stride[2];
    size_t global;
    unsigned field_bytes; /* of the first reference: the device's W */
    cl_mem key_mem[2];
    uint64_t version[2];
    uint64_t start_ns; /* the planning's start, for its cost */
    cl_event read;     /* the last read, retained until its callback */
} rt_trips_plan;

/* Hands a planning whose reads are enqueued to the read's callback,
 * which starts a thread that does the rest and frees it.  -1 when it
 * cannot (the caller then frees it). */
int rt_tripswap_plan_start(rt_trips_plan *p);

/* Frees a planning, and drops its hold on the state (locked). */
void rt_trips_plan_free(rt_trips_plan *p);

uint64_t rt_trips_now_ns(void);

#endif
