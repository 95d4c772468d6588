/* rt_reshape.c - the tiled launch (rt_reshape.h): from the application's
 * 1-D range (G) with offset O and work-group size L to global (T, G/T),
 * offset (0, O/T), local (T, L/T). */
#define _GNU_SOURCE /* memmem */
#include "rt_reshape.h"

#include <stdio.h>
#include <string.h>

size_t rt_reshape_tile(const rt_kernel *k)
{
    const dl_annot_kernel *ak = k->annot;
    if (!ak || !ak->tiled || !k->prog || !k->prog->tiles)
        return 0;
    const size_t *tiles = k->prog->tiles[k->annot_index];
    if (!tiles)
        return 0;
    size_t tile = 0;
    for (uint32_t j = 0; j < ak->nargs; j++) {
        if (ak->args[j].to.kind != DL_KIND_ASTA)
            continue;
        if (tile && tiles[j] != tile)
            return 0; /* two tiles: the kernel was built flat */
        tile = tiles[j];
    }
    return tile > 1 && tile <= DL_ANNOT_TILED_MAX_TILE ? tile : 0;
}

/* dl_dims_env's arg_value: the values the kernel's arguments were set to. */
static dl_status kernel_arg(void *user, const dl_dims_node *n, int64_t *value)
{
    const rt_kernel *k = user;
    DL_RETURN_ERROR_ON(n->arg_index < 0 || (cl_uint)n->arg_index >= k->nargs,
                       DL_INVALID_ARGUMENT, "argument '%s' is unknown",
                       n->name);
    const rt_arg *a = &k->args[n->arg_index];
    DL_RETURN_ERROR_ON(!a->size || !a->value, DL_INVALID_ARGUMENT,
                       "argument '%s' is not set", n->name);
    return dl_int_decode(a->value, a->size, n->arg_type, value);
}

/* Whether padding the range to `padded` work-items is safe: the
 * annotation's bound says the work-items from offset + global on do
 * nothing. */
static int pad_is_safe(const rt_kernel *k, size_t offset, size_t global)
{
    const dl_dims_expr *bound = k->annot->tiled_bound;
    if (!bound)
        return 0;
    dl_dims_env env = {.work_dim = 1,
                       .global_size = &global,
                       .global_offset = &offset,
                       .arg_value = kernel_arg,
                       .user = (void *)k};
    int64_t n;
    if (dl_dims_eval(bound, &env, &n) != DL_SUCCESS)
        return 0;
    return n <= 0 || (uint64_t)n <= (uint64_t)offset + global;
}

int rt_reshape_launch(const rt_kernel *k, cl_uint work_dim,
                      const size_t *offset, const size_t *global,
                      const size_t *local, rt_reshaped *out)
{
    size_t tile = rt_reshape_tile(k);
    if (!tile)
        return 0;
    memset(out, 0, sizeof *out);
    if (work_dim != 1 || !global) {
        dl_fail(DL_INVALID_ARGUMENT,
                "the tiled launch of ASTA(%zu) needs a "
                "1-D range, not %u-D",
                tile, work_dim);
        return -1;
    }
    size_t o = offset ? offset[0] : 0, g = global[0];
    if (o % tile) {
        dl_fail(DL_INVALID_ARGUMENT,
                "the tiled launch of ASTA(%zu) needs a "
                "global offset that is a multiple of the tile, not %zu",
                tile, o);
        return -1;
    }
    size_t padded = g;
    if (g % tile) {
        if (g > SIZE_MAX - tile || !pad_is_safe(k, o, g)) {
            dl_fail(DL_INVALID_ARGUMENT,
                    "the tiled launch of ASTA(%zu) "
                    "needs a global size that is a multiple of the tile, "
                    "not %zu, and no guard of the kernel makes padding it "
                    "safe",
                    tile, g);
            return -1;
        }
        padded = (g + tile - 1) / tile * tile;
    }
    if (padded == 0) {
        dl_fail(DL_INVALID_ARGUMENT, "an empty range is not tiled");
        return -1;
    }
    out->global[0] = tile;
    out->global[1] = padded / tile;
    out->offset[0] = 0;
    out->offset[1] = o / tile;
    if (local && padded == g && local[0] % tile == 0) {
        out->has_local = 1;
        out->local[0] = tile;
        out->local[1] = local[0] / tile;
    }
    return 1;
}

/* Whether the source conditions k's tiled branch on DL_FLAT_<kernel>. */
static int source_has_flat(const rt_kernel *k)
{
    char cond[300];
    int n = snprintf(cond, sizeof cond, "!defined(DL_FLAT_%s)", k->name);
    if (n < 0 || (size_t)n >= sizeof cond || !k->prog->source)
        return 0;
    return memmem(k->prog->source, k->prog->source_len, cond, (size_t)n) !=
           NULL;
}

int rt_reshape_flat_form(rt_kernel *k)
{
    if (!rt_reshape_tile(k))
        return 0;
    if (!k->flat_form) /* the source is read once per kernel */
        k->flat_form = source_has_flat(k) ? 1 : 2;
    return k->flat_form == 1;
}

/* Whether every argument k converts goes to ASTA(T > 1). */
static int asta_only(const rt_kernel *k)
{
    const dl_annot_kernel *ak = k->annot;
    const size_t *tiles =
        k->prog->tiles ? k->prog->tiles[k->annot_index] : NULL;
    int any = 0;
    for (uint32_t j = 0; ak && tiles && j < ak->nargs; j++) {
        const dl_annot_arg *arg = &ak->args[j];
        if (arg->from.kind == arg->to.kind && arg->from.tile == arg->to.tile)
            continue; /* not converted */
        if (arg->to.kind != DL_KIND_ASTA || tiles[j] <= 1)
            return 0;
        any = 1;
    }
    return any;
}

rt_flat_only rt_reshape_flat_only(rt_kernel *k, const dl_dims_env *env)
{
    if (!asta_only(k))
        return RT_FLAT_NO;
    if (!rt_reshape_tile(k))
        return RT_FLAT_KERNEL;
    rt_reshaped shape;
    if (rt_reshape_launch(k, env->work_dim, env->global_offset,
                          env->global_size, env->local_size, &shape) < 0 &&
        rt_reshape_flat_form(k))
        return RT_FLAT_RANGE;
    return RT_FLAT_NO;
}
