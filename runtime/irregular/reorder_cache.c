/* reorder_cache.c - versioned caching of reordered data: entries keyed by
 * (A, P, reference, range), valid while the versions of A and P they were
 * built from are current, most recently used first, within a byte budget.
 * Entries leave the list under the lock and are released after it. */
#include "reorder_cache.h"
#include "clapi.h"
#include "error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct entry {
    dl_reorder_key key;
    uint64_t version_a, version_p;
    cl_mem a_prime;
    cl_event ready; /* may be NULL */
    size_t bytes;
    struct entry *next;
} entry;

struct dl_reorder_cache {
    pthread_mutex_t lock;
    size_t budget;
    entry *head; /* most recently used first */
    dl_reorder_stats stats;
};

dl_status dl_reorder_cache_create(size_t budget_bytes, dl_reorder_cache **out)
{
    DL_RETURN_ERROR_ON(!out, DL_INVALID_ARGUMENT, "reorder cache: no output");
    dl_reorder_cache *c = calloc(1, sizeof *c);
    DL_RETURN_ERROR_ON(!c, DL_OUT_OF_MEMORY, "out of host memory");
    pthread_mutex_init(&c->lock, NULL);
    c->budget = budget_bytes;
    dl_cl_init_default();
    *out = c;
    return DL_SUCCESS;
}

/* Releases entries already out of the list (the lock not held). */
static void free_entries(entry *e)
{
    for (entry *next; e; e = next) {
        next = e->next;
        dl_cl.clReleaseMemObject(e->a_prime);
        if (e->ready)
            dl_cl.clReleaseEvent(e->ready);
        free(e);
    }
}

