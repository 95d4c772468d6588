/* permute_order.c - where the permutation layout's pi comes from without
 * METIS: the first-touch order of the index array.  Elements are laid out
 * in the order the entries of P first name them, so that consecutive
 * entries (consecutive work-items) read neighbouring elements, and the
 * elements P never names follow in their own order. */
#include "permute.h"
#include "internal.h"

#include <stdlib.h>

static int64_t entry(const void *p, unsigned index_bytes, size_t i)
{
    return index_bytes == 4 ? ((const int32_t *)p)[i] : ((const int64_t *)p)[i];
}

dl_status dl_perm_first_touch(const void *p, size_t count, unsigned index_bytes,
                              size_t n, uint32_t *pi)
{
    DL_RETURN_ERROR_ON(
        index_bytes != 4 && index_bytes != 8, DL_INVALID_ARGUMENT,
        "permute: index entries of %u bytes (4 or 8)", index_bytes);
    DL_RETURN_ERROR_ON(n > UINT32_MAX, DL_INVALID_ARGUMENT,
                       "permute: %zu elements (at most 2^32 - 1)", n);
    DL_RETURN_ERROR_ON((count && !p) || (n && !pi), DL_INVALID_ARGUMENT,
                       "permute: NULL argument");
    unsigned char *placed = calloc(n ? n : 1, 1);
    DL_RETURN_ERROR_ON(!placed, DL_OUT_OF_MEMORY,
                       "permute: first touches of %zu elements", n);
    uint32_t next = 0;
    for (size_t i = 0; i < count; i++) {
        int64_t v = entry(p, index_bytes, i);
        if (v < 0 || (uint64_t)v >= n || placed[v])
            continue; /* outside A: the kernel reads no element of A */
        placed[v] = 1;
        pi[v] = next++;
    }
    for (size_t x = 0; x < n; x++)
        if (!placed[x])
            pi[x] = next++;
    free(placed);
    return DL_SUCCESS;
}
