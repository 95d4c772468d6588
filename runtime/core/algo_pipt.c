/* algo_pipt.c - P-IPT, the DA <-> ASTA(T) chunk transpose with one
 * work-group per cycle (marshal_kernels/pipt.cl): a baseline for dl-bench.
 * The tail split is tail.c's; its temporary is the only extra memory. */
#include "clapi.h"
#include "tail.h"

#define PIPT_GROUPS_PER_CU 64u /* many groups: cycles differ in length */

enum { P_LOCAL, P_GROUPS };

static int pipt_fits(const dl_engine *e, const dl_step_desc *d)
{
    (void)e;
    return d->tile <= UINT32_MAX / 2;
}

static dl_status pipt_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    if (d->rec->nparts < 2)
        return DL_SUCCESS; /* one part: DA and ASTA(T) are the same bytes */
    dl_chunk_geometry g = dl_chunk_geometry_of(e, d);
    size_t pieces = dl_chunk_pieces(d, &g);
    size_t groups = (size_t)e->compute_units * PIPT_GROUPS_PER_CU;
    s->params[P_LOCAL] = g.local;
    s->params[P_GROUPS] = groups < pieces ? groups : pieces;

    dl_spec spec;
    dl_spec_init(&spec);
    dl_chunk_spec(&spec, d, &g);
    dl_status st =
        dl_engine_kernel(e, "pipt.cl", &spec, "dl_pipt", &s->kernels[0]);
    dl_spec_free(&spec);
    DL_RETURN_IF_FAIL(st);
    DL_RETURN_IF_FAIL(dl_tail_prepare(e, s));
    s->extra_bytes = dl_tail_temp_bytes(s);
    return DL_SUCCESS;
}

static dl_status pipt_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    if (!s->kernels[0])
        return DL_SUCCESS;
    cl_mem tmp = NULL;
    if (s->extra_bytes) {
        cl_int err;
        tmp = dl_cl.clCreateBuffer(c->engine->context, CL_MEM_READ_WRITE,
                                   s->extra_bytes, NULL, &err);
        DL_RETURN_ON_CL(err, "clCreateBuffer (tail split)");
    }
    cl_ulong q = s->desc.count / s->desc.tile;
    size_t local = s->params[P_LOCAL];
    size_t global = s->params[P_GROUPS] * local;
    dl_status st = DL_SUCCESS;
    if (!s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    if (st == DL_SUCCESS)
        st = dl_set_arg(s->kernels[0], 0, sizeof buf, &buf);
    if (st == DL_SUCCESS)
        st = dl_set_arg(s->kernels[0], 1, sizeof q, &q);
    if (st == DL_SUCCESS)
        st = dl_chain_kernel(c, s->kernels[0], 1, &global, &local);
    if (st == DL_SUCCESS && s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    if (tmp)
        dl_cl.clReleaseMemObject(
            tmp); /* freed once the queued commands finish */
    return st;
}

const dl_algo_ops dl_algo_pipt = {
    .name = "pipt",
    .algo = DL_ALGO_PIPT,
    .kind = DL_STEP_CHUNKS,
    .fits = pipt_fits,
    .prepare = pipt_prepare,
    .enqueue = pipt_enqueue,
};
