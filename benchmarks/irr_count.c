/* irr_count.c - the memory transactions of a workload's reference with the
 * analyser (dl_coalesce_count) on its actual index array: before, reading
 * A[P[e]], and after, reading the A' its redirected kernel reads.
 *
 * An affine range (ELL, the neighbour list, the records) is the analyser's
 * own case: the kernel reads A'[e] for the e of P it read, and the
 * analyser's `after` is exactly that.  A CSR row is not affine: lane t at
 * step j reads entry rowptr[t] + j while j < its row's length.  It is
 * counted one step at a time, as a P of one entry per lane holding the
 * element read (col[k] before, k after: A' is indexed like col).  A lane
 * past its row's end is inactive; it is given the element of an active
 * lane of its warp, which adds no segment, and a warp-step with no active
 * lane is given element 0 and then taken out of the counts (it cost one
 * access and one transaction, before and after). */
#include "irr_count.h"

#include <stdlib.h>

static int32_t row_length(const int32_t *rowptr, size_t t)
{
    return rowptr[t + 1] - rowptr[t];
}

/* Fills step j of warp [w0, w1): 1 if a lane is active. */
static int fill_warp(const irr_ref *r, const int32_t *col, size_t w0, size_t w1,
                     int32_t j, int32_t *before, int32_t *after)
{
    const int32_t *rowptr = r->rowptr;
    size_t lead = w1;
    for (size_t t = w0; t < w1 && lead == w1; t++)
        if (j < row_length(rowptr, t))
            lead = t;
    int32_t kb = 0, ka = 0;
    if (lead < w1) {
        ka = rowptr[lead] + j;
        kb = col[ka];
    }
    for (size_t t = w0; t < w1; t++) {
        int active = j < row_length(rowptr, t);
        after[t] = active ? rowptr[t] + j : ka;
        before[t] = active ? col[rowptr[t] + j] : kb;
    }
    return lead < w1;
}

static int32_t longest_row(const int32_t *rowptr, size_t rows)
{
    int32_t width = 0;
    for (size_t t = 0; t < rows; t++)
        if (row_length(rowptr, t) > width)
            width = row_length(rowptr, t);
    return width;
}

/* One step's counts added to *out; 0 on the analyser's failure. */
static int count_step(const dl_coalesce_geometry *g, const irr_ref *r,
                      const int32_t *before, const int32_t *after, size_t rows,
                      uint64_t empty, dl_coalesce_counts *out)
{
    dl_coalesce_range one = {rows, 1, 0, 1, 0};
    dl_coalesce_counts b, a;
    if (dl_coalesce_count(g, &r->ref, &one, before, rows, 4, &b) !=
            DL_SUCCESS ||
        dl_coalesce_count(g, &r->ref, &one, after, rows, 4, &a) != DL_SUCCESS)
        return 0;
    out->accesses += b.accesses - empty;
    out->before += b.before - empty;
    out->after += a.before - empty;
    return 1;
}

static int count_csr(const dl_coalesce_geometry *g, const irr_ref *r,
                     const int32_t *col, size_t rows, dl_coalesce_counts *out)
{
    int32_t *before = malloc((rows ? rows : 1) * sizeof *before);
    int32_t *after = malloc((rows ? rows : 1) * sizeof *after);
    int ok = before && after;
    int32_t width = longest_row(r->rowptr, rows);
    size_t w = g->simd_width;
    *out = (dl_coalesce_counts){0, 0, 0};
    for (int32_t j = 0; ok && j < width; j++) {
        uint64_t empty = 0;
        for (size_t w0 = 0; w0 < rows; w0 += w)
            empty += !fill_warp(r, col, w0, w0 + w < rows ? w0 + w : rows, j,
                                before, after);
        ok = count_step(g, r, before, after, rows, empty, out);
    }
    free(before);
    free(after);
    return ok;
}

int irr_count_index(const dl_coalesce_geometry *g, const irr_ref *r,
                    const int32_t *index, size_t count, size_t threads,
                    dl_coalesce_counts *out)
{
    if (r->rowptr)
        return count_csr(g, r, index, threads, out);
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
