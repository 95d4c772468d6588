/* coalesce.h - the coalescing analyser inside dlayout: the public API of
 * dlayout_irregular.h plus what the runtime's reports share. */
#ifndef DL_COALESCE_H
#define DL_COALESCE_H

#include "dlayout_irregular.h"

/* Transactions per warp-access; 0 when there were no accesses. */
double dl_coalesce_per_access(uint64_t transactions, uint64_t accesses);

/* How many fewer transactions `after` has than `before`, in percent of
 * before (negative: more); 0 when before is 0. */
double dl_coalesce_saving_percent(const dl_coalesce_counts *counts);

#endif
