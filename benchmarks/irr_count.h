/* irr_count.h - the transactions of one reference of a workload of
 * `dl-bench irregular`, before and after redirection (irr_count.c). */
#ifndef DL_IRR_COUNT_H
#define DL_IRR_COUNT_H

#include "irr_workload.h"

/* 1 with *out set, 0 (dl_last_error() says why) on failure. */
int irr_count(const irr_workload *w, const irr_ref *r,
              const dl_coalesce_geometry *g, dl_coalesce_counts *out);

/* The same for another index array read like r's P (r's range, or its
 * rowptr lane by lane over `threads` rows). */
int irr_count_index(const dl_coalesce_geometry *g, const irr_ref *r,
                    const int32_t *index, size_t count, size_t threads,
                    dl_coalesce_counts *out);

#endif
