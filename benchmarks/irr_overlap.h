/* irr_overlap.h - the overlap columns of `dl-bench irregular` (issue 19,
 * piece 5; docs/irregular.md, "Chunked launches"): duplication's gathers
 * and redirected kernel run as one chunk (gather, then kernel) and as
 * IRR_OVERLAP_CHUNKS chunks of whole work-groups whose gathers run on a
 * second queue while the previous chunk computes, both timed on the host
 * clock around enqueue and completion (two queues: no single device
 * clock), medians over the repetitions. */
#ifndef DL_IRR_OVERLAP_H
#define DL_IRR_OVERLAP_H

#include "irr_run.h"

#define IRR_OVERLAP_CHUNKS 4

/* Whether w's duplication can run in chunks: no uploads, every range's
 * work-item t is the launch's work-item t, and distinct work-items read
 * distinct entries of P (so a chunk's gathers write only its own), in
 * one interval per chunk or in at most 64 runs (column-major ELL up to 64
 * entries a row; R-MAT's 1,842 are left out). */
int irr_overlap_applies(const irr_workload *w);

/* The two timings (seconds) of w's gathers and redirected kernel
 * `redirect` over `global` work-items in groups of `local`, with w's
 * buffers `mem`; *same: the chunked output equals `want` (w->out's
 * plain bytes).  0 (and a message) on failure. */
int irr_overlap_time(irr_device *d, const irr_workload *w, cl_mem *mem,
                     cl_kernel redirect, size_t global, size_t local,
                     const unsigned char *want, double *whole, double *net,
                     int *same);

#endif
