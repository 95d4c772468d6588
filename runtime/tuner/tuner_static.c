/* tuner_static.c - the static choice: which member of the ASTA(T) family
 * a kernel's argument should get on this device, predicted from the
 * calibration before anything runs (issue 6, item 2).
 *
 * The access cost of a record depends mostly on its size in words and on
 * how the device compiler vectorises the index, so the calibration entry
 * of the nearest record size stands for the argument.  The conversion is
 * predicted from the measured throughput of AoS -> that tile (the way
 * back costs about the same). */
#include "tuner.h"

#include "error.h"
#include "log.h"
#include "tuner_calib.h"

#include <math.h> /* INFINITY, isfinite: macros only */
#include <string.h>

/* The calibration tile nearest to `tile` among the measured ones (DA
 * stands for any tile >= count). */
static uint32_t calib_tile_for(const dl_calibration *c, uint32_t words,
                               size_t tile, size_t count)
{
    if (tile <= 1)
        return 1;
    if (tile >= count)
        return DL_CALIB_TILE_DA;
    uint32_t best = DL_CALIB_TILE_DA;
    double best_d = INFINITY;
    for (unsigned i = 0; i < c->naccess; i++) {
        uint32_t t = c->access[i].tile;
        if (!dl_calib_tile_is_asta(t) || !dl_calib_find_access(c, words, t))
            continue;
        double d = size_ratio(t, tile);
        if (d < best_d) {
            best_d = d;
            best = t;
        }
    }
    return best;
}

static size_t layout_tile(uint32_t calib_tile)
{
    return calib_tile == DL_CALIB_TILE_DA ? DL_TILE_DA : calib_tile;
}

/* Bytes of the argument's smallest field. */
static uint32_t smallest_field(const dl_tuner_kernel_info *info)
{
    if (info->min_field_size)
        return info->min_field_size;
    if (!info->field_sizes)
        return info->nfields ? info->record_size / info->nfields : 4;
    uint32_t min = info->record_size;
    for (uint32_t i = 0; i < info->nfields; i++)
        min = info->field_sizes[i] < min ? info->field_sizes[i] : min;
    return min;
}

/* Marshal + restore of the argument to calibration tile `tile`. */
static double conversion_ns(const dl_calibration *calib,
                            const dl_tuner_kernel_info *info, uint32_t words,
                            uint32_t tile)
{
    double bytes = (double)info->count * info->record_size;
    double rate =
        dl_calib_convert_rate(calib, words, tile, smallest_field(info));
    /* Unmeasured algorithm: a conversion reads and writes everything at
     * best twice, at copy speed. */
    if (rate <= 0)
        rate = calib->copy_bytes_per_ns / 2;
    return rate > 0 ? 2.0 * bytes / rate : INFINITY;
}

/* The measured access cost of `tile` for this argument: DA's is the
 * aliased figure when its field arrays alias (tuner_alias.c), NULL when
 * that was not measured; the aliased figure never stands for itself. */
static const dl_calib_access *argument_access(const dl_calibration *c,
                                              uint32_t words, uint32_t tile,
                                              int da_aliased)
{
    if (tile == DL_CALIB_TILE_DA_4K)
        return NULL;
    if (tile == DL_CALIB_TILE_DA && da_aliased)
        tile = DL_CALIB_TILE_DA_4K;
    return dl_calib_find_access(c, words, tile);
}

/* dl_tuner_da_offset_stride, saying why at info level once for each
 * shape in a row (the runtime predicts before every tuned launch). */
static size_t offset_stride(const dl_tuner_kernel_info *info)
{
    static __thread size_t last[3];
    const char *why = NULL;
    size_t stride = dl_tuner_da_offset_stride(info, &why);
    size_t shape[3] = {info->count, info->record_size, info->buffer_bytes};
    if (memcmp(shape, last, sizeof shape) != 0) {
        memcpy(last, shape, sizeof shape);
        DL_LOG_INFO("tuner: %zu records of %u bytes: %s", info->count,
                    info->record_size, why);
    }
    return stride;
}

