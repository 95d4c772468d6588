/* selector.h - which method serves one irregular reference (000 section
 * 4, issue 20): none, duplication, padding, sharing, remap or job swap.
 * A pure function of what the caller knows: the analyser's predicted
 * transactions and the memory of each method's plan, the budget, whether
 * the kernel writes A, whether moving work-items would disturb the
 * kernel's other references, and measured times where there are some.
 * docs/irregular.md ("Choosing a method") gives the decision table. */
#ifndef DL_SELECTOR_H
#define DL_SELECTOR_H

#include "dlayout.h"

#include <stddef.h>
#include <stdint.h>

typedef enum dl_irregular_method {
    DL_METHOD_NONE = 0,    /* the reference as written */
    DL_METHOD_DUPLICATION, /* A'[e] = A[P[e] + c] (gather.h) */
    DL_METHOD_PADDING,     /* padding.h: moves work-items */
    DL_METHOD_SHARING,     /* sharing.h: __local copies per group */
    DL_METHOD_REMAP,       /* A permuted in place, P redirected */
    DL_METHOD_JOB_SWAP,    /* job_swap.h: moves work-items, no data */
    DL_METHOD_COUNT
} dl_irregular_method;

/* "none", "duplication", "padding", "sharing", "remap", "job swap". */
const char *dl_irregular_method_name(dl_irregular_method method);

/* What is known of one method for this reference.  Times are seconds, a
 * negative time is unknown. */
typedef struct dl_method_estimate {
    int available;         /* planned: applicable and built (remap: METIS
                              present; sharing: the largest block fits the
                              device's __local memory) */
    uint64_t transactions; /* predicted per launch (the analyser on the
                              method's layout) */
    size_t bytes;          /* device memory the method adds: copies, index
                              and job maps */
    double reorg_s;        /* measured time to build it */
    double kernel_s;       /* measured kernel time with it */
    const char *why_not;   /* where not available: why, else NULL ("not
                              planned") */
} dl_method_estimate;

typedef struct dl_selector_input {
    /* [DL_METHOD_NONE] is the reference as written: its transactions and
     * measured kernel time are the baseline (it is always available). */
    dl_method_estimate method[DL_METHOD_COUNT];
    size_t budget_bytes;  /* DL_GATHER_BUDGET in bytes (gather.h) */
    int a_written;        /* the kernel (or a later one before P changes)
                             writes A: copies would go stale */
    int others_disturbed; /* other references of the kernel index by the
                             work-item id: moving work-items makes them
                             irregular.  The sharing estimate must then be
                             the unclustered plan's. */
    unsigned reuse;       /* launches one reorganisation serves (the
                             versioned cache's reuse); 0 counts as 1 */
} dl_selector_input;

typedef struct dl_selection {
    dl_irregular_method method;
    char reason[320]; /* why, for the log's info line (truncated) */
} dl_selection;

/* Chooses a method.  Deterministic: the same input gives the same output. */
void dl_select_method(const dl_selector_input *in, dl_selection *out);

#endif
