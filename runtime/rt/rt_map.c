/* rt_map.c - pointer-keyed open-addressing hash table (linear probing,
 * tombstones), the lookup structure of every runtime table.
 *
 * The table's layout and rt_map_probe are in rt_internal.h (inline: the
 * fast paths).  Writers hold dl_rt.lock.  Readers on the fast paths do
 * not: the slot array is published with one atomic pointer, a slot's
 * value is written before its key, and tables replaced by a larger one
 * are kept (retired) until rt_map_free, so a reader never touches freed
 * table memory. */
#include "rt_hg.h"
#include "rt_internal.h"

#include <stdlib.h>

void *rt_map_get(const rt_map *map, const void *key)
{
    const rt_map_table *t = __atomic_load_n(&map->table, __ATOMIC_ACQUIRE);
    if (!t)
        return NULL;
    for (size_t i = rt_map_slot(key, t->mask);; i = (i + 1) & t->mask) {
        const void *k = __atomic_load_n(&t->slot[i].key, __ATOMIC_ACQUIRE);
        if (k == key) {
            void *val = __atomic_load_n(&t->slot[i].val, __ATOMIC_ACQUIRE);
            if (val)
                RT_HG_ACQUIRE(val);
            return val;
        }
        if (!k)
            return NULL;
    }
}

static dl_status grow(rt_map *map)
{
    rt_map_table *old = map->table;
    size_t cap = old ? (old->mask + 1) * 2 : 64;
    if (old && map->live * 4 < old->mask + 1)
        cap = old->mask + 1; /* mostly tombstones: rehash at the same size */
    rt_map_table *t = calloc(1, sizeof *t + cap * sizeof t->slot[0]);
    DL_RETURN_ERROR_ON(!t, DL_OUT_OF_MEMORY, "out of memory");
    /* Slots are written under the lock and read without it. */
    RT_HG_UNTRACKED(t, sizeof *t + cap * sizeof t->slot[0]);
    t->mask = cap - 1;
    for (size_t i = 0; old && i <= old->mask; i++) {
        const void *k = old->slot[i].key;
        if (!k || k == RT_MAP_TOMB)
            continue;
        size_t j = rt_map_slot(k, t->mask);
        while (t->slot[j].key)
            j = (j + 1) & (cap - 1);
        t->slot[j].key = k;
        t->slot[j].val = old->slot[i].val;
    }
    t->retired = old;
    __atomic_store_n(&map->table, t, __ATOMIC_RELEASE);
    map->used = map->live;
    return DL_SUCCESS;
}

dl_status rt_map_put(rt_map *map, const void *key, void *val)
{
    if (!map->table || (map->used + 1) * 2 > map->table->mask + 1)
        DL_RETURN_IF_FAIL(grow(map));
    rt_map_table *t = map->table;
    size_t tomb = SIZE_MAX;
    size_t i = rt_map_slot(key, t->mask);
    for (;; i = (i + 1) & t->mask) {
        if (t->slot[i].key == key) {
            RT_HG_PUBLISH(val);
            __atomic_store_n(&t->slot[i].val, val, __ATOMIC_RELEASE);
            return DL_SUCCESS;
        }
        if (t->slot[i].key == RT_MAP_TOMB && tomb == SIZE_MAX)
            tomb = i;
        if (!t->slot[i].key)
            break;
    }
    if (tomb != SIZE_MAX)
        i = tomb;
    else
        map->used++;
    RT_HG_PUBLISH(val);
    __atomic_store_n(&t->slot[i].val, val, __ATOMIC_RELEASE);
    __atomic_store_n(&t->slot[i].key, key, __ATOMIC_RELEASE);
    __atomic_add_fetch(&map->live, 1, __ATOMIC_RELAXED);
    return DL_SUCCESS;
}

void *rt_map_del(rt_map *map, const void *key)
{
    rt_map_table *t = map->table;
    if (!t)
        return NULL;
    for (size_t i = rt_map_slot(key, t->mask);; i = (i + 1) & t->mask) {
        if (t->slot[i].key == key) {
            void *val = t->slot[i].val;
            __atomic_store_n(&t->slot[i].key, RT_MAP_TOMB, __ATOMIC_RELEASE);
            __atomic_store_n(&t->slot[i].val, NULL, __ATOMIC_RELEASE);
            __atomic_sub_fetch(&map->live, 1, __ATOMIC_RELAXED);
            return val;
        }
        if (!t->slot[i].key)
            return NULL;
    }
}

size_t rt_map_cap(const rt_map *map)
{
    const rt_map_table *t = __atomic_load_n(&map->table, __ATOMIC_ACQUIRE);
    return t ? t->mask + 1 : 0;
}

void *rt_map_at(const rt_map *map, size_t i)
{
    const rt_map_table *t = map->table;
    const void *k = t->slot[i].key;
    return (k && k != RT_MAP_TOMB) ? t->slot[i].val : NULL;
}

void rt_map_free(rt_map *map)
{
    for (rt_map_table *t = map->table, *next; t; t = next) {
        next = t->retired;
        free(t);
    }
    *map = (rt_map){0};
}
