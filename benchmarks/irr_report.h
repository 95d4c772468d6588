/* irr_report.h - the CSV rows of `dl-bench irregular`: per workload and
 * reference, a row per method and geometry (none, duplication, and the
 * methods of irr_method.h that apply), with the selector's choice
 * (irr_report.c; the columns in benchmarks/README.md). */
#ifndef DL_IRR_REPORT_H
#define DL_IRR_REPORT_H

#include "irr_run.h"

void irr_report_header(void);
/* Runs w with every method, prints its rows and frees it: 1 verified, 0
 * not, -1 failed. */
int irr_report_workload(irr_device *d, irr_workload *w, size_t iterations,
                        uint64_t seed);

#endif
