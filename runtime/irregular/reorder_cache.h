/* reorder_cache.h - versioned caching of reordered data (004, section 4):
 * the A' that dl_enqueue_gather built for one reference is reused by later
 * launches while neither A nor P has changed (docs/irregular.md).
 *
 * An entry is keyed by (A, P, reference, range, index size) and holds A',
 * the event of the gather that fills it, and the versions of A and P it
 * was built from.  A version is a uint64 the caller keeps per buffer and
 * bumps on every write (host writes and fills, maps for writing, copies
 * into it, kernels that may write it); the cache only compares them.  The
 * A' buffers held are bounded by a byte budget: storing past it evicts the
 * least recently used entries.  Thread-safe: under its lock the cache only
 * retains objects (never a blocking call); it releases them after. */
#ifndef DL_REORDER_CACHE_H
#define DL_REORDER_CACHE_H

#include "dlayout_irregular.h"

typedef struct dl_reorder_key {
    cl_mem a, p;
    dl_coalesce_ref ref;
    dl_coalesce_range range;
    unsigned index_bytes;
} dl_reorder_key;

typedef struct dl_reorder_stats {
    uint64_t hits;          /* lookups answered from the cache              */
    uint64_t misses;        /* lookups with no entry                        */
    uint64_t invalidations; /* entries dropped because A or P changed       */
    uint64_t evictions;     /* entries dropped to stay within the budget    */
    uint64_t refused;       /* stores of an A' larger than the whole budget */
    size_t entries, bytes;  /* held now                                     */
} dl_reorder_stats;

typedef struct dl_reorder_cache dl_reorder_cache;

dl_status dl_reorder_cache_create(size_t budget_bytes, dl_reorder_cache **out);
/* Releases every A' and event held. */
void dl_reorder_cache_release(dl_reorder_cache *cache);

typedef enum dl_reorder_found {
    DL_REORDER_MISS, /* no entry: gather into a new A', then store it     */
    DL_REORDER_HIT,  /* *a_prime is current; wait on *ready before use     */
    DL_REORDER_STALE /* built from other versions: the entry is dropped (an
                        invalidation) and its A' handed over in *a_prime,
                        to gather into again and store                    */
} dl_reorder_found;

/* Looks `key` up for A at version_a and P at version_p.  On a hit or a
 * stale entry *a_prime is a reference of the caller's own (release it);
 * on a hit *ready is the event of the gather that filled A' (retained;
 * NULL when none was given), which a launch reading A' must wait on. */
dl_reorder_found dl_reorder_cache_lookup(dl_reorder_cache *cache,
                                         const dl_reorder_key *key,
                                         uint64_t version_a, uint64_t version_p,
                                         cl_mem *a_prime, cl_event *ready);

/* Keeps a_prime (retained, with `ready` if not NULL) as the entry of `key`
 * built from version_a and version_p, replacing an entry of the same key
 * and evicting the least recently used ones until the budget holds it.
 * DL_UNSUPPORTED (counted as refused, nothing kept) when a_prime alone is
 * larger than the budget: the caller uses it once, uncached. */
dl_status dl_reorder_cache_store(dl_reorder_cache *cache,
                                 const dl_reorder_key *key, uint64_t version_a,
                                 uint64_t version_p, cl_mem a_prime,
                                 cl_event ready);

/* Drops the entries that read `buffer` (as A or P).  invalidate: it was
 * written (counted as invalidations); forget: it is being released (not
 * counted).  Return how many entries were dropped. */
size_t dl_reorder_cache_invalidate(dl_reorder_cache *cache, cl_mem buffer);
size_t dl_reorder_cache_forget(dl_reorder_cache *cache, cl_mem buffer);

void dl_reorder_cache_stats(dl_reorder_cache *cache, dl_reorder_stats *out);
/* "reorder cache: 48 hits, 2 misses, 1 invalidation, 0 evictions, 0
 * refused, 1 entry (3.8 MiB)" into buf; returns what snprintf returns. */
int dl_reorder_stats_format(const dl_reorder_stats *stats, char *buf,
                            size_t size);

#endif
