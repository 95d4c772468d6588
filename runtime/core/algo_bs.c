/* algo_bs.c - AoS <-> ASTA(T) by staging whole tiles in private memory
 * (marshal_kernels/bs.cl).  Fits when one tile fits what one work-group
 * (GPU) or one work-item (CPU) can hold. */
#include "internal.h"

#include <stdio.h>

/* GPU schedule: registers of one work-group. */
#define BS_GPU_MAX_WORDS_PER_ITEM 16u
#define BS_GPU_MAX_LOCAL          256u
#define BS_GPU_TARGET_WORDS       1024u /* words per group: several small tiles */

/* CPU schedule: two private arrays of a batch on the worker thread's
 * stack.  Tiles of up to 64 KiB (2 x 64 KiB of stack, far below the 8 MiB
 * default) hold the widest ELL tile of the paper (T=64, K=215 floats). */
#define BS_CPU_MAX_BYTES 65536u
/* Tiles per batch: ~4 KiB keeps the staging array in L1 (larger batches
 * measured no faster) while amortising the loop set-up of small tiles. */
#define BS_CPU_BATCH_BYTES 4096u
/* Bytes per work-item: POCL hands out work-groups one at a time, so each
 * should carry a few hundred KiB (256 KiB measured better than 64 KiB);
 * but keep >= 8 work-items per core for balance. */
#define BS_CPU_ITEM_BYTES     (256u * 1024u)
#define BS_CPU_ITEMS_PER_CORE 8u
/* How far ahead a work-item prefetches its batches (bs.cl). */
#define BS_CPU_PREFETCH_BYTES (16u * 1024u)
/* Records wider than this (W < 16) take the plain gather path: the chunk
 * list, one loop nest per 8 words, would make the program huge. */
#define BS_CPU_MAX_CHUNKED_WORDS 256u
/* AoS -> ASTA with tiles up to this wide vectorises along the record
 * (bs.cl, dl_aos_to_cols): 1.3-2x faster than rows at T = 4. */
#define BS_CPU_MAX_COLS_TILE 8u

enum { P_CPU, P_GROUP_TILES, P_LOCAL, P_WORDS_PER_ITEM, P_BATCHES_PER_ITEM };

static size_t gpu_local_size(const dl_engine *e)
{
    return e->max_wg < BS_GPU_MAX_LOCAL ? e->max_wg : BS_GPU_MAX_LOCAL;
}

static int bs_fits(const dl_engine *e, const dl_step_desc *d)
{
    const dl_record *r = d->rec;
    if (d->tile > UINT32_MAX / r->rec_words / r->word)
        return 0;
    size_t words = d->tile * r->rec_words;
    if (e->local_is_global)
        return words * r->word <= BS_CPU_MAX_BYTES;
    return words <= gpu_local_size(e) * BS_GPU_MAX_WORDS_PER_ITEM;
}

/* ------------------------------------------------------------------ GPU */

static dl_status prepare_gpu(dl_engine *e, dl_step *s, dl_spec *spec)
{
    const dl_step_desc *d = &s->desc;
    size_t n = d->tile * d->rec->rec_words;
    size_t group_tiles = n >= BS_GPU_TARGET_WORDS ? 1 : BS_GPU_TARGET_WORDS / n;
    size_t local = gpu_local_size(e);
    if (local > group_tiles * n)
        local = group_tiles * n;
    size_t k = dl_div_up(group_tiles * n, local);
    while (k > BS_GPU_MAX_WORDS_PER_ITEM && group_tiles > 1) {
        group_tiles--;
        k = dl_div_up(group_tiles * n, local);
    }
    s->params[P_GROUP_TILES] = group_tiles;
    s->params[P_LOCAL] = local;
    s->params[P_WORDS_PER_ITEM] = k;
    dl_spec_define(spec, "DL_G", "%zuu", group_tiles);
    dl_spec_define(spec, "DL_L", "%zu", local);
    dl_spec_define(spec, "DL_K", "%zu", k);
    int inv = d->inverse;
    dl_status st = dl_engine_kernel(e, "bs.cl", spec,
                                    inv ? "dl_bs_group_inverse" : "dl_bs_group",
                                    &s->kernels[0]);
    if (st == DL_SUCCESS)
        st = dl_engine_kernel(e, "bs.cl", spec,
                              inv ? "dl_bs_tail_inverse" : "dl_bs_tail",
                              &s->kernels[1]);
    return st;
}

static dl_status enqueue_gpu(dl_step *s, dl_chain *c, cl_mem buf)
{
    const dl_step_desc *d = &s->desc;
    cl_ulong full = d->count / d->tile;
    size_t local = s->params[P_LOCAL];
    if (full) {
        size_t global = dl_div_up(full, s->params[P_GROUP_TILES]) * local;
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 0, sizeof buf, &buf));
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 1, sizeof full, &full));
        DL_RETURN_IF_FAIL(
            dl_chain_kernel(c, s->kernels[0], 1, &global, &local));
    }
    return dl_chain_tail_tile(c, s, s->kernels[1], buf, local);
}

/* ------------------------------------------------------------------ CPU */

/* snprintf at *len into buf, never past room (the buffers below are sized
 * for BS_CPU_MAX_CHUNKED_WORDS; this only guards against mistakes). */
static void append(char *buf, size_t room, size_t *len, const char *fmt,
                   uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    if (*len >= room)
        return;
    int n = snprintf(buf + *len, room - *len, fmt, a, b, c, d);
    *len += n > 0 ? (size_t)n : 0;
}

