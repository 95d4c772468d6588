/* rt_reorder_job.h - one gather parameter of a reordered launch, shared
 * by rt_reorder.c (the cache, the whole gather, the launch) and
 * rt_chunks.c (the gather and the launch in chunks). */
#ifndef DL_RT_REORDER_JOB_H
#define DL_RT_REORDER_JOB_H

#include "reorder_cache.h"
#include "rt_internal.h"

/* Gather parameters per kernel, at most. */
#define RT_GATHERS 16

/* One gather parameter at one launch. */
typedef struct gather_job {
    const dl_annot_indirect *ref; /* its first reference                */
    uint32_t param;               /* its index in the activated variant */
    dl_annot_indirect_range at;   /* the entries of P the launch reads  */
    dl_reorder_key key;
    uint64_t version_a, version_p;
    cl_mem a_prime; /* retained: the copy the variant reads             */
    cl_event ready; /* retained: completes when a_prime is written      */
    int gather;     /* not cached: gathered at this launch              */
    size_t bytes;   /* of a_prime                                        */
} gather_job;

#endif
