/* tail.c - what the chunk algorithms share: piece geometry and the host
 * side of the tail split (marshal_kernels/tail.cl), where one launch copies
 * the tail words and small halos to a temporary and one shifts the
 * full-tile parts by work-groups that each own a range (GPUs); on CPUs
 * work-groups of one item rotate the tails into place, each in a range of
 * its own, with no temporary at all. */
#include "tail.h"

/* GPUs: a work-group moves a piece together, each item a few words
 * (coalesced).  CPUs (POCL): a work-group is one thread, and a single
 * work-item moving whole pieces with vector loops was fastest. */
#define CHUNK_LOCAL           64u
#define CHUNK_MAX_PER_ITEM    16u
#define CHUNK_CPU_PIECE_BYTES 4096u
/* PTTWAC claims ahead: this many loads in flight together per group. */
#define CHUNK_AHEAD 64u
/* PTTWAC start search: done words (of 32 pieces) per shared-counter step. */
#define CHUNK_SPAN 32u

dl_chunk_geometry dl_chunk_geometry_of(const dl_engine *e,
                                       const dl_step_desc *d)
{
    dl_chunk_geometry g;
    size_t most; /* words of a piece */
    if (e->local_is_global) {
        g.local = 1;
        most = CHUNK_CPU_PIECE_BYTES / d->rec->word;
    } else {
        g.local = e->max_wg < CHUNK_LOCAL ? e->max_wg : CHUNK_LOCAL;
        most = g.local * CHUNK_MAX_PER_ITEM;
    }
    g.pieces = dl_div_up(d->tile, most);
    g.piece = dl_div_up(d->tile, g.pieces);
    if (g.local > g.piece)
        g.local = g.piece;
    g.per_item = dl_div_up(g.piece, g.local);
    return g;
}

size_t dl_chunk_pieces(const dl_step_desc *d, const dl_chunk_geometry *g)
{
    return d->count / d->tile * d->rec->rec_words * g->pieces;
}

void dl_chunk_spec(dl_spec *spec, const dl_step_desc *d,
                   const dl_chunk_geometry *g)
{
    dl_spec_record(spec, d->rec);
    dl_spec_define(spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(spec, "DL_INVERSE", "%d", d->inverse);
    dl_spec_define(spec, "DL_L", "%zuu", g->local);
    dl_spec_define(spec, "DL_C", "%zuu", g->piece);
    dl_spec_define(spec, "DL_P", "%zuu", g->pieces);
    dl_spec_define(spec, "DL_K", "%zuu", g->per_item);
    dl_spec_define(spec, "DL_D", "%uu", CHUNK_AHEAD);
    dl_spec_define(spec, "DL_SPAN", "%uu", CHUNK_SPAN);
}

#define TAIL_LOCAL          64u
#define TAIL_WORDS_PER_ITEM 8u
#define TAIL_GROUPS_PER_CU  4u
#define TAIL_MIN_RANGE      65536u /* words: fewer groups on small buffers */
#define TAIL_HALO_BUDGET    (64u << 10) /* bytes of halo copies, at least */

static size_t tail_rest(const dl_step_desc *d)
{
    return d->count % d->tile;
}

/* Farthest a full-tile word moves: R times the first word of the last
 * part (the tails of all earlier parts lie before it). */
static size_t halo_words(const dl_step_desc *d)
{
    const dl_record *r = d->rec;
    return tail_rest(d) * (r->parts[r->nparts - 1].offset / r->word);
}

/* The split by work-groups (GPUs): the items of a group share each block. */
static size_t local_size(const dl_engine *e)
{
    return e->max_wg < TAIL_LOCAL ? e->max_wg : TAIL_LOCAL;
}

/* CPUs: work-groups of one work-item rotate the tails into place
 * (dl_tail_rotate), each in one streaming pass over its range that walks
 * up the buffer, with no temporary; one more work-item then swaps the
 * short carries at the ranges' ends into place (dl_tail_fixup).  Two
 * groups per compute unit balance a shared machine; a range of fewer
 * than TAIL_CPU_MIN_RANGE words is not worth a launch of its own. */
#define TAIL_CPU_GROUPS_PER_CU 2u
#define TAIL_CPU_MAX_GROUPS                                                    \
    16u /* DL_TAIL_MAX_GROUPS: the kernels' cut table                          \
         */
#define TAIL_CPU_MIN_RANGE 65536u

static dl_status rotate_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    size_t total = d->count * d->rec->rec_words;
    size_t groups = e->compute_units * TAIL_CPU_GROUPS_PER_CU;
    if (groups > TAIL_CPU_MAX_GROUPS)
        groups = TAIL_CPU_MAX_GROUPS;
    if (groups > total / TAIL_CPU_MIN_RANGE)
        groups = total / TAIL_CPU_MIN_RANGE;
    if (groups < 1)
        groups = 1;
    s->params[DL_TAIL_PARAM_GROUPS] = groups;
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuUL", d->tile);
    /* No direction: the CPU form holds both (split and merge), so they
     * share one program. */
    dl_spec_define(&spec, "DL_TAIL_MAX_GROUPS", "%uu", TAIL_CPU_MAX_GROUPS);
    int inv = d->inverse;
    dl_status st = dl_engine_kernel(
        e, "tail.cl", &spec, inv ? "dl_tail_rotate_inverse" : "dl_tail_rotate",
        &s->kernels[DL_TAIL_KERNEL_SHIFT]);
    if (st == DL_SUCCESS && groups > 1)
        st = dl_engine_kernel(e, "tail.cl", &spec,
                              inv ? "dl_tail_fixup_inverse" : "dl_tail_fixup",
                              &s->kernels[DL_TAIL_KERNEL_FIXUP]);
    dl_spec_free(&spec);
    return st;
}