void dl_reorder_cache_release(dl_reorder_cache *c)
{
    if (!c)
        return;
    free_entries(c->head);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static int same_key(const dl_reorder_key *x, const dl_reorder_key *y)
{
    return x->a == y->a && x->p == y->p &&
           x->ref.elem_bytes == y->ref.elem_bytes &&
           x->ref.field_offset == y->ref.field_offset &&
           x->ref.field_bytes == y->ref.field_bytes &&
           x->ref.offset == y->ref.offset &&
           x->range.threads == y->range.threads &&
           x->range.steps == y->range.steps && x->range.base == y->range.base &&
           x->range.t_stride == y->range.t_stride &&
           x->range.j_stride == y->range.j_stride &&
           x->index_bytes == y->index_bytes;
}

/* Unlinks *link's entry onto `out` (under the lock). */
static void unlink_to(dl_reorder_cache *c, entry **link, entry **out)
{
    entry *e = *link;
    *link = e->next;
    c->stats.entries--;
    c->stats.bytes -= e->bytes;
    e->next = *out;
    *out = e;
}

/* The link that points at key's entry, or NULL. */
static entry **find(dl_reorder_cache *c, const dl_reorder_key *key)
{
    for (entry **link = &c->head; *link; link = &(*link)->next)
        if (same_key(&(*link)->key, key))
            return link;
    return NULL;
}

dl_reorder_found dl_reorder_cache_lookup(dl_reorder_cache *c,
                                         const dl_reorder_key *key,
                                         uint64_t version_a, uint64_t version_p,
                                         cl_mem *a_prime, cl_event *ready)
{
    *a_prime = NULL;
    if (ready)
        *ready = NULL;
    pthread_mutex_lock(&c->lock);
    entry **link = find(c, key), *e = link ? *link : NULL;
    dl_reorder_found found = DL_REORDER_MISS;
    if (!e) {
        c->stats.misses++;
    } else if (e->version_a == version_a && e->version_p == version_p) {
        c->stats.hits++;
        *link = e->next; /* to the front: most recently used */
        e->next = c->head;
        c->head = e;
        found = DL_REORDER_HIT;
    } else {
        c->stats.invalidations++;
        entry *gone = NULL;
        unlink_to(c, link, &gone);
        found = DL_REORDER_STALE;
    }
    cl_mem mem = e ? e->a_prime : NULL;
    cl_event ev = found == DL_REORDER_HIT ? e->ready : NULL;
    /* A hit's references are taken before another thread can evict it:
     * retaining is not blocking. */
    if (found == DL_REORDER_HIT) {
        dl_cl.clRetainMemObject(mem);
        if (ev && ready)
            dl_cl.clRetainEvent(ev);
    }
    pthread_mutex_unlock(&c->lock);
    if (found == DL_REORDER_STALE) { /* the entry's reference passes on */
        if (e->ready)
            dl_cl.clReleaseEvent(e->ready);
        free(e);
    }
    *a_prime = mem;
    if (ready)
        *ready = ev;
    return found;
}

/* Unlinks least recently used entries onto `out` until `bytes` more fit. */
static void evict_for(dl_reorder_cache *c, size_t bytes, entry **out)
{
    while (c->head && c->stats.bytes > c->budget - bytes) {
        entry **last = &c->head;
        while ((*last)->next)
            last = &(*last)->next;
        unlink_to(c, last, out);
        c->stats.evictions++;
    }
}

dl_status dl_reorder_cache_store(dl_reorder_cache *c, const dl_reorder_key *key,
                                 uint64_t version_a, uint64_t version_p,
                                 cl_mem a_prime, cl_event ready)
{
    DL_RETURN_ERROR_ON(!c || !key || !a_prime, DL_INVALID_ARGUMENT,
                       "reorder cache: NULL argument");
    size_t bytes = 0;
    cl_int err = dl_cl.clGetMemObjectInfo(a_prime, CL_MEM_SIZE, sizeof bytes,
                                          &bytes, NULL);
    DL_RETURN_ON_CL(err, "clGetMemObjectInfo (A')");
    entry *e = calloc(1, sizeof *e);
    DL_RETURN_ERROR_ON(!e, DL_OUT_OF_MEMORY, "out of host memory");
    *e = (entry){*key, version_a, version_p, a_prime, ready, bytes, NULL};
    entry *gone = NULL;
    pthread_mutex_lock(&c->lock);
    int fits = bytes <= c->budget;
    if (fits) {
        entry **old = find(c, key);
        if (old)
            unlink_to(c, old, &gone);
        evict_for(c, bytes, &gone);
        dl_cl.clRetainMemObject(a_prime);
        if (ready)
            dl_cl.clRetainEvent(ready);
        e->next = c->head;
        c->head = e;
        c->stats.entries++;
        c->stats.bytes += bytes;
    } else {
        c->stats.refused++;
    }
    size_t budget = c->budget;
    pthread_mutex_unlock(&c->lock);
    free_entries(gone);
    if (!fits) {
        free(e);
        return dl_fail(DL_UNSUPPORTED,
                       "reorder cache: an A' of %zu bytes exceeds the whole "
                       "budget of %zu",
                       bytes, budget);
    }
    return DL_SUCCESS;
}

/* Drops the entries reading `buffer`; `changed` counts them as
 * invalidations. */
static size_t drop_buffer(dl_reorder_cache *c, cl_mem buffer, int changed)
{
    if (!c || !buffer)
        return 0;
    entry *gone = NULL;
    size_t n = 0;
    pthread_mutex_lock(&c->lock);
    for (entry **link = &c->head; *link;) {
        if ((*link)->key.a == buffer || (*link)->key.p == buffer) {
            unlink_to(c, link, &gone);
            n++;
        } else {
            link = &(*link)->next;
        }
    }
    if (changed)
        c->stats.invalidations += n;
    pthread_mutex_unlock(&c->lock);
    free_entries(gone);
    return n;
}

size_t dl_reorder_cache_invalidate(dl_reorder_cache *c, cl_mem buffer)
{
    return drop_buffer(c, buffer, 1);
}

size_t dl_reorder_cache_forget(dl_reorder_cache *c, cl_mem buffer)
{
    return drop_buffer(c, buffer, 0);
}

void dl_reorder_cache_stats(dl_reorder_cache *c, dl_reorder_stats *out)
{
    pthread_mutex_lock(&c->lock);
    *out = c->stats;
    pthread_mutex_unlock(&c->lock);
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

int dl_reorder_stats_format(const dl_reorder_stats *s, char *buf, size_t size)
{
    return snprintf(
        buf, size,
        "reorder cache: %llu %s, %llu %s, %llu %s, %llu %s, %llu "
        "refused, %zu %s (%.1f MiB)",
        (unsigned long long)s->hits, plural(s->hits, "hit", "hits"),
        (unsigned long long)s->misses, plural(s->misses, "miss", "misses"),
        (unsigned long long)s->invalidations,
        plural(s->invalidations, "invalidation", "invalidations"),
        (unsigned long long)s->evictions,
        plural(s->evictions, "eviction", "evictions"),
        (unsigned long long)s->refused, s->entries,
        plural(s->entries, "entry", "entries"), (double)s->bytes / 1048576.0);
}
