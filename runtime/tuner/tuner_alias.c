/* tuner_alias.c - 4 KiB aliasing of DA's field arrays (docs/tuning.md,
 * "4 KiB aliasing").
 *
 * In DA, field f of record i lies at o_f * M + i * z_f: every field is a
 * stream of its own, and a kernel that touches every field of record i
 * touches addresses o_f * M apart.  When those distances are multiples of
 * 4 KiB, or within a cache line of one, the streams fall into the same L1
 * sets and a CPU's store-to-load forwarding takes each load for one that
 * depends on an earlier store (it compares the low 12 address bits).
 * Parboil LBM's 20 field arrays, exactly 2,310 pages apart, ran 3x slower
 * in DA than in AoS on POCL; 7 cells fewer, about 1.2x. */
#include "tuner.h"

#include <stdlib.h>

#define PAGE       4096u
#define LINE       64u
#define MAX_FIELDS 1024u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Where each field array of DA starts, modulo 4 KiB, sorted. */
static uint32_t field_starts(const dl_tuner_kernel_info *info, uint32_t *pos)
{
    uint32_t n = info->nfields < MAX_FIELDS ? info->nfields : MAX_FIELDS;
    uint32_t uniform = n ? info->record_size / n : 0;
    uint64_t offset = 0, count = info->count % PAGE;
    for (uint32_t f = 0; f < n; f++) {
        pos[f] = (uint32_t)(offset % PAGE * count % PAGE);
        offset += info->field_sizes ? info->field_sizes[f] : uniform;
    }
    qsort(pos, n, sizeof *pos, cmp_u32);
    return n;
}

unsigned dl_tuner_da_alias_group(const dl_tuner_kernel_info *info)
{
    uint32_t pos[MAX_FIELDS];
    uint32_t n = info ? field_starts(info, pos) : 0;
    unsigned group = n ? 1 : 0;
    /* The most starts within one cache line, around the 4 KiB circle. */
    for (uint32_t i = 0; i < n; i++) {
        unsigned in = 1;
        for (uint32_t j = 1; j < n; j++) {
            uint32_t d = (pos[(i + j) % n] + PAGE - pos[i]) % PAGE;
            if (d >= LINE)
                break;
            in++;
        }
        if (in > group)
            group = in;
    }
    return group;
}

int dl_tuner_da_aliases(const dl_tuner_kernel_info *info)
{
    return dl_tuner_da_alias_group(info) >= DL_TUNER_ALIAS_GROUP;
}
