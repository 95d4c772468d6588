/* rt_permute_choose.c - the permutation layout's order chosen on a
 * planning thread (rt_permute.h) with METIS's order planned once per
 * (index buffer P, P's version, array A): under DL_IRREGULAR=auto the
 * selector's remap row (rt_jobswap_plan.c) plans it first, and the pair's
 * planning (rt_permute_plan.c) counts the same order instead of running
 * METIS again.  The last few orders are kept, by their own lock; an entry
 * a released P's handle leaves behind costs at most a worse order (any
 * permutation is exact, and first touch is counted beside it). */
#include "rt_jobswap_plan.h"
#include "rt_permute.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define KEPT 4 /* orders kept: a few kernels planning at once */

typedef struct kept_order {
    rt_metis_key key;
    uint32_t *pi; /* key.n entries; NULL: a free slot */
    uint64_t used;
} kept_order;

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static kept_order kept[KEPT];
static uint64_t clock_ticks;

static int same_key(const rt_metis_key *a, const rt_metis_key *b)
{
    return a->p == b->p && a->a == b->a && a->version == b->version &&
           a->n == b->n && a->elem == b->elem;
}

int rt_permute_metis_kept(const rt_metis_key *key, uint32_t *pi)
{
    int found = 0;
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < KEPT && !found; i++)
        if (kept[i].pi && same_key(&kept[i].key, key)) {
            memcpy(pi, kept[i].pi, key->n * sizeof *pi);
            kept[i].used = ++clock_ticks;
            found = 1;
        }
    pthread_mutex_unlock(&kept_lock);
    return found;
}

void rt_permute_metis_keep(const rt_metis_key *key, const uint32_t *pi)
{
    uint32_t *copy = malloc(key->n * sizeof *copy);
    if (!copy)
        return; /* planned again next time */
    memcpy(copy, pi, key->n * sizeof *copy);
    pthread_mutex_lock(&kept_lock);
    int slot = 0;
    for (int i = 1; i < KEPT; i++) /* the same key, else the oldest */
        if (!same_key(&kept[slot].key, key) &&
            (same_key(&kept[i].key, key) || kept[i].used < kept[slot].used))
            slot = i;
    uint32_t *old = kept[slot].pi;
    kept[slot] = (kept_order){*key, copy, ++clock_ticks};
    pthread_mutex_unlock(&kept_lock);
    free(old);
}

dl_status rt_permute_choose(const rt_metis_key *key, const dl_perm_source *src,
                            uint32_t *pi, dl_perm_choice *c)
{
    uint32_t *known = key ? malloc(src->n * sizeof *known) : NULL;
    uint32_t *planned = key ? malloc(src->n * sizeof *planned) : NULL;
    dl_perm_metis_reuse reuse = {NULL, planned, 0};
    if (known && rt_permute_metis_kept(key, known))
        reuse.known = known;
    /* METIS is loaded only where its order is to be planned. */
    dl_status st = dl_perm_choose_reusing(
        src, reuse.known ? NULL : rt_permute_metis(), rt_irregular_stopping,
        key ? &reuse : NULL, pi, c);
    if (st == DL_SUCCESS && reuse.stored)
        rt_permute_metis_keep(key, planned);
    free(known);
    free(planned);
    return st;
}
