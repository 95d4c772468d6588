/* algo_bs.c - barrier-synchronised AoS <-> ASTA(T) (marshal_kernels/bs.cl).
 * Fits when one tile fits the registers of one work-group. */
#include "internal.h"

#define BS_MAX_WORDS_PER_ITEM 16u
#define BS_MAX_LOCAL 256u
#define BS_TARGET_WORDS 1024u /* words per group: several small tiles */

enum { P_GROUP_TILES, P_LOCAL, P_WORDS_PER_ITEM };

static size_t local_size(const dl_engine *e)
{
    return e->max_wg < BS_MAX_LOCAL ? e->max_wg : BS_MAX_LOCAL;
}

static int bs_fits(const dl_engine *e, const dl_step_desc *d)
{
    if (d->tile > UINT32_MAX / d->rec->rec_words)
        return 0;
    return d->tile * d->rec->rec_words <=
           local_size(e) * BS_MAX_WORDS_PER_ITEM;
}

static dl_status bs_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    size_t n = d->tile * d->rec->rec_words;
    size_t groups_tiles = n >= BS_TARGET_WORDS ? 1 : BS_TARGET_WORDS / n;
    size_t local = local_size(e);
    if (local > groups_tiles * n)
        local = groups_tiles * n;
    size_t k = dl_div_up(groups_tiles * n, local);
    while (k > BS_MAX_WORDS_PER_ITEM && groups_tiles > 1) {
        groups_tiles--;
        k = dl_div_up(groups_tiles * n, local);
    }
    s->params[P_GROUP_TILES] = groups_tiles;
    s->params[P_LOCAL] = local;
    s->params[P_WORDS_PER_ITEM] = k;

    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(&spec, "DL_N", "%zuu", n);
    dl_spec_define(&spec, "DL_G", "%zuu", groups_tiles);
    dl_spec_define(&spec, "DL_L", "%zu", local);
    dl_spec_define(&spec, "DL_K", "%zu", k);
    dl_spec_define(&spec, "DL_INVERSE", "%d", d->inverse);
    dl_status st = dl_engine_kernel(e, "bs.cl", &spec, "dl_bs", &s->kernels[0]);
    if (st == DL_SUCCESS)
        st = dl_engine_kernel(e, "bs.cl", &spec, "dl_bs_tail",
                              &s->kernels[1]);
    dl_spec_free(&spec);
    return st;
}

static dl_status bs_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    const dl_step_desc *d = &s->desc;
    cl_ulong full = d->count / d->tile, count = d->count;
    size_t local = s->params[P_LOCAL];
    if (full) {
        size_t global = dl_div_up(full, s->params[P_GROUP_TILES]) * local;
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 0, sizeof buf, &buf));
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 1, sizeof full, &full));
        DL_RETURN_IF_FAIL(dl_chain_kernel(c, s->kernels[0], 1, &global,
                                          &local));
    }
    if (d->count % d->tile > 1) {
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[1], 0, sizeof buf, &buf));
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[1], 1, sizeof count, &count));
        DL_RETURN_IF_FAIL(dl_chain_kernel(c, s->kernels[1], 1, &local,
                                          &local));
    }
    return DL_SUCCESS;
}

const dl_algo_ops dl_algo_bs = {
    .name = "bs",
    .algo = DL_ALGO_BS,
    .kind = DL_STEP_TILES,
    .fits = bs_fits,
    .prepare = bs_prepare,
    .enqueue = bs_enqueue,
};
