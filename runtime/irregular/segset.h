/* segset.h - a set of segment numbers, cleared in O(1): the distinct
 * segments one warp-access touches.  Open addressing over a power-of-two
 * table; a generation stamp per slot marks it used in the current round,
 * so clearing is one increment instead of a memset per warp. */
#ifndef DL_SEGSET_H
#define DL_SEGSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct dl_segset {
    int64_t *keys;
    uint32_t *stamps;
    size_t mask;    /* table size - 1 */
    unsigned shift; /* 64 - log2(table size), for the hash */
    uint32_t round; /* stamp of the slots in use */
    size_t count;   /* distinct keys this round */
    int64_t last;   /* the key inserted last: runs of one segment skip */
    int has_last;
} dl_segset;

/* Room for `capacity` keys per round; 0 on success, -1 out of memory. */
int dl_segset_init(dl_segset *set, size_t capacity);
void dl_segset_free(dl_segset *set);
/* Empties the set. */
void dl_segset_clear(dl_segset *set);
/* Adds key; at most `capacity` distinct keys per round. */
void dl_segset_add(dl_segset *set, int64_t key);

#endif
