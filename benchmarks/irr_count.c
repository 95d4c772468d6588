/* irr_count.c - the memory transactions of a workload's reference with the
 * analyser on its actual index array: before, reading A[P[e]], and after,
 * reading the A' its redirected kernel reads.
 *
 * An affine range (ELL, the neighbour list, the records) is
 * dl_coalesce_count's case; a CSR row (lane t at step j reads entry
 * rowptr[t] + j while j < its row's length) is dl_coalesce_count_rows's.
 * In both the kernel reads A'[e] for the e of P it read, and the
 * analyser's `after` is exactly that. */
#include "irr_count.h"

static int count_csr(const dl_coalesce_geometry *g, const irr_ref *r,
                     const int32_t *col, size_t count, size_t rows,
                     dl_coalesce_counts *out)
{
    dl_coalesce_rows bounds = {rows, r->rowptr, r->rowptr + 1, 4};
    return dl_coalesce_count_rows(g, &r->ref, &bounds, col, count, 4, out) ==
           DL_SUCCESS;
}

int irr_count_index(const dl_coalesce_geometry *g, const irr_ref *r,
                    const int32_t *index, size_t count, size_t threads,
                    dl_coalesce_counts *out)
{
    if (r->rowptr)
        return count_csr(g, r, index, count, threads, out);
    return dl_coalesce_count(g, &r->ref, &r->range, index, count, 4, out) ==
           DL_SUCCESS;
}

int irr_count(const irr_workload *wl, const irr_ref *r,
              const dl_coalesce_geometry *g, dl_coalesce_counts *out)
{
    const irr_buf *p = &wl->bufs[r->p];
    return irr_count_index(g, r, p->host, p->bytes / sizeof(int32_t),
                           wl->threads, out);
}
