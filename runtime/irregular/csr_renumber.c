/* csr_renumber.c - a CSR matrix renumbered symmetrically (csr_renumber.h):
 * rows copied whole in their new order, columns mapped through perm. */
#include "csr_renumber.h"
#include "error.h"

#include <string.h>

dl_status dl_csr_check(const int32_t *rowptr, const int32_t *col, size_t n,
                       size_t count)
{
    DL_RETURN_ERROR_ON(!rowptr || (!col && count), DL_INVALID_ARGUMENT,
                       "csr: NULL matrix");
    DL_RETURN_ERROR_ON(n >= INT32_MAX, DL_UNSUPPORTED, "csr: %zu vertices", n);
    DL_RETURN_ERROR_ON(rowptr[0] != 0, DL_INVALID_ARGUMENT,
                       "csr: rowptr[0] is %d", (int)rowptr[0]);
    for (size_t v = 0; v < n; v++)
        DL_RETURN_ERROR_ON(rowptr[v + 1] < rowptr[v], DL_INVALID_ARGUMENT,
                           "csr: row %zu ends before it starts", v);
    DL_RETURN_ERROR_ON((size_t)rowptr[n] > count, DL_INVALID_ARGUMENT,
                       "csr: the rows end at %d, past the %zu entries",
                       (int)rowptr[n], count);
    for (int32_t k = 0; k < rowptr[n]; k++)
        DL_RETURN_ERROR_ON(
            col[k] < 0 || (size_t)col[k] >= n, DL_INVALID_ARGUMENT,
            "csr: entry %d's column %d is not a vertex", (int)k, (int)col[k]);
    return DL_SUCCESS;
}

dl_status dl_csr_invert(const size_t *perm, size_t n, size_t *inv)
{
    for (size_t v = 0; v < n; v++)
        inv[v] = SIZE_MAX;
    for (size_t v = 0; v < n; v++) {
        DL_RETURN_ERROR_ON(perm[v] >= n || inv[perm[v]] != SIZE_MAX,
                           DL_INVALID_ARGUMENT,
                           "csr: not a permutation (vertex %zu)", v);
        inv[perm[v]] = v;
    }
    return DL_SUCCESS;
}

void dl_csr_renumber(const int32_t *rowptr, const int32_t *col, size_t n,
                     const size_t *perm, const size_t *inv, int32_t *rowptr_out,
                     int32_t *col_out)
{
    rowptr_out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t v = inv[i];
        int32_t at = rowptr_out[i];
        for (int32_t k = rowptr[v]; k < rowptr[v + 1]; k++)
            col_out[at++] = (int32_t)perm[col[k]];
        rowptr_out[i + 1] = at;
    }
}

void dl_csr_renumber_entries(const int32_t *rowptr, size_t n, const size_t *inv,
                             const void *in, size_t elem_bytes, void *out)
{
    unsigned char *to = out;
    for (size_t i = 0; i < n; i++) {
        size_t v = inv[i], len = (size_t)(rowptr[v + 1] - rowptr[v]);
        memcpy(to, (const unsigned char *)in + (size_t)rowptr[v] * elem_bytes,
               len * elem_bytes);
        to += len * elem_bytes;
    }
}
