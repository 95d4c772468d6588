/* freq_order.c - the frequency order of freq_order.h: one sort of (element,
 * job) pairs finds each element's readers, a second sort of the distinct
 * elements by (frequency, first reader) orders them. */
#include "freq_order.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

typedef struct reader {
    int64_t value;
    size_t job;
} reader;

/* One distinct element: its readers are sorted[start, start + count),
 * the first of them job `first`. */
typedef struct element_run {
    size_t start, count, first;
} element_run;

static int by_value_then_job(const void *pa, const void *pb)
{
    const reader *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return (a->job > b->job) - (a->job < b->job);
}

static int by_frequency_then_first(const void *pa, const void *pb)
{
    const element_run *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return (a->first > b->first) - (a->first < b->first);
}

static dl_status no_memory(size_t n)
{
    return dl_fail(DL_OUT_OF_MEMORY,
                   "frequency order: no memory for %zu "
                   "jobs",
                   n);
}

/* The runs of equal values in the sorted readers; returns their number. */
static size_t find_runs(const reader *sorted, size_t n, element_run *runs)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || sorted[i].value != sorted[i - 1].value)
            runs[d++] = (element_run){i, 0, sorted[i].job};
        runs[d - 1].count++;
    }
    return d;
}

static void fill_order(const reader *sorted, const element_run *runs,
                       dl_freq_order *out)
{
    size_t t = 0;
    for (size_t r = 0; r < out->distinct; r++) {
        out->value[r] = sorted[runs[r].start].value;
        out->count[r] = runs[r].count;
        for (size_t i = 0; i < runs[r].count; i++, t++) {
            out->job[t] = sorted[runs[r].start + i].job;
            out->rank[t] = r;
        }
    }
}

static int allocate(dl_freq_order *o, size_t n)
{
    size_t m = n ? n : 1;
    o->value = malloc(m * sizeof *o->value);
    o->count = malloc(m * sizeof *o->count);
    o->job = malloc(m * sizeof *o->job);
    o->rank = malloc(m * sizeof *o->rank);
    return o->value && o->count && o->job && o->rank ? 0 : -1;
}

dl_status dl_freq_order_build(const int64_t *elem, size_t n, dl_freq_order *out)
{
    DL_RETURN_ERROR_ON(!out || (!elem && n), DL_INVALID_ARGUMENT,
                       "frequency order: NULL argument");
    memset(out, 0, sizeof *out);
    if (n > SIZE_MAX / sizeof(reader))
        return no_memory(n);
    reader *sorted = malloc((n ? n : 1) * sizeof *sorted);
    element_run *runs = malloc((n ? n : 1) * sizeof *runs);
    if (!sorted || !runs || allocate(out, n) != 0) {
        free(sorted);
        free(runs);
        dl_freq_order_free(out);
        return no_memory(n);
    }
    for (size_t i = 0; i < n; i++)
        sorted[i] = (reader){elem[i], i};
    qsort(sorted, n, sizeof *sorted, by_value_then_job);
    out->jobs = n;
    out->distinct = find_runs(sorted, n, runs);
    qsort(runs, out->distinct, sizeof *runs, by_frequency_then_first);
    fill_order(sorted, runs, out);
    free(sorted);
    free(runs);
    return DL_SUCCESS;
}

void dl_freq_order_free(dl_freq_order *order)
{
    if (!order)
        return;
    free(order->value);
    free(order->count);
    free(order->job);
    free(order->rank);
    memset(order, 0, sizeof *order);
}
