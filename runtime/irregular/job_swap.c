/* job_swap.c - the job maps of job_swap.h.  By segment: one sort groups
 * the jobs by segment (the categories C_i), whole warps are cut from each
 * category, and the residual sets R_i (fewer than W jobs each) are kept in
 * lists by size, so that the largest and the smallest are found in O(W). */
#include "job_swap.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

typedef struct keyed_job {
    int64_t key;
    size_t job;
} keyed_job;

static int by_key_then_job(const void *pa, const void *pb)
{
    const keyed_job *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->job > b->job) - (a->job < b->job);
}

/* Floor division: negative elements fall in negative segments. */
static int64_t segment_of(int64_t v, int64_t e)
{
    int64_t q = v / e;
    return (v % e != 0 && v < 0) ? q - 1 : q;
}

/* A residual set: the jobs sorted[start, start + len), and the next set
 * of the same size. */
typedef struct residual {
    size_t start, len, next;
} residual;

#define NONE SIZE_MAX

/* Residual sets in lists by size, 1..W-1 (FIFO; a split set goes first). */
typedef struct residual_lists {
    residual *set;
    size_t *head, *tail; /* [W] */
    size_t w;
} residual_lists;

static void push(residual_lists *l, size_t i, int front)
{
    size_t s = l->set[i].len;
    l->set[i].next = NONE;
    if (l->head[s] == NONE) {
        l->head[s] = l->tail[s] = i;
    } else if (front) {
        l->set[i].next = l->head[s];
        l->head[s] = i;
    } else {
        l->set[l->tail[s]].next = i;
        l->tail[s] = i;
    }
}

/* Takes the first set of the largest (or smallest) size; NONE if empty. */
static size_t pop(residual_lists *l, int largest)
{
    for (size_t k = 1; k < l->w; k++) {
        size_t s = largest ? l->w - k : k;
        size_t i = l->head[s];
        if (i != NONE) {
            l->head[s] = l->set[i].next;
            return i;
        }
    }
    return NONE;
}

/* Moves up to `room` jobs of set i into job[]; a remainder goes back to
 * the front of its new size's list.  Returns the jobs moved. */
static size_t take(residual_lists *l, size_t i, size_t room,
                   const keyed_job *sorted, size_t *job, size_t *pos)
{
    residual *r = &l->set[i];
    size_t k = r->len < room ? r->len : room;
    for (size_t j = 0; j < k; j++)
        job[(*pos)++] = sorted[r->start + j].job;
    r->start += k;
    r->len -= k;
    if (r->len)
        push(l, i, 1);
    return k;
}

/* The greedy packing of 002 section 4.1: the largest residual set into an
 * empty warp, filled up from the smallest sets. */
static void pack_residuals(residual_lists *l, size_t left,
                           const keyed_job *sorted, size_t *job, size_t *pos)
{
    while (left) {
        size_t room = left < l->w ? left : l->w;
        size_t moved = take(l, pop(l, 1), room, sorted, job, pos);
        while (moved < room)
            moved += take(l, pop(l, 0), room - moved, sorted, job, pos);
        left -= room;
    }
}

/* Whole warps of each category go to job[] in order; the rest of each
 * category becomes a residual set.  Returns the residual jobs. */
static size_t cut_warps(const keyed_job *sorted, size_t n, residual_lists *l,
                        size_t *job, size_t *pos)
{
    size_t left = 0, sets = 0;
    for (size_t s = 0; s < n;) {
        size_t end = s;
        while (end < n && sorted[end].key == sorted[s].key)
            end++;
        size_t whole = (end - s) / l->w * l->w;
        for (size_t j = s; j < s + whole; j++)
            job[(*pos)++] = sorted[j].job;
        if (end - s > whole) {
            l->set[sets] = (residual){s + whole, end - s - whole, NONE};
            push(l, sets++, 0);
            left += end - s - whole;
        }
        s = end;
    }
    return left;
}

static dl_status alloc_keyed(size_t n, keyed_job **sorted)
{
    *sorted = n <= SIZE_MAX / sizeof(keyed_job)
                  ? malloc((n ? n : 1) * sizeof **sorted)
                  : NULL;
    DL_RETURN_ERROR_ON(!*sorted, DL_OUT_OF_MEMORY,
                       "job swap: no memory for %zu jobs", n);
    return DL_SUCCESS;
}

dl_status dl_job_swap_by_segment(const int64_t *elem, size_t n, unsigned warp,
                                 unsigned segment_elems, size_t *job)
{
    DL_RETURN_ERROR_ON((n && (!elem || !job)), DL_INVALID_ARGUMENT,
                       "job swap: NULL argument");
    DL_RETURN_ERROR_ON(warp == 0 || segment_elems == 0, DL_INVALID_ARGUMENT,
                       "job swap: W and E must be at least 1 (W=%u E=%u)", warp,
                       segment_elems);
    keyed_job *sorted;
    DL_RETURN_IF_FAIL(alloc_keyed(n, &sorted));
    residual_lists l = {malloc((n ? n : 1) * sizeof(residual)),
                        malloc(warp * sizeof(size_t)),
                        malloc(warp * sizeof(size_t)), warp};
    if (!l.set || !l.head || !l.tail) {
        free(sorted);
        free(l.set);
        free(l.head);
        free(l.tail);
        return dl_fail(DL_OUT_OF_MEMORY, "job swap: no memory for %zu jobs", n);
    }
    for (size_t s = 0; s < warp; s++)
        l.head[s] = l.tail[s] = NONE;
    for (size_t i = 0; i < n; i++)
        sorted[i] = (keyed_job){segment_of(elem[i], segment_elems), i};
    qsort(sorted, n, sizeof *sorted, by_key_then_job);
    size_t pos = 0;
    size_t left = cut_warps(sorted, n, &l, job, &pos);
    pack_residuals(&l, left, sorted, job, &pos);
    free(sorted);
    free(l.set);
    free(l.head);
    free(l.tail);
    return DL_SUCCESS;
}

typedef struct long_job {
    uint64_t length;
    size_t job;
} long_job;

static int longest_then_job(const void *pa, const void *pb)
{
    const long_job *a = pa, *b = pb;
    if (a->length != b->length)
        return a->length > b->length ? -1 : 1;
    return (a->job > b->job) - (a->job < b->job);
}

dl_status dl_job_swap_by_length(const uint64_t *length, size_t n, size_t *job)
{
    DL_RETURN_ERROR_ON((n && (!length || !job)), DL_INVALID_ARGUMENT,
                       "job swap: NULL argument");
    long_job *sorted = n <= SIZE_MAX / sizeof(long_job)
                           ? malloc((n ? n : 1) * sizeof *sorted)
                           : NULL;
    DL_RETURN_ERROR_ON(!sorted, DL_OUT_OF_MEMORY,
                       "job swap: no memory for %zu jobs", n);
    for (size_t i = 0; i < n; i++)
        sorted[i] = (long_job){length[i], i};
    qsort(sorted, n, sizeof *sorted, longest_then_job);
    for (size_t i = 0; i < n; i++)
        job[i] = sorted[i].job;
    free(sorted);
    return DL_SUCCESS;
}

uint64_t dl_job_swap_steps(const uint64_t *length, const size_t *job, size_t n,
                           unsigned warp)
{
    uint64_t steps = 0, longest = 0;
    for (size_t t = 0; warp && t < n; t++) {
        uint64_t len = length[job ? job[t] : t];
        longest = len > longest ? len : longest;
        if ((t + 1) % warp == 0 || t + 1 == n) {
            steps += longest;
            longest = 0;
        }
    }
    return steps;
}
