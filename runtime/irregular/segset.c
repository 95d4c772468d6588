/* segset.c - the segment set of segset.h. */
#include "segset.h"

#include <stdlib.h>
#include <string.h>

int dl_segset_init(dl_segset *set, size_t capacity)
{
    memset(set, 0, sizeof *set);
    /* At most half full: short probe sequences. */
    size_t size = 16;
    unsigned bits = 4;
    while (size < 2 * capacity && bits < 62) {
        size *= 2;
        bits++;
    }
    if (size < 2 * capacity)
        return -1;
    set->keys = malloc(size * sizeof *set->keys);
    set->stamps = calloc(size, sizeof *set->stamps);
    if (!set->keys || !set->stamps) {
        dl_segset_free(set);
        return -1;
    }
    set->mask = size - 1;
    set->shift = 64 - bits;
    set->round = 1;
    return 0;
}

void dl_segset_free(dl_segset *set)
{
    free(set->keys);
    free(set->stamps);
    memset(set, 0, sizeof *set);
}

void dl_segset_clear(dl_segset *set)
{
    set->count = 0;
    set->has_last = 0;
    if (++set->round == 0) { /* the stamps wrapped: forget them all */
        memset(set->stamps, 0, (set->mask + 1) * sizeof *set->stamps);
        set->round = 1;
    }
}

void dl_segset_add(dl_segset *set, int64_t key)
{
    if (set->has_last && key == set->last)
        return;
    set->last = key;
    set->has_last = 1;
    /* Fibonacci hashing: neighbouring segments land far apart. */
    size_t slot =
        (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> set->shift);
    while (set->stamps[slot] == set->round) {
        if (set->keys[slot] == key)
            return;
        slot = (slot + 1) & set->mask;
    }
    set->stamps[slot] = set->round;
    set->keys[slot] = key;
    set->count++;
}