/* Splits rec_words (> 8) into chunks of 8 and one of the rest (the rows
 * loops handle any width up to 8), and the staging of each chunk into
 * pieces of 8, 4, 3, 2 or 1 words (the sizes vloadN exists for, and a
 * plain word).  A rest of 5 moves as 3 + 2 rather than 4 + 1.  (Splitting
 * 9 words as 5 + 4 instead of 8 + 1 measured 5-10% slower.) */
static void chunk_lists(uint32_t words, char *chunks, char *pieces, size_t room)
{
    static const uint32_t split[9][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0},
                                         {3, 2}, {4, 2}, {4, 3}, {8, 0}};
    size_t nc = 0, np = 0;
    for (uint32_t u = 0; u < words;) {
        uint32_t c = words - u < 8 ? words - u : 8;
        append(chunks, room, &nc, "X(%uu,%u)", u, c, 0, 0);
        for (uint32_t i = 0, j = 0; i < 2 && split[c][i]; i++) {
            append(pieces, room, &np, "Y(%uu,%u,%u,%u)", u, c, j, split[c][i]);
            j += split[c][i];
        }
        u += c;
    }
}

static dl_status prepare_cpu(dl_engine *e, dl_step *s, dl_spec *spec)
{
    const dl_step_desc *d = &s->desc;
    const dl_record *r = d->rec;
    size_t tile_bytes = d->tile * r->rec_words * r->word;
    size_t group_tiles = BS_CPU_BATCH_BYTES / tile_bytes;
    if (group_tiles < 1)
        group_tiles = 1;
    size_t batches = d->count / d->tile / group_tiles;
    s->params[P_GROUP_TILES] = group_tiles;
    s->params[P_BATCHES_PER_ITEM] =
        dl_cpu_units_per_item(e, batches, group_tiles * tile_bytes,
                              BS_CPU_ITEM_BYTES, BS_CPU_ITEMS_PER_CORE);

    /* Rows need one word per part; wide records (W < 16) are chunked. */
    int chunked = r->word < 16 && r->rec_words > 8;
    int rows =
        r->uniform && (!chunked || r->rec_words <= BS_CPU_MAX_CHUNKED_WORDS);
    dl_spec_define(spec, "DL_G", "%zuu", group_tiles);
    dl_spec_define(spec, "DL_PREFETCH", "%zuu",
                   dl_div_up(BS_CPU_PREFETCH_BYTES, group_tiles * tile_bytes));
    dl_spec_define(spec, "DL_BS_ROWS", "%d", rows);
    /* Used by the forward kernel only (the program holds both). */
    dl_spec_define(spec, "DL_BS_COLS", "%d",
                   rows && d->tile <= BS_CPU_MAX_COLS_TILE);
    dl_spec_define(spec, "DL_CHUNKED", "%d", rows && chunked);
    if (rows && chunked) {
        char chunks[BS_CPU_MAX_CHUNKED_WORDS * 3], pieces[sizeof chunks];
        chunk_lists(r->rec_words, chunks, pieces, sizeof chunks);
        dl_spec_define(spec, "DL_CHUNKS(X)", "%s", chunks);
        dl_spec_define(spec, "DL_PIECES(Y)", "%s", pieces);
    } else {
        dl_spec_define(spec, "DL_CHUNKS(X)", "X(0u,%uu)", r->rec_words);
    }
    /* Unrolling the word loop is what lets the vectoriser see the c-way
     * interleave; only a W = 16 record can leave a chunk wider than 8. */
    dl_spec_define(spec, "DL_ROW_UNROLL", "%s",
                   r->rec_words <= 8 || chunked ? "_Pragma(\"unroll\")" : "");

    return dl_engine_kernel(e, "bs.cl", spec,
                            d->inverse ? "dl_bs_batch_inverse" : "dl_bs_batch",
                            &s->kernels[0]);
}

static dl_status enqueue_cpu(dl_step *s, dl_chain *c, cl_mem buf)
{
    const dl_step_desc *d = &s->desc;
    size_t g = s->params[P_GROUP_TILES], one = 1;
    cl_ulong count = d->count, full = count / d->tile;
    cl_ulong batches = full / g;
    cl_uint per_item = (cl_uint)s->params[P_BATCHES_PER_ITEM];
    cl_uint items = (cl_uint)dl_div_up(batches, per_item);
    /* One more work-item for the leftover full tiles and the tail. */
    int rest = full > batches * g || count % d->tile > 1;
    size_t global = items + (size_t)rest;
    DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 1, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 2, sizeof per_item, &per_item));
    DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 3, sizeof items, &items));
    return dl_chain_kernel(c, s->kernels[0], 1, &global, &one);
}

/* ---------------------------------------------------------------- both */

static dl_status bs_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    int cpu = e->local_is_global;
    s->params[P_CPU] = (size_t)cpu;
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(&spec, "DL_N", "%zuu", d->tile * d->rec->rec_words);
    /* No direction: bs.cl holds both, so a marshal and its restore share
     * one program. */
    dl_spec_define(&spec, "DL_BS_CPU", "%d", cpu);
    dl_status st = cpu ? prepare_cpu(e, s, &spec) : prepare_gpu(e, s, &spec);
    dl_spec_free(&spec);
    return st;
}

static dl_status bs_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    return s->params[P_CPU] ? enqueue_cpu(s, c, buf) : enqueue_gpu(s, c, buf);
}

const dl_algo_ops dl_algo_bs = {
    .name = "bs",
    .algo = DL_ALGO_BS,
    .kind = DL_STEP_TILES,
    .fits = bs_fits,
    .prepare = bs_prepare,
    .enqueue = bs_enqueue,
    .both_directions = 1,
};
