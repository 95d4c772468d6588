/* algo_pttwac_instance.c - AoS <-> ASTA(T) by cycle following inside each
 * tile (marshal_kernels/pttwac_instance.cl): one work-group per tile, done
 * bits in local memory.  For tiles too large for bs; slower than bs
 * wherever both fit. */
#include "internal.h"

/* Work-items per tile: on a GPU enough to keep a compute unit busy.  On a
 * CPU a work-group runs on one core anyway, so one item per tile loses no
 * parallelism, and with nobody to share them the done bits need no atomics
 * (locked read-modify-writes made the walk 3-10x slower on POCL). */
#define PI_GPU_LOCAL 256u
#define PI_CPU_LOCAL 1u
/* Starts per work-item and round: more starts mean fewer barriers but a
 * longer private stash. */
#define PI_STARTS 4u

enum { P_LOCAL };

static size_t done_bytes(const dl_step_desc *d)
{
    return dl_div_up(d->tile * d->rec->rec_words, 32) * sizeof(cl_uint);
}

static int pi_fits(const dl_engine *e, const dl_step_desc *d)
{
    if (d->tile > UINT32_MAX / 2 / d->rec->rec_words)
        return 0; /* positions are uints */
    return done_bytes(d) <= e->local_mem;
}

static dl_status pi_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    size_t local = e->local_is_global ? PI_CPU_LOCAL : PI_GPU_LOCAL;
    if (local > e->max_wg)
        local = e->max_wg;
    s->params[P_LOCAL] = local;

    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(&spec, "DL_N", "%zuu", d->tile * d->rec->rec_words);
    dl_spec_define(&spec, "DL_L", "%zuu", local);
    dl_spec_define(&spec, "DL_STARTS", "%uu", PI_STARTS);
    dl_spec_define(&spec, "DL_DONE_WORDS", "%zuu",
                   done_bytes(d) / sizeof(cl_uint));
    dl_spec_define(&spec, "DL_INVERSE", "%d", d->inverse);
    dl_status st = dl_engine_kernel(e, "pttwac_instance.cl", &spec,
                                    "dl_pttwac_instance", &s->kernels[0]);
    if (st == DL_SUCCESS)
        st = dl_engine_kernel(e, "pttwac_instance.cl", &spec,
                              "dl_pttwac_instance_tail", &s->kernels[1]);
    dl_spec_free(&spec);
    return st;
}

static dl_status pi_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    const dl_step_desc *d = &s->desc;
    size_t local = s->params[P_LOCAL];
    size_t full = d->count / d->tile;
    if (full) {
        size_t global = full * local;
        DL_RETURN_IF_FAIL(dl_set_arg(s->kernels[0], 0, sizeof buf, &buf));
        DL_RETURN_IF_FAIL(
            dl_chain_kernel(c, s->kernels[0], 1, &global, &local));
    }
    return dl_chain_tail_tile(c, s, s->kernels[1], buf, local);
}

const dl_algo_ops dl_algo_pttwac_instance = {
    .name = "pttwac-instance",
    .algo = DL_ALGO_PTTWAC,
    .kind = DL_STEP_TILES,
    .fits = pi_fits,
    .prepare = pi_prepare,
    .enqueue = pi_enqueue,
};
