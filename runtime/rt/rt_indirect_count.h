/* rt_indirect_count.h - what the coalescing report's two files share:
 * rt_indirect.c reads the index buffers at launches, rt_indirect_count.c
 * counts what the reads bring (on a thread of its own) into per-reference
 * totals and prints them at exit. */
#ifndef DL_RT_INDIRECT_COUNT_H
#define DL_RT_INDIRECT_COUNT_H

#include "coalesce.h"
#include "rt_internal.h"

#include <stdio.h>

typedef struct rt_total rt_total;

/* One read of index entries first .. first + count - 1 of P, and how to
 * count them.  The job's read event's callback hands it to the counting
 * thread, which frees it. */
typedef struct rt_job {
    rt_total *into; /* the report's totals, unless `counted`          */
    dl_coalesce_geometry geometry;
    /* Else the counts go to this, on the counting thread (a read left at
     * exit is not counted); `owner` is the caller's. */
    void (*counted)(struct rt_job *j, dl_status st,
                    const dl_coalesce_counts *c);
    void *owner;
    dl_coalesce_ref ref;
    dl_coalesce_range range; /* base relative to `first` */
    dl_int_type type;
    void *host;
    size_t first, count;
    /* A row-bounded loop (CSR, rt_indirect_rows.c): `bounds` holds its
     * bounds array's entries from bfirst on, bcount of them, read before P
     * (P's read waits on `bread`); work-item t's row runs from entry
     * rbase[0] + t * rstride[0] to entry rbase[1] + t * rstride[1] of
     * that array, over `threads` work-items. */
    int rows;
    void *bounds;
    dl_int_type btype;
    size_t bfirst, bcount, threads;
    int64_t rbase[2], rstride[2];
    cl_event bread; /* retained */
    cl_event read;  /* retained until its callback */
    cl_int status;  /* the read's, given to the callback */
    int claimed;    /* atomic: counted (by the thread or the exit) */
    struct rt_job *prev, *next; /* the pending, then the done list */
} rt_job;

/* The totals of reference r of kernel k at geometry g, made on first use;
 * NULL when out of memory. */
rt_total *rt_total_of(const dl_annot_kernel *k, const dl_annot_indirect *r,
                      dl_coalesce_geometry g);
dl_coalesce_geometry rt_total_geometry(const rt_total *t);
/* A launch of the reference that is not counted, and why. */
void rt_total_skip(rt_total *t, const char *why);
/* The job's read is enqueued: its completion hands it over.  Returns 0,
 * or -1 when no callback could be set (the exit then counts it). */
int rt_job_watch(rt_job *j);

/* Unlocked, at launch c of k after its event `launched`: enqueues a
 * non-blocking read of the entries of reference r's index buffer that
 * the launch's first `sample` work-items read (0: all of them; a sample
 * reads the first loop step only where all steps would read more than
 * RT_SAMPLE_ENTRIES, and of a row-bounded loop's P the first
 * RT_SAMPLE_ENTRIES entries), as a job like `proto` (into, geometry, counted,
 * owner).  NULL, or why not (nothing enqueued). */
#define RT_SAMPLE_ENTRIES (1u << 18)

/* The handle and size of k's buffer argument `arg` at this launch, or
 * why not.  Locked briefly: a buffer dlayout holds in another layout is
 * not read. */
const char *rt_indirect_buffer(const rt_kernel *k, uint32_t arg, cl_mem *m,
                               size_t *bytes);

/* rt_indirect_rows.c: the job of a row-bounded reference r at launch c
 * (P of p_bytes read whole; its bounds array, *bounds, from the first to
 * the last row the first `sample` work-items (0: all) read), or NULL with
 * the reason in *why. */
rt_job *rt_rows_job(const launch_call *c, const rt_kernel *k,
                    const dl_annot_indirect *r, size_t p_bytes, size_t sample,
                    cl_mem *bounds, const char **why);

/* The counts of a row-bounded job over P's `entries` (4- or 8-byte signed,
 * j->count of them). */
dl_status rt_rows_count(const rt_job *j, const void *entries, unsigned bytes,
                        dl_coalesce_counts *c);
const char *rt_indirect_read(const launch_call *c, const rt_kernel *k,
                             const dl_annot_indirect *r, cl_event launched,
                             size_t sample, const rt_job *proto);

#endif
