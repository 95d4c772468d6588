/* freq_order.h - jobs regrouped by the element they read, most read first:
 * the first two steps of the padding algorithm (000, section 3.3.2),
 * shared with sharing's clustering (section 3.4).
 *
 * Job i reads element elem[i] (A[P[i] + c]: elem[i] = P[i] + c).  The
 * distinct elements are ordered by their access frequency, the number of
 * jobs reading them, most first; ties go to the element whose first
 * reader comes first, so the order is exact and deterministic.  The jobs
 * are then listed element by element in that order, each element's jobs
 * in their original order: job[t] is the job work-item t runs (R). */
#ifndef DL_FREQ_ORDER_H
#define DL_FREQ_ORDER_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dl_freq_order {
    size_t jobs;     /* n */
    size_t distinct; /* distinct elements */
    int64_t *value;  /* [distinct] the elements, most frequent first */
    size_t *count;   /* [distinct] jobs reading each */
    size_t *job;     /* [jobs] R: work-item t runs job job[t] */
    size_t *rank;    /* [jobs] rank[t]: value[rank[t]] = elem[job[t]] */
} dl_freq_order;

/* Builds the order of n jobs (n may be 0; elem may then be NULL).
 * DL_OUT_OF_MEMORY when the arrays cannot be allocated. */
dl_status dl_freq_order_build(const int64_t *elem, size_t n,
                              dl_freq_order *out);
void dl_freq_order_free(dl_freq_order *order);

#endif
