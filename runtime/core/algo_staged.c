/* algo_staged.c - stage 2 of the staged DA <-> ASTA(T) conversion: the
 * regroup of every ASTA(T1) tile between DA(T1) and ASTA(T)
 * (marshal_kernels/staged.cl), and the choice of T1.  The planner (plan.c)
 * pairs it with a cycles(T1) step (algo_staged_cycles.c): DA -> ASTA(T1)
 * -> ASTA(T), so the cycle following moves runs of T1 records instead of
 * T (b = T1/T times longer, b times fewer leader bits) at the price of one
 * streaming pass.  Also the staging tile of AoS <-> DA on CPUs.
 *
 * CPU schedule only (a block lives in one work-item's private array); on
 * other devices the planner keeps the single-stage path. */
#include "internal.h"

/* A block (T1 records) lives in a work-item's private array: 64 KiB, as
 * bs.cl's largest tile. */
#define STAGED_BLOCK_BYTES 65536u
/* Chunks of at least this many bytes go straight to staged_cycles.cl
 * (DL_CYCLES_MIN_CHUNK_BYTES); shorter ones are lengthened by at least
 * STAGED_MIN_FACTOR to pay for the extra pass of stage 2. */
#define STAGED_MIN_FACTOR 4u
/* Work division as bs.cl's CPU schedule: a few hundred KiB per work-item,
 * at least 8 work-items per core; prefetch one block ahead. */
#define STAGED_ITEM_BYTES     (256u * 1024u)
#define STAGED_ITEMS_PER_CORE 8u

enum { P_PER_ITEM };

size_t dl_staged_block(const dl_engine *e, const dl_record *rec, size_t count,
                       size_t tile)
{
    if (!e->local_is_global || rec->nparts < 2 || tile < 2 || tile >= count ||
        tile * rec->word >= DL_CYCLES_MIN_CHUNK_BYTES)
        return 0;
    if (count * rec->size <= STAGED_BLOCK_BYTES)
        return count; /* one block holds everything: stage 2 alone */
    size_t bmax = STAGED_BLOCK_BYTES / rec->size / tile, q = count / tile;
    if (bmax > q)
        bmax = q;
    if (bmax < STAGED_MIN_FACTOR)
        return 0;
    /* A factor that divides Q leaves no partial block, so stage 1 needs no
     * tail split (a streaming pass of its own) beyond that of T. */
    for (size_t b = bmax; b * 2 >= bmax; b--)
        if (q % b == 0)
            return b * tile;
    return bmax * tile;
}

size_t dl_staged_aos_tile(const dl_engine *e, const dl_record *rec,
                          size_t count)
{
    if (!e->local_is_global || rec->nparts < 2)
        return 0;
    size_t tmax = STAGED_BLOCK_BYTES / rec->size;
    if (tmax < 2 || tmax >= count)
        return 0;
    for (size_t t = tmax; t * 2 >= tmax; t--) /* no tail split if t | M */
        if (count % t == 0)
            return t;
    return tmax;
}

static int staged_fits(const dl_engine *e, const dl_step_desc *d)
{
    /* Blocks tile the buffer in whole ASTA(T) tiles, or one block is all. */
    return e->local_is_global && d->block > d->tile && d->block <= d->count &&
           (d->block % d->tile == 0 || d->block == d->count) &&
           d->block * d->rec->size <= STAGED_BLOCK_BYTES;
}

static dl_status staged_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    size_t block_bytes = d->block * d->rec->size;
    size_t blocks = d->count / d->block;
    s->params[P_PER_ITEM] = dl_cpu_units_per_item(
        e, blocks, block_bytes, STAGED_ITEM_BYTES, STAGED_ITEMS_PER_CORE);

    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(&spec, "DL_T1", "%zuu", d->block);
    dl_spec_define(&spec, "DL_N1", "%zuu", d->block * d->rec->rec_words);
    dl_spec_define(&spec, "DL_INVERSE", "%d", d->inverse);
    dl_status st =
        dl_engine_kernel(e, "staged.cl", &spec, "dl_regroup", &s->kernels[0]);
    dl_spec_free(&spec);
    return st;
}

static dl_status staged_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    const dl_step_desc *d = &s->desc;
    cl_ulong count = d->count;
    size_t blocks = d->count / d->block, one = 1;
    cl_uint per_item = (cl_uint)s->params[P_PER_ITEM];
    cl_uint items = (cl_uint)dl_div_up(blocks, per_item);
    /* One more work-item for a partial last block of more than one tile. */
    size_t global = items + (size_t)(d->count % d->block > d->tile);
    cl_kernel k = s->kernels[0];
    DL_RETURN_IF_FAIL(dl_set_arg(k, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 1, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 2, sizeof per_item, &per_item));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 3, sizeof items, &items));
    return dl_chain_kernel(c, k, 1, &global, &one);
}

const dl_algo_ops dl_algo_staged_regroup = {
    .name = "regroup",
    .algo = DL_ALGO_AUTO,
    .kind = DL_STEP_REGROUP,
    .fits = staged_fits,
    .prepare = staged_prepare,
    .enqueue = staged_enqueue,
};
