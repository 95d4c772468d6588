/* remap.c - graph-partitioned remapping (remap.h): profile, graph,
 * partition, layout; and the redirected index P'. */
#include "remap.h"
#include "clock.h"
#include "error.h"
#include "remap_layout.h"
#include "remap_partition.h"
#include "warps.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static double seconds_since(uint64_t t0)
{
    return (double)(dl_now_ns() - t0) * 1e-9;
}

static dl_status check_plan(const dl_coalesce_geometry *geometry,
                            const dl_coalesce_ref *ref,
                            const dl_coalesce_range *range, const void *index,
                            size_t index_count, unsigned index_bytes,
                            const dl_remap_params *params, const size_t *perm)
{
    const char *why = dl_remap_unavailable();
    DL_RETURN_ERROR_ON(why, DL_UNSUPPORTED, "%s", why);
    DL_RETURN_ERROR_ON(!params || !perm, DL_INVALID_ARGUMENT,
                       "remap: NULL parameters or permutation");
    DL_RETURN_ERROR_ON(!params->metis, DL_UNSUPPORTED,
                       "remap: no METIS to partition with (none linked or "
                       "loaded: remap_metis.h)");
    DL_RETURN_ERROR_ON(
        params->form != DL_REMAP_CLIQUE && params->form != DL_REMAP_HYPERGRAPH,
        DL_INVALID_ARGUMENT, "remap: graph form %d", (int)params->form);
    DL_RETURN_ERROR_ON(!(params->sample >= 0 && params->sample <= 1),
                       DL_INVALID_ARGUMENT,
                       "remap: sample fraction %g "
                       "outside [0, 1]",
                       params->sample);
    /* The analyser checks the rest. */
    dl_coalesce_counts unused;
    return dl_coalesce_count(geometry, ref, range, index, index_count,
                             index_bytes, &unused);
}

/* part[v] for every element vertex: METIS's, or all 0 for one part (which
 * METIS 5.1 does not take). */
static dl_status partition(const dl_remap_patterns *p,
                           const dl_remap_incidence *inc,
                           const dl_remap_params *params, dl_remap_stats *st,
                           uint32_t *part)
{
    if (st->parts < 2) {
        memset(part, 0, p->elements * sizeof *part);
        return DL_SUCCESS;
    }
    dl_remap_csr g;
    DL_RETURN_IF_FAIL(dl_remap_graph_build(p, inc, params->form, &g));
    st->vertices = g.vertices;
    st->edges = g.xadj[g.vertices] / 2;
    uint64_t objective;
    dl_status s =
        dl_remap_partition(params->metis, &g, st->parts, st->per_segment,
                           params->seed, part, &objective);
    dl_remap_csr_free(&g);
    return s;
}

/* The graph, its partition and the layout of a profile. */
static dl_status lay_out(const dl_remap_patterns *p,
                         const dl_remap_params *params, size_t a_count,
                         size_t *perm, dl_remap_stats *st)
{
    uint64_t t0 = dl_now_ns();
    dl_remap_incidence inc;
    DL_RETURN_IF_FAIL(dl_remap_incidence_of(p, &inc));
    uint32_t *part = malloc((p->elements + 1) * sizeof *part);
    dl_status s = part ? partition(p, &inc, params, st, part)
                       : dl_fail(DL_OUT_OF_MEMORY, "remap: no memory for "
                                                   "the partition");
    st->partition_s = seconds_since(t0);
    t0 = dl_now_ns();
    if (s == DL_SUCCESS)
        s = dl_remap_layout(p, &inc, part, st->parts ? st->parts : 1,
                            st->per_segment, a_count, perm, &st->moved);
    st->layout_s = seconds_since(t0);
    free(part);
    dl_remap_incidence_free(&inc);
    return s;
}

dl_status dl_remap_plan(const dl_coalesce_geometry *geometry,
                        const dl_coalesce_ref *ref,
                        const dl_coalesce_range *range, const void *index,
                        size_t index_count, unsigned index_bytes,
                        size_t a_count, const dl_remap_params *params,
                        size_t *perm, dl_remap_stats *stats)
{
    DL_RETURN_IF_FAIL(check_plan(geometry, ref, range, index, index_count,
                                 index_bytes, params, perm));
    dl_remap_stats st = {0};
    size_t per = geometry->segment_bytes / ref->elem_bytes;
    st.per_segment = per ? per : 1;
    uint64_t t0 = dl_now_ns();
    dl_remap_patterns p;
    DL_RETURN_IF_FAIL(dl_remap_profile(geometry, ref, range, index, index_count,
                                       index_bytes, a_count, params, &p));
    st.profile_s = seconds_since(t0);
    st.referenced = p.elements;
    st.parts = (p.elements + st.per_segment - 1) / st.per_segment;
    st.accesses = p.accesses;
    st.sampled = p.sampled;
    st.patterns = p.count;
    dl_status s = lay_out(&p, params, a_count, perm, &st);
    dl_remap_patterns_free(&p);
    if (s == DL_SUCCESS && stats)
        *stats = st;
    return s;
}

/* The new value of one entry, or the old one outside A. */
static int redirect_one(long long v, long long c, const size_t *perm,
                        size_t a_count, long long *out)
{
    long long x;
    *out = v;
    if (__builtin_add_overflow(v, c, &x) || x < 0 ||
        (unsigned long long)x >= a_count)
        return 0;
    return perm[x] > (size_t)LLONG_MAX ||
           __builtin_sub_overflow((long long)perm[x], c, out);
}

dl_status dl_remap_redirect(const dl_coalesce_ref *ref, const size_t *perm,
                            size_t a_count, const void *index,
                            size_t index_count, unsigned index_bytes, void *out)
{
    DL_RETURN_ERROR_ON(!ref || !perm || (!index && index_count) || !out,
                       DL_INVALID_ARGUMENT, "remap: NULL argument");
    DL_RETURN_ERROR_ON(
        index_bytes != 4 && index_bytes != 8, DL_INVALID_ARGUMENT,
        "remap: index entries of %u bytes (4 or 8)", index_bytes);
    for (size_t e = 0; e < index_count; e++) {
        long long v;
        int bad = redirect_one(dl_index_at(index, index_bytes, e), ref->offset,
                               perm, a_count, &v);
        DL_RETURN_ERROR_ON(
            bad || (index_bytes == 4 && (v < INT32_MIN || v > INT32_MAX)),
            DL_INVALID_ARGUMENT,
            "remap: entry %zu's new "
            "value does not fit %u bytes",
            e, index_bytes);
        if (index_bytes == 4)
            ((int32_t *)out)[e] = (int32_t)v;
        else
            ((int64_t *)out)[e] = v;
    }
    return DL_SUCCESS;
}
