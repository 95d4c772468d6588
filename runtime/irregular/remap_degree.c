/* remap_degree.c - the degree order of a graph loop's symmetric
 * renumbering (remap.h, dl_remap_degree_order): vertices by decreasing row
 * length, ties by their columns' ranks, compared in row order.  Sorted by
 * a stable merge sort of vertex numbers with a comparator that needs the
 * matrix (qsort has no context). */
#include "remap.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

/* The rows are sorted twice: by their columns' ranks in frequency, then
 * by the positions that sort gave the columns, which is where they lie
 * (R-MAT 2^13: 31% fewer transactions after one pass, 32% after two). */
#define RANK_PASSES 2

typedef struct degree_sort {
    const int32_t *rowptr, *col;
    const uint32_t *freq; /* rows reading each vertex as a column */
    const uint32_t *rank; /* 0 for the most read column; NULL while the
                             columns themselves are ranked */
} degree_sort;

static int32_t row_length(const degree_sort *s, uint32_t v)
{
    return s->rowptr[v + 1] - s->rowptr[v];
}

/* The columns' ranking: more frequent first, then the lower number. */
static int by_frequency(const degree_sort *s, uint32_t a, uint32_t b)
{
    if (s->freq[a] != s->freq[b])
        return s->freq[a] > s->freq[b] ? -1 : 1;
    return (a > b) - (a < b);
}

/* The rows' order: longer first, then the ranks of their columns step by
 * step (a warp's lanes read their j-th columns together), then the lower
 * number. */
static int by_row(const degree_sort *s, uint32_t a, uint32_t b)
{
    int32_t la = row_length(s, a), lb = row_length(s, b);
    if (la != lb)
        return la > lb ? -1 : 1;
    const int32_t *ca = &s->col[s->rowptr[a]], *cb = &s->col[s->rowptr[b]];
    for (int32_t j = 0; j < la; j++) {
        uint32_t ra = s->rank[ca[j]], rb = s->rank[cb[j]];
        if (ra != rb)
            return ra < rb ? -1 : 1;
    }
    return (a > b) - (a < b);
}

static int compare(const degree_sort *s, uint32_t a, uint32_t b)
{
    return s->rank ? by_row(s, a, b) : by_frequency(s, a, b);
}

/* Stable merge sort of v[0 .. n) through tmp. */
static void merge_sort(const degree_sort *s, uint32_t *v, uint32_t *tmp,
                       size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(s, v, tmp, h);
    merge_sort(s, v + h, tmp, n - h);
    while (i < h && j < n)
        tmp[k++] = compare(s, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    memcpy(v, tmp, k * sizeof *v);
}

static void sorted_vertices(const degree_sort *s, size_t n, uint32_t *v,
                            uint32_t *tmp)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)i;
    merge_sort(s, v, tmp, n);
}

static dl_status check_matrix(const int32_t *rowptr, const int32_t *col,
                              size_t n)
{
    DL_RETURN_ERROR_ON(!rowptr || (!col && rowptr[n] > 0), DL_INVALID_ARGUMENT,
                       "remap: NULL matrix");
    DL_RETURN_ERROR_ON(n >= UINT32_MAX, DL_UNSUPPORTED, "remap: %zu vertices",
                       n);
    DL_RETURN_ERROR_ON(rowptr[0] != 0, DL_INVALID_ARGUMENT,
                       "remap: rowptr[0] is %d", (int)rowptr[0]);
    for (size_t v = 0; v < n; v++)
        DL_RETURN_ERROR_ON(rowptr[v + 1] < rowptr[v], DL_INVALID_ARGUMENT,
                           "remap: row %zu ends before it starts", v);
    for (int32_t k = 0; k < rowptr[n]; k++)
        DL_RETURN_ERROR_ON(
            col[k] < 0 || (size_t)col[k] >= n, DL_INVALID_ARGUMENT,
            "remap: entry %d's column %d is not a vertex", (int)k, (int)col[k]);
    return DL_SUCCESS;
}

dl_status dl_remap_degree_order(const int32_t *rowptr, const int32_t *col,
                                size_t n, size_t *perm)
{
    DL_RETURN_ERROR_ON(!perm, DL_INVALID_ARGUMENT, "remap: NULL permutation");
    DL_RETURN_IF_FAIL(check_matrix(rowptr, col, n));
    uint32_t *freq = calloc(n + 1, sizeof *freq);
    uint32_t *rank = malloc((n + 1) * sizeof *rank);
    uint32_t *v = malloc((n + 1) * sizeof *v);
    uint32_t *tmp = malloc((n + 1) * sizeof *tmp);
    dl_status st = DL_SUCCESS;
    if (!freq || !rank || !v || !tmp)
        st = dl_fail(DL_OUT_OF_MEMORY, "remap: no memory to order %zu vertices",
                     n);
    else {
        for (int32_t k = 0; k < rowptr[n]; k++)
            freq[col[k]]++;
        degree_sort s = {rowptr, col, freq, NULL};
        sorted_vertices(&s, n, v, tmp);
        s.rank = rank;
        for (int pass = 0; pass < RANK_PASSES; pass++) {
            for (size_t i = 0; i < n; i++)
                rank[v[i]] = (uint32_t)i;
            sorted_vertices(&s, n, v, tmp);
        }
        for (size_t i = 0; i < n; i++)
            perm[v[i]] = i;
    }
    free(freq);
    free(rank);
    free(v);
    free(tmp);
    return st;
}
