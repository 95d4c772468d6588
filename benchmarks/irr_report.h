/* irr_report.h - the CSV rows of `dl-bench irregular`: per workload and
 * reference, a row per method and geometry (none, duplication, and the
 * methods of irr_method.h that apply), with the selector's choice
 * (irr_report.c; the columns in benchmarks/README.md). */
#ifndef DL_IRR_REPORT_H
#define DL_IRR_REPORT_H

#include "irr_run.h"
#include "selector.h"

/* One method's row of one reference. */
typedef struct irr_mrow {
    dl_irregular_method m;
    dl_coalesce_counts c[2]; /* gpu, device: `before` is the method's */
    dl_coalesce_geometry g[2];
    size_t data, index;
    double plan, reorg, kernel; /* seconds */
    double whole, overlapped;   /* duplication's (irr_times); 0: none */
    int verified;
} irr_mrow;

/* The rows of one reference: row[0] is `none`. */
typedef struct irr_refrows {
    const irr_workload *w;
    const irr_ref *r;
    double plain;
    size_t iterations;
    int a_written; /* the kernel writes A (the loops): for the selector */
    irr_mrow row[DL_METHOD_COUNT];
    int n;
    dl_irregular_method selected;
} irr_refrows;

void irr_report_header(void);
/* The geometries of r's rows: GPU class and the device's; 0 on failure. */
int irr_report_geometries(irr_device *d, const irr_ref *r, irr_mrow *m);
/* Selects a method for x (logged) and prints its rows: 1 when every row
 * is verified, else 0. */
int irr_report_rows(irr_device *d, irr_refrows *x);
/* Runs w with every method, prints its rows and frees it: 1 verified, 0
 * not, -1 failed. */
int irr_report_workload(irr_device *d, irr_workload *w, size_t iterations,
                        uint64_t seed);

#endif
