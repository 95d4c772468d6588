/* jobs.h - binding a kernel's jobs key ("jobs: by E[hi] - B[lo]",
 * annotation_grammar.h's pending form) to its kernel; used by
 * annotations.c. */
#ifndef DL_ANNOT_JOBS_H
#define DL_ANNOT_JOBS_H

#include "annotation_grammar.h"

/* Binds p's key terms to k's arguments (once per kernel). */
dl_status dl_annot_resolve_jobs(const dl_annot_pending *p, dl_annot_kernel *k);

/* Frees what k's jobs key owns. */
void dl_annot_jobs_free(dl_annot_kernel *k);

#endif
