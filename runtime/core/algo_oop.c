/* algo_oop.c - out-of-place conversion through a temporary copy of the
 * whole buffer (marshal_kernels/transpose_oop.cl).  A baseline for
 * dl-bench: it needs 100% extra device memory. */
#include "clapi.h"
#include "internal.h"

static int oop_fits(const dl_engine *e, const dl_step_desc *d)
{
    (void)e;
    (void)d;
    return 1;
}

/* The layouts on both sides of a step, as effective tiles. */
static void step_tiles(const dl_step_desc *d, dl_step_kind kind, size_t *from,
                       size_t *to)
{
    size_t other = kind == DL_STEP_TILES ? 1 : d->count;
    *from = d->inverse ? d->tile : other;
    *to = d->inverse ? other : d->tile;
}

static dl_status oop_prepare_kind(dl_engine *e, dl_step *s, dl_step_kind kind)
{
    size_t from, to;
    step_tiles(&s->desc, kind, &from, &to);
    s->extra_bytes = s->desc.count * s->desc.rec->size;
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, s->desc.rec);
    dl_spec_define(&spec, "DL_FROM_TILE", "%zuUL", from);
    dl_spec_define(&spec, "DL_TO_TILE", "%zuUL", to);
    dl_status st = dl_engine_kernel(e, "transpose_oop.cl", &spec, "dl_oop",
                                    &s->kernels[0]);
    dl_spec_free(&spec);
    return st;
}

static dl_status oop_prepare_tiles(dl_engine *e, dl_step *s)
{
    return oop_prepare_kind(e, s, DL_STEP_TILES);
}

static dl_status oop_prepare_chunks(dl_engine *e, dl_step *s)
{
    return oop_prepare_kind(e, s, DL_STEP_CHUNKS);
}

static dl_status oop_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    cl_int err;
    size_t bytes = s->extra_bytes;
    cl_mem tmp = dl_cl.clCreateBuffer(c->engine->context, CL_MEM_READ_WRITE,
                                      bytes, NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (out-of-place temporary)");
    cl_ulong count = s->desc.count;
    size_t words = count * s->desc.rec->rec_words;
    size_t local = 256;
    size_t global = dl_div_up(words, local) * local;
    dl_status st = dl_chain_copy(c, buf, tmp, bytes);
    if (st == DL_SUCCESS)
        st = dl_set_arg(s->kernels[0], 0, sizeof buf, &buf);
    if (st == DL_SUCCESS)
        st = dl_set_arg(s->kernels[0], 1, sizeof tmp, &tmp);
    if (st == DL_SUCCESS)
        st = dl_set_arg(s->kernels[0], 2, sizeof count, &count);
    if (st == DL_SUCCESS)
        st = dl_chain_kernel(c, s->kernels[0], 1, &global, &local);
    dl_cl.clReleaseMemObject(tmp); /* freed once the queued commands finish */
    return st;
}

const dl_algo_ops dl_algo_oop_tiles = {
    .name = "oop",
    .algo = DL_ALGO_OOP,
    .kind = DL_STEP_TILES,
    .fits = oop_fits,
    .prepare = oop_prepare_tiles,
    .enqueue = oop_enqueue,
};

const dl_algo_ops dl_algo_oop_chunks = {
    .name = "oop",
    .algo = DL_ALGO_OOP,
    .kind = DL_STEP_CHUNKS,
    .fits = oop_fits,
    .prepare = oop_prepare_chunks,
    .enqueue = oop_enqueue,
};
