/* rcm.c - the Reverse Cuthill-McKee order (rcm.h): breadth first from a
 * vertex of least row length in each component, each vertex's new
 * neighbours queued by increasing row length (then number), the walk's
 * order reversed. */
#include "rcm.h"
#include "csr_renumber.h"
#include "error.h"

#include <stdlib.h>

/* A neighbour to queue: row length in the high half, number in the low,
 * so that sorting the keys sorts by length, then number. */
static uint64_t key(const int32_t *rowptr, uint32_t v)
{
    return (uint64_t)(uint32_t)(rowptr[v + 1] - rowptr[v]) << 32 | v;
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static size_t longest_row(const int32_t *rowptr, size_t n)
{
    size_t longest = 0;
    for (size_t v = 0; v < n; v++) {
        size_t len = (size_t)(rowptr[v + 1] - rowptr[v]);
        longest = len > longest ? len : longest;
    }
    return longest;
}

/* The vertices by increasing row length, then number (a counting sort
 * through count[longest + 2], zeroed): where each component's walk may
 * start. */
static void by_length(const int32_t *rowptr, size_t n, size_t longest,
                      uint32_t *out, size_t *count)
{
    for (size_t v = 0; v < n; v++)
        count[rowptr[v + 1] - rowptr[v] + 1]++;
    for (size_t i = 1; i <= longest + 1; i++)
        count[i] += count[i - 1];
    for (size_t v = 0; v < n; v++)
        out[count[rowptr[v + 1] - rowptr[v]]++] = (uint32_t)v;
}

/* The walk from `start`: appends its component to order[*tail..),
 * marking each queued vertex in `seen`. */
static void walk(const int32_t *rowptr, const int32_t *col, uint32_t start,
                 uint32_t *order, size_t *tail, unsigned char *seen,
                 uint64_t *next)
{
    size_t head = *tail;
    order[(*tail)++] = start;
    seen[start] = 1;
    while (head < *tail) {
        uint32_t u = order[head++];
        size_t m = 0;
        for (int32_t k = rowptr[u]; k < rowptr[u + 1]; k++) {
            uint32_t w = (uint32_t)col[k];
            if (!seen[w]) {
                seen[w] = 1;
                next[m++] = key(rowptr, w);
            }
        }
        qsort(next, m, sizeof *next, by_key);
        for (size_t i = 0; i < m; i++)
            order[(*tail)++] = (uint32_t)next[i];
    }
}

dl_status dl_rcm_order(const int32_t *rowptr, const int32_t *col, size_t n,
                       size_t *perm)
{
    DL_RETURN_ERROR_ON(!perm, DL_INVALID_ARGUMENT, "rcm: NULL permutation");
    DL_RETURN_IF_FAIL(dl_csr_check(rowptr, col, n, rowptr ? rowptr[n] : 0));
    uint32_t *order = malloc((n + 1) * sizeof *order);
    uint32_t *starts = malloc((n + 1) * sizeof *starts);
    size_t longest = longest_row(rowptr, n);
    size_t *count = calloc(longest + 2, sizeof *count);
    unsigned char *seen = calloc(n + 1, 1);
    uint64_t *next = malloc((n + 1) * sizeof *next);
    dl_status st = DL_SUCCESS;
    if (!order || !starts || !count || !seen || !next)
        st = dl_fail(DL_OUT_OF_MEMORY, "rcm: no memory to order %zu vertices",
                     n);
    else {
        by_length(rowptr, n, longest, starts, count);
        size_t tail = 0;
        for (size_t i = 0; i < n; i++)
            if (!seen[starts[i]])
                walk(rowptr, col, starts[i], order, &tail, seen, next);
        for (size_t i = 0; i < n; i++)
            perm[order[i]] = n - 1 - i;
    }
    free(order);
    free(starts);
    free(count);
    free(seen);
    free(next);
    return st;
}
