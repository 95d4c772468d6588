/* irr_method.h - the methods without full duplication on a workload of
 * `dl-bench irregular` (docs/irregular.md, "Results"): remap (METIS,
 * remap.h), job swap (job_swap.h), sharing (sharing.h) and padding
 * (padding.h).  Each layout is planned on the host and uploaded; the
 * variant is a kernel of irregular.cl written by hand that reads through
 * the method's index with each job's arithmetic unchanged, so that its
 * output is byte-identical to the plain kernel's (irr_run.c checks).
 *
 * A variant is a workload of its own (irr_workload) that borrows the
 * buffers of the one it derives from, adds the method's, and names them
 * in `upload`: the reorganisation timed on the device is their upload. */
#ifndef DL_IRR_METHOD_H
#define DL_IRR_METHOD_H

#include "irr_workload.h"
#include "selector.h"

typedef struct irr_variant {
    dl_irregular_method method;
    const char *why;    /* NULL when planned; else why the method does not
                           apply to this workload */
    irr_workload w;     /* plain = the base's kernel, redirect = the method's */
    double plan_s;      /* host planning time (the layout built on the host) */
    size_t data_bytes;  /* copies of A's elements beyond A (padding, sharing) */
    size_t index_bytes; /* index and job maps the variant adds */
    /* What the analyser counts: the index the variant's kernel reads A
     * through, like `ref` (its range, or its rowptr lane by lane)... */
    irr_ref cref;
    int32_t *cidx, *crowptr;
    size_t ccount;
    /* ... or, for sharing, the coalesced block copies of each group. */
    int32_t *bpos, *bsize;
    size_t groups, group; /* groups of `group` work-items */
} irr_variant;

/* What a plan needs of the device. */
typedef struct irr_method_env {
    size_t group;       /* work-items per group of the run (irr_run.c) */
    size_t local_bytes; /* CL_DEVICE_LOCAL_MEM_SIZE */
    uint64_t seed;
} irr_method_env;

/* Plans `method` for reference 0 of w; 0 when out of memory or a planner
 * failed (dl_last_error() says why).  A method that does not apply comes
 * back with `why` set and nothing to run. */
int irr_variant_build(const irr_workload *w, dl_irregular_method method,
                      const irr_method_env *env, irr_variant *out);
/* The transactions of the variant's reference at geometry g: `before`
 * holds them (and `accesses` its warp-accesses). */
int irr_variant_count(const irr_variant *v, const irr_workload *base,
                      const dl_coalesce_geometry *g, dl_coalesce_counts *out);
void irr_variant_free(irr_variant *v);

/* For the planners (irr_methods*.c): the variant's workload, running
 * `kernel`, borrowing w's buffers; a buffer added to it and uploaded by
 * the reorganisation (its slot); malloc of n (at least 1) elements. */
void irr_variant_derive(const irr_workload *w, const char *kernel,
                        irr_variant *v);
int irr_variant_upload(irr_variant *v, void *host, size_t bytes);
void *irr_alloc_n(size_t n, size_t size);
/* The lanes of a CSR reference (r->rowptr over `rows` work-items) as an
 * ELL-ordered index, -1 past a row's end, with its affine range. */
int32_t *irr_csr_lanes(const irr_ref *r, const int32_t *p, size_t rows,
                       dl_coalesce_range *range, size_t *count);
/* Sharing (column-major ELL SpMV) and padding (records, via p). */
int irr_plan_sharing(const irr_workload *w, const irr_method_env *env,
                     irr_variant *v);
int irr_plan_padding(const irr_workload *w, irr_variant *v);

#endif
