/* tuner_offset.c - offset DA (docs/layouts.md, "Offset DA"): where DA's
 * field arrays alias at 4 KiB (tuner_alias.c) and the buffer has slack,
 * DA's field arrays can start M' > M records apart instead (the DA of M'
 * records whose first M are the data), which breaks the alias.
 *
 * The pad is DL_TUNER_DA_PAD_BYTES on the smallest field (M' - M records
 * of it), the best of 64, 128 and 256 bytes measured here; a multiple of
 * it when that still aliases (a count just below a multiple of 4 KiB). */
#include "tuner.h"

#include <stdio.h>

/* Multiples of the pad tried before giving up. */
#define PAD_TRIES 8u

static uint32_t smallest_field(const dl_tuner_kernel_info *info)
{
    if (info->min_field_size)
        return info->min_field_size;
    if (!info->field_sizes)
        return info->nfields ? info->record_size / info->nfields : 0;
    uint32_t least = UINT32_MAX;
    for (uint32_t f = 0; f < info->nfields; f++)
        if (info->field_sizes[f] < least)
            least = info->field_sizes[f];
    return least;
}

size_t dl_tuner_da_offset_stride(const dl_tuner_kernel_info *info,
                                 const char **why)
{
    static __thread char text[200];
    const char *dummy;
    why = why ? why : &dummy;
    *why = "DA's field arrays do not alias";
    if (!info || !info->count || !info->nfields || !dl_tuner_da_aliases(info))
        return 0;
    uint32_t least = smallest_field(info);
    size_t unit = least ? (DL_TUNER_DA_PAD_BYTES + least - 1) / least : 1;
    size_t slack = info->buffer_bytes > info->count * info->record_size
                       ? info->buffer_bytes - info->count * info->record_size
                       : 0;
    dl_tuner_kernel_info padded = *info;
    for (unsigned k = 1; k <= PAD_TRIES; k++) {
        size_t pad = unit * k;
        if (pad * info->record_size > slack) {
            snprintf(text, sizeof text,
                     "DA's field arrays alias at 4 KiB and the buffer has "
                     "%zu bytes of slack, not the %zu an offset DA needs",
                     slack, pad * info->record_size);
            *why = text;
            return 0;
        }
        padded.count = info->count + pad;
        if (!dl_tuner_da_aliases(&padded)) {
            snprintf(text, sizeof text,
                     "DA's field arrays alias at 4 KiB: offset DA, field "
                     "arrays %zu records apart (%zu more, %zu bytes of the "
                     "buffer's slack)",
                     padded.count, pad, pad * info->record_size);
            *why = text;
            return padded.count;
        }
    }
    *why = "DA's field arrays alias at 4 KiB with every pad tried";
    return 0;
}