dl_status dl_tuner_static_choice(const dl_calibration *calib,
                                 const dl_tuner_kernel_info *info,
                                 dl_tuner_static *out)
{
    DL_RETURN_ERROR_ON(!calib || !info || !out || info->record_size == 0,
                       DL_INVALID_ARGUMENT,
                       "static choice: no calibration or an empty record");
    *out = (dl_tuner_static){.tile = 1};
    uint32_t words = (info->record_size + 3) / 4;
    int aliased = dl_tuner_da_aliases(info);
    if (aliased && info->buffer_bytes) { /* offset DA, if the slack allows */
        out->da_stride = offset_stride(info);
        aliased = !out->da_stride;
    }
    out->da_aliased = aliased;
    const dl_calib_access *aos = dl_calib_find_access(calib, words, 1);
    if (!aos)
        return DL_SUCCESS; /* nothing measured: leave it alone, unknown */

    /* The cheapest measured tile for this record size (or the override). */
    const dl_calib_access *best = aos;
    if (info->tile_override) {
        uint32_t t =
            calib_tile_for(calib, words, info->tile_override, info->count);
        const dl_calib_access *a = argument_access(calib, words, t, aliased);
        if (a)
            best = a;
    } else {
        for (unsigned i = 0; i < calib->naccess; i++) {
            const dl_calib_access *a =
                argument_access(calib, words, calib->access[i].tile, aliased);
            if (a && a->ns_per_record < best->ns_per_record)
                best = a;
        }
    }
    double count = (double)info->count;
    out->plain_ns = aos->ns_per_record * count;
    out->speedup = aos->ns_per_record / best->ns_per_record;
    if (best->tile == 1)
        return DL_SUCCESS;

    uint32_t converted =
        best->tile == DL_CALIB_TILE_DA_4K ? DL_CALIB_TILE_DA : best->tile;
    out->conversion_ns = conversion_ns(calib, info, words, converted);
    double saving = out->plain_ns - best->ns_per_record * count;
    out->amortises = saving * info->expected_launches > out->conversion_ns;
    /* A loss, or a gain the conversion cannot pay, leaves the data alone
     * unless the user forced a tile. */
    if (info->tile_override)
        out->tile = info->tile_override >= info->count ? DL_TILE_DA
                                                       : info->tile_override;
    else if (out->speedup > 1.02 && out->amortises)
        out->tile = layout_tile(converted);
    return DL_SUCCESS;
}

dl_tuner_prediction dl_tuner_static_prediction(const dl_tuner_static *s)
{
    dl_tuner_prediction p = {0};
    p.speedup = s->speedup;
    p.conversion_ns = isfinite(s->conversion_ns) ? s->conversion_ns : 0;
    p.plain_ns = s->plain_ns;
    return p;
}

dl_tuner_prediction dl_tuner_predict_launch(const dl_calibration *calib,
                                            const dl_tuner_kernel_info *args,
                                            size_t nargs)
{
    dl_tuner_prediction p = {0};
    double plain = 0, transformed = 0, conversion = 0;
    for (size_t i = 0; calib && i < nargs; i++) {
        dl_tuner_static s = {0};
        if (dl_tuner_static_choice(calib, &args[i], &s) != DL_SUCCESS ||
            s.speedup <= 0)
            return p; /* one unknown argument: no prediction */
        plain += s.plain_ns;
        transformed += s.tile == 1 ? s.plain_ns : s.plain_ns / s.speedup;
        /* A probe converts to the annotated target even where the
         * calibration predicts no gain (its kernels stream; LBM gathers). */
        double conv = s.tile == 1 ? 0 : s.conversion_ns;
        if (args[i].target_tile > 1)
            conv = conversion_ns(calib, &args[i], (args[i].record_size + 3) / 4,
                                 args[i].target_tile >= args[i].count
                                     ? DL_CALIB_TILE_DA
                                     : (uint32_t)args[i].target_tile);
        conversion += isfinite(conv) ? conv : 0;
    }
    if (plain <= 0 || transformed <= 0)
        return p;
    p.speedup = plain / transformed;
    p.conversion_ns = conversion;
    p.plain_ns = plain;
    return p;
}