/* The rotation by work-groups, then the fixup (the merge: the reverse). */
static dl_status rotate_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    cl_kernel rotate = s->kernels[DL_TAIL_KERNEL_SHIFT];
    cl_kernel fixup = s->kernels[DL_TAIL_KERNEL_FIXUP];
    cl_ulong count = s->desc.count;
    cl_uint groups = (cl_uint)s->params[DL_TAIL_PARAM_GROUPS];
    size_t global = groups, one = 1;
    DL_RETURN_IF_FAIL(dl_set_arg(rotate, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(rotate, 1, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(rotate, 2, sizeof groups, &groups));
    if (!fixup)
        return dl_chain_kernel(c, rotate, 1, &global, &one);
    DL_RETURN_IF_FAIL(dl_set_arg(fixup, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(fixup, 1, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(fixup, 2, sizeof groups, &groups));
    if (s->desc.inverse)
        DL_RETURN_IF_FAIL(dl_chain_kernel(c, fixup, 1, &one, &one));
    DL_RETURN_IF_FAIL(dl_chain_kernel(c, rotate, 1, &global, &one));
    if (!s->desc.inverse)
        DL_RETURN_IF_FAIL(dl_chain_kernel(c, fixup, 1, &one, &one));
    return DL_SUCCESS;
}

dl_status dl_tail_prepare(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    if (tail_rest(d) == 0 || d->rec->nparts < 2)
        return DL_SUCCESS; /* nothing to split (one part: DA is ASTA) */
    if (e->local_is_global)
        return rotate_prepare(e, s);
    size_t total = d->count * d->rec->rec_words;
    size_t halo_bytes = halo_words(d) * d->rec->word;
    /* Every group needs a halo copy: bound their memory, but let a large
     * buffer use about as much as PTTWAC's done bits. */
    size_t budget = d->count * d->rec->size / 1024;
    if (budget < TAIL_HALO_BUDGET)
        budget = TAIL_HALO_BUDGET;
    size_t groups = e->compute_units * TAIL_GROUPS_PER_CU;
    if (groups > total / TAIL_MIN_RANGE)
        groups = total / TAIL_MIN_RANGE;
    if (groups > budget / halo_bytes)
        groups = budget / halo_bytes;
    if (groups < 1)
        groups = 1;
    s->params[DL_TAIL_PARAM_GROUPS] = groups;
    s->params[DL_TAIL_PARAM_RANGE] = dl_div_up(total, groups);

    size_t local = local_size(e);
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuUL", d->tile);
    dl_spec_define(&spec, "DL_INVERSE", "%d", d->inverse);
    dl_spec_define(&spec, "DL_L", "%zuu", local);
    dl_spec_define(&spec, "DL_BK", "%uu", TAIL_WORDS_PER_ITEM);
    dl_spec_define(&spec, "DL_US_LAST", "%uu",
                   d->rec->parts[d->rec->nparts - 1].offset / d->rec->word);
    dl_status st = dl_engine_kernel(e, "tail.cl", &spec, "dl_tail_gather",
                                    &s->kernels[DL_TAIL_KERNEL_GATHER]);
    if (st == DL_SUCCESS)
        st = dl_engine_kernel(e, "tail.cl", &spec, "dl_tail_shift",
                              &s->kernels[DL_TAIL_KERNEL_SHIFT]);
    dl_spec_free(&spec);
    return st;
}

size_t dl_tail_temp_bytes(const dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    if (!s->kernels[DL_TAIL_KERNEL_GATHER])
        return 0; /* no tail, or dl_tail_rotate */
    size_t words = tail_rest(d) * d->rec->rec_words +
                   s->params[DL_TAIL_PARAM_GROUPS] * halo_words(d);
    return words * d->rec->word;
}

dl_status dl_tail_enqueue(dl_step *s, dl_chain *c, cl_mem buf, cl_mem temp)
{
    if (!s->kernels[DL_TAIL_KERNEL_SHIFT])
        return DL_SUCCESS;
    if (!s->kernels[DL_TAIL_KERNEL_GATHER])
        return rotate_enqueue(s, c, buf);
    cl_kernel gather = s->kernels[DL_TAIL_KERNEL_GATHER];
    cl_kernel shift = s->kernels[DL_TAIL_KERNEL_SHIFT];
    cl_ulong count = s->desc.count;
    cl_ulong range = s->params[DL_TAIL_PARAM_RANGE];
    cl_uint groups = (cl_uint)s->params[DL_TAIL_PARAM_GROUPS];
    size_t local = local_size(c->engine);
    size_t entries = dl_tail_temp_bytes(s) / s->desc.rec->word;
    size_t cap = (size_t)c->engine->compute_units * 64 * local;
    size_t global = dl_div_up(entries < cap ? entries : cap, local) * local;
    DL_RETURN_IF_FAIL(dl_set_arg(gather, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(gather, 1, sizeof temp, &temp));
    DL_RETURN_IF_FAIL(dl_set_arg(gather, 2, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(gather, 3, sizeof range, &range));
    DL_RETURN_IF_FAIL(dl_set_arg(gather, 4, sizeof groups, &groups));
    DL_RETURN_IF_FAIL(dl_chain_kernel(c, gather, 1, &global, &local));
    global = groups * local;
    DL_RETURN_IF_FAIL(dl_set_arg(shift, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(shift, 1, sizeof temp, &temp));
    DL_RETURN_IF_FAIL(dl_set_arg(shift, 2, sizeof count, &count));
    DL_RETURN_IF_FAIL(dl_set_arg(shift, 3, sizeof range, &range));
    return dl_chain_kernel(c, shift, 1, &global, &local);
}
