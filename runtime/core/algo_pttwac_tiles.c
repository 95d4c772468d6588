/* algo_pttwac_tiles.c - DA <-> ASTA(T) in place by cycle following with
 * atomic done bits, several work-groups per cycle
 * (marshal_kernels/pttwac_tiles.cl; the tail split is tail.c's).
 *
 * Temporary per enqueue: 4 control words, a link table of `cap` entries
 * (16 bytes) and one done bit per piece, i.e. about 1/(8*T*W) of the
 * buffer plus 16*(cap+1) bytes; the tail split reuses the same buffer. */
#include "clapi.h"
#include "tail.h"

#define PTTWAC_GROUPS_PER_CU 2u
#define PTTWAC_MAX_GROUPS    4096u
/* A concurrent walk that starts inside a long cycle ends in a link; runs
 * with G groups needed about 14*G links, so rounds rarely overflow. */
#define PTTWAC_LINKS_PER_GROUP 16u
#define PTTWAC_LINKS_MIN       32u
#define PTTWAC_CTL_BYTES       16u

enum { P_GROUPS, P_CAP, P_DONE_WORDS, P_LOCAL };

static int pttwac_fits(const dl_engine *e, const dl_step_desc *d)
{
    if (d->tile > UINT32_MAX / 2)
        return 0;
    dl_chunk_geometry g = dl_chunk_geometry_of(e, d);
    /* The batch counter counts 32-piece batches in 32 bits. */
    return dl_chunk_pieces(d, &g) / 32 < UINT32_MAX / 2;
}

static size_t groups_of(const dl_engine *e)
{
    size_t g = (size_t)e->compute_units * PTTWAC_GROUPS_PER_CU;
    return g < PTTWAC_MAX_GROUPS ? g : PTTWAC_MAX_GROUPS;
}

static size_t control_bytes(const dl_step *s)
{
    return PTTWAC_CTL_BYTES + s->params[P_CAP] * 16 +
           s->params[P_DONE_WORDS] * 4;
}

static dl_status pttwac_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    if (d->rec->nparts < 2)
        return DL_SUCCESS; /* one part: DA and ASTA(T) are the same bytes */
    dl_chunk_geometry g = dl_chunk_geometry_of(e, d);
    size_t groups = groups_of(e);
    s->params[P_GROUPS] = groups;
    s->params[P_CAP] = PTTWAC_LINKS_MIN + PTTWAC_LINKS_PER_GROUP * groups;
    s->params[P_DONE_WORDS] = dl_div_up(dl_chunk_pieces(d, &g), 32);

    dl_spec spec;
    dl_spec_init(&spec);
    dl_chunk_spec(&spec, d, &g);
    dl_status st = dl_engine_kernel(e, "pttwac_tiles.cl", &spec,
                                    "dl_pttwac_walk", &s->kernels[0]);
    if (st == DL_SUCCESS)
        st = dl_engine_kernel(e, "pttwac_tiles.cl", &spec, "dl_pttwac_resolve",
                              &s->kernels[1]);
    dl_spec_free(&spec);
    s->params[P_LOCAL] = g.local;
    DL_RETURN_IF_FAIL(st);
    DL_RETURN_IF_FAIL(dl_tail_prepare(e, s));
    size_t tail = dl_tail_temp_bytes(s);
    s->extra_bytes = control_bytes(s) > tail ? control_bytes(s) : tail;
    return DL_SUCCESS;
}

static dl_status set_args(cl_kernel k, cl_mem buf, cl_mem tmp, cl_ulong q,
                          cl_uint cap)
{
    DL_RETURN_IF_FAIL(dl_set_arg(k, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 1, sizeof tmp, &tmp));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 2, sizeof q, &q));
    return dl_set_arg(k, 3, sizeof cap, &cap);
}

/* Rounds of (walk with G groups, resolve).  A round only leaves work if
 * the link table overflowed; the last round has one group, which never
 * collides, so it always finishes. */
static dl_status enqueue_rounds(dl_step *s, dl_chain *c, cl_mem tmp)
{
    const size_t local = s->params[P_LOCAL];
    const size_t rounds[] = {s->params[P_GROUPS], s->params[P_GROUPS], 1};
    DL_RETURN_IF_FAIL(dl_chain_fill(c, tmp, control_bytes(s)));
    for (size_t r = 0; r < sizeof rounds / sizeof *rounds; r++) {
        size_t global = rounds[r] * local;
        DL_RETURN_IF_FAIL(
            dl_chain_kernel(c, s->kernels[0], 1, &global, &local));
        DL_RETURN_IF_FAIL(dl_chain_kernel(c, s->kernels[1], 1, &local, &local));
    }
    return DL_SUCCESS;
}

static dl_status pttwac_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    if (!s->kernels[0])
        return DL_SUCCESS;
    cl_int err;
    cl_mem tmp = dl_cl.clCreateBuffer(c->engine->context, CL_MEM_READ_WRITE,
                                      s->extra_bytes, NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (PTTWAC done bits)");
    cl_ulong q = s->desc.count / s->desc.tile;
    cl_uint cap = (cl_uint)s->params[P_CAP];
    dl_status st = set_args(s->kernels[0], buf, tmp, q, cap);
    if (st == DL_SUCCESS)
        st = set_args(s->kernels[1], buf, tmp, q, cap);
    if (st == DL_SUCCESS && !s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    if (st == DL_SUCCESS)
        st = enqueue_rounds(s, c, tmp);
    if (st == DL_SUCCESS && s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    dl_cl.clReleaseMemObject(tmp); /* freed once the queued commands finish */
    return st;
}

const dl_algo_ops dl_algo_pttwac_tiles = {
    .name = "pttwac-tiles",
    .algo = DL_ALGO_PTTWAC,
    .kind = DL_STEP_CHUNKS,
    .fits = pttwac_fits,
    .prepare = pttwac_prepare,
    .enqueue = pttwac_enqueue,
};
